package crdcompat

import (
	"fmt"

	"github.com/fbcat/opm/encoding/value"
)

// What else operator-controller's CRD upgrade-safety preflight refuses:
// changes it has no rule for (it fails closed).

// unhandledKeywords are the schema keywords the preflight compares but
// has no rule for: any change to one is refused. Keywords with children
// (properties, items, allOf, ...) are compared where the children are;
// description is ignored; type, enum, required, the bounds, default and
// format have their own rules.
var unhandledKeywords = []string{
	"$ref", "$schema", "example", "exclusiveMaximum", "exclusiveMinimum", "externalDocs", "id",
	"multipleOf", "nullable", "pattern", "title", "uniqueItems",
	"x-kubernetes-embedded-resource", "x-kubernetes-int-or-string", "x-kubernetes-list-map-keys",
	"x-kubernetes-list-type", "x-kubernetes-map-type", "x-kubernetes-preserve-unknown-fields",
	"x-kubernetes-validations",
}

// unhandledChanges lists the keywords among unhandledKeywords whose
// values differ. As when the preflight decodes a schema, false, "" and
// empty lists are the same as no value, except for the keywords whose
// value is optional (x-kubernetes-preserve-unknown-fields, -list-type,
// -map-type), where false and "" are values.
func unhandledChanges(o, n *value.Value) []nodeChange {
	var out []nodeChange
	for _, k := range unhandledKeywords {
		a, b := keywordValue(o, k), keywordValue(n, k)
		if a == b {
			continue
		}
		out = append(out, nodeChange{Unhandled, k, fmt.Sprintf("%s changed from %s to %s: the preflight has no rule for this change and refuses it", k, orNone(a), orNone(b))})
	}
	return out
}

// keywordValue is a keyword's value as compact JSON, "" for none.
func keywordValue(node *value.Value, k string) string {
	v := node.At(k)
	if v == nil {
		return ""
	}
	optional := k == "x-kubernetes-preserve-unknown-fields" || k == "x-kubernetes-list-type" || k == "x-kubernetes-map-type"
	switch {
	case v.Kind == value.Null:
		return ""
	case optional:
	case v.Kind == value.Bool && !v.Bool, v.Kind == value.String && v.Str == "",
		v.Kind == value.Array && len(v.Items) == 0, v.Kind == value.Object && len(v.Fields) == 0:
		return ""
	}
	return string(value.Compact(v))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
