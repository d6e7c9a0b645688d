package crdcompat

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// What else operator-controller's CRD upgrade-safety preflight refuses:
// changes it has no rule for (it fails closed), and any change to the
// members it compares with their node as a whole.

// unhandledKeywords are the schema keywords the preflight compares but
// has no rule for: any change to one is refused (pattern and nullable
// have rules of their own in crdify, which refuse every change too).
// Keywords with children (properties, items, allOf, ...) are compared
// where the children are; description is ignored; type, enum, required,
// the bounds, default and format have their own rules.
var unhandledKeywords = []string{
	"$ref", "$schema", "example", "exclusiveMaximum", "exclusiveMinimum", "externalDocs", "id",
	"multipleOf", "nullable", "pattern", "title", "uniqueItems",
	"x-kubernetes-embedded-resource", "x-kubernetes-int-or-string", "x-kubernetes-list-map-keys",
	"x-kubernetes-list-type", "x-kubernetes-map-type", "x-kubernetes-preserve-unknown-fields",
	"x-kubernetes-validations",
}

// wholeKeywords are the members with schemas in them that the preflight
// compares as part of their node, whole: crdify leaves out of a node only
// its properties and items (compared where they are), so a change
// anywhere under these (a description of a map's values, a new property
// of an allOf schema) is a change of the node it has no rule for. Their
// schemas are compared where they are too (see flatten).
var wholeKeywords = []string{
	"additionalProperties", "allOf", "anyOf", "not", "patternProperties", "additionalItems",
	"definitions", "dependencies",
}

// unhandledChanges lists the keywords among unhandledKeywords whose
// values differ as the preflight decodes them (see canonical), and the
// members of wholeKeywords that differ, each with the path prefix of the
// schemas under it (whole): compareVersions reports those only when no
// change was found under them.
func unhandledChanges(o, n *value.Value) []nodeChange {
	var out []nodeChange
	for _, k := range unhandledKeywords {
		if memberText(o, k) == memberText(n, k) {
			continue
		}
		out = append(out, nodeChange{kind: Unhandled, key: k, msg: fmt.Sprintf("%s changed from %s to %s: the preflight has no rule for this change and refuses it", k, shown(o, k), shown(n, k))})
	}
	for _, k := range wholeKeywords {
		a, b := memberText(o, k), memberText(n, k)
		var what string
		switch {
		case a == b:
			continue
		case a == "":
			what = "added"
		case b == "":
			what = "removed"
		default:
			what = "changed"
		}
		out = append(out, nodeChange{kind: Unhandled, key: k, whole: true, msg: fmt.Sprintf("%s %s: the preflight compares it with this field as a whole (descriptions included) and refuses any change to it", k, what)})
	}
	return out
}

// shown is a keyword's value for a message: compact JSON, "none" when
// the node has none.
func shown(n *value.Value, k string) string {
	if memberText(n, k) == "" {
		return "none"
	}
	return string(value.Compact(n.At(k)))
}

// wholePrefix is the path prefix of the schemas under a member of
// wholeKeywords of the node at path (see flatten).
func wholePrefix(path, k string) string {
	switch k {
	case "additionalProperties":
		return join(path, "*")
	case "not", "additionalItems":
		return path + "(" + k + ")"
	}
	return path + "(" + k + "["
}

// within reports whether the schema path field is prefix or under it.
func within(field, prefix string) bool {
	if !strings.HasPrefix(field, prefix) {
		return false
	}
	return len(field) == len(prefix) || strings.HasSuffix(prefix, "[") || strings.ContainsRune(".[(", rune(field[len(prefix)]))
}
