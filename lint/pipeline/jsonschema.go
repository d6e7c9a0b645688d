package pipeline

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// The pipeline validates ci.yaml and release-config.yaml against JSON
// schemas of its own (schemas/, copied as they are) with
// python-jsonschema's Draft 2020-12 validator, one failure per error.
// These schemas use a few keywords: type, enum, properties,
// additionalProperties, required, items, minItems and uniqueItems; this
// is a validator of those, with jsonschema's messages.

//go:embed schemas/ci-schema.json
var ciSchemaJSON []byte

//go:embed schemas/release-config-schema.json
var releaseConfigSchemaJSON []byte

// The schemas, read once (never changed).
var (
	ciConfigSchema = parseSchema(ciSchemaJSON)
	releaseSchema  = parseSchema(releaseConfigSchemaJSON)
)

// schema is a JSON schema of those keywords.
type schema struct {
	Type                 string             `json:"type"`
	Enum                 []string           `json:"enum"`
	Properties           map[string]*schema `json:"properties"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	Required             []string           `json:"required"`
	Items                *schema            `json:"items"`
	MinItems             *int               `json:"minItems"`
	UniqueItems          bool               `json:"uniqueItems"`
}

// schemaError is one error of an instance: jsonschema's message, and the
// node to place it at.
type schemaError struct {
	msg string
	at  *value.Value
}

// parseSchema reads an embedded schema.
func parseSchema(data []byte) *schema {
	s := &schema{}
	if err := json.Unmarshal(data, s); err != nil {
		panic(fmt.Sprintf("an embedded schema does not parse: %v", err)) // the tests read both
	}
	return s
}

// validate lists the errors of v (nil: Python's None) against s.
func (s *schema) validate(v *value.Value) []schemaError {
	null := value.Value{Kind: value.Null}
	if v == nil {
		v = &null
	}
	var out []schemaError
	s.check(v, &out)
	return out
}

func (s *schema) check(v *value.Value, out *[]schemaError) {
	if s.Type != "" && !isType(v, s.Type) {
		*out = append(*out, schemaError{fmt.Sprintf("%s is not of type %s", pyRepr(v), pyQuote(s.Type)), v})
	}
	if s.Enum != nil && !(v.Kind == value.String && slices.Contains(s.Enum, v.Str)) {
		*out = append(*out, schemaError{fmt.Sprintf("%s is not one of %s", pyRepr(v), pyList(s.Enum)), v})
	}
	switch v.Kind {
	case value.Object:
		s.checkObject(v, out)
	case value.Array:
		s.checkArray(v, out)
	}
}

// checkObject applies properties, additionalProperties and required.
func (s *schema) checkObject(v *value.Value, out *[]schemaError) {
	var extras []string
	var first *value.Value
	for i := range v.Fields {
		f := &v.Fields[i]
		if p, ok := s.Properties[f.Key]; ok {
			p.check(&f.Value, out)
		} else if !slices.Contains(extras, f.Key) {
			extras = append(extras, f.Key)
			first = firstOf(first, &f.Value)
		}
	}
	if len(extras) > 0 && s.AdditionalProperties != nil && !*s.AdditionalProperties {
		slices.Sort(extras)
		verb := "were"
		if len(extras) == 1 {
			verb = "was"
		}
		*out = append(*out, schemaError{fmt.Sprintf("Additional properties are not allowed (%s %s unexpected)", strings.Trim(pyList(extras), "[]"), verb), first})
	}
	for _, r := range s.Required {
		if _, ok := v.Get(r); !ok {
			*out = append(*out, schemaError{fmt.Sprintf("%s is a required property", pyQuote(r)), v})
		}
	}
}

// checkArray applies items, minItems and uniqueItems.
func (s *schema) checkArray(v *value.Value, out *[]schemaError) {
	if s.Items != nil {
		for i := range v.Items {
			s.Items.check(&v.Items[i], out)
		}
	}
	if s.MinItems != nil && len(v.Items) < *s.MinItems {
		what := "is too short"
		if *s.MinItems == 1 {
			what = "should be non-empty"
		}
		*out = append(*out, schemaError{fmt.Sprintf("%s %s", pyRepr(v), what), v})
	}
	if s.UniqueItems {
		for i := range v.Items {
			for j := i + 1; j < len(v.Items); j++ {
				if sameValue(&v.Items[i], &v.Items[j]) {
					*out = append(*out, schemaError{fmt.Sprintf("%s has non-unique elements", pyRepr(v)), v})
					return
				}
			}
		}
	}
}

// firstOf is the node of the two that comes first in the file.
func firstOf(a, b *value.Value) *value.Value {
	if a == nil || b.Line < a.Line {
		return b
	}
	return a
}

// isType reports whether v is of a JSON schema type, as jsonschema tells
// Python's values apart (a boolean is not a number).
func isType(v *value.Value, t string) bool {
	switch t {
	case "object":
		return v.Kind == value.Object
	case "array":
		return v.Kind == value.Array
	case "string":
		return v.Kind == value.String
	case "boolean":
		return v.Kind == value.Bool
	case "null":
		return v.Kind == value.Null
	case "number":
		return v.Kind == value.Number
	case "integer":
		return v.Kind == value.Number && v.Num == float64(int64(v.Num))
	}
	return true
}

// sameValue reports whether two values are equal as jsonschema compares
// them for uniqueItems.
func sameValue(a, b *value.Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case value.Null:
		return true
	case value.Bool:
		return a.Bool == b.Bool
	case value.Number:
		return a.Num == b.Num
	case value.String:
		return a.Str == b.Str
	case value.Array:
		return slices.EqualFunc(a.Items, b.Items, func(x, y value.Value) bool { return sameValue(&x, &y) })
	}
	return slices.EqualFunc(a.Fields, b.Fields, func(x, y value.Field) bool { return x.Key == y.Key && sameValue(&x.Value, &y.Value) })
}
