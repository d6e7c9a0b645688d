package template

import (
	"fmt"
	"strings"
)

// Kind is a template format.
type Kind string

// The template formats.
const (
	Basic       Kind = "basic"
	Semver      Kind = "semver"
	Substitutes Kind = "substitutes"
)

// Kinds lists the template formats in the order upstream's help lists them.
func Kinds() []Kind { return []Kind{Basic, Semver, Substitutes} }

// ParseKind looks a template format up by name.
func ParseKind(name string) (Kind, bool) {
	for _, k := range Kinds() {
		if string(k) == name {
			return k, true
		}
	}
	return "", false
}

// Schema is the value of the schema field that identifies the format.
func (k Kind) Schema() string {
	switch k {
	case Basic:
		return "olm.template.basic"
	case Semver:
		return "olm.semver"
	case Substitutes:
		return "olm.template.substitutes"
	}
	return ""
}

// kindOfSchema finds the format a schema field names.
func kindOfSchema(schema string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.Schema() == schema {
			return k, true
		}
	}
	return "", false
}

// schemaList names every template schema, for messages.
func schemaList() string {
	var s []string
	for _, k := range Kinds() {
		s = append(s, fmt.Sprintf("%s (%s)", k.Schema(), k))
	}
	return strings.Join(s, ", ")
}
