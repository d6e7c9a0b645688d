package crdcompat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// The rules for one schema node, as crdify's property validations have
// them (sigs.k8s.io/crdify pkg/validations/property, as
// operator-controller configures them).

// compareNodes lists the unsafe changes of one schema node.
func compareNodes(o, n *value.Value) []nodeChange {
	var out []nodeChange
	add := func(kind, key string, msgs ...string) {
		for _, m := range msgs {
			out = append(out, nodeChange{kind: kind, key: key, msg: m})
		}
	}
	// crdify type: any change of type.
	if a, b := o.StringAt("type"), n.StringAt("type"); a != b {
		add(TypeChanged, "type", fmt.Sprintf("type changed from %q to %q", a, b))
	}
	// crdify enum (additionPolicy Allow): an enum added, values removed.
	out = append(out, enumChange(o.At("enum"), n.At("enum"))...)
	// crdify required: a field required that was not. Its message lists
	// them as a set's unsorted list, in random order.
	if added := newItems(o.At("required"), n.At("required")); len(added) > 0 {
		set := slices.Compact(slices.Sorted(slices.Values(added)))
		out = append(out, nodeChange{kind: RequiredAdded, key: "required", same: "required " + strings.Join(set, "\x00"), byChance: len(set) > 1,
			msg: fmt.Sprintf("new required fields %s: existing objects without them no longer validate; make them optional (with a default set by the operator)", strings.Join(added, ", "))})
	}
	// crdify maximum, maxItems, ...: a bound added or tightened.
	for _, k := range []string{"maximum", "maxItems", "maxLength", "maxProperties"} {
		add(ValidationTightened, k, boundChange(k, o.At(k), n.At(k), func(a, b float64) bool { return b < a }, "lowered")...)
	}
	for _, k := range []string{"minimum", "minItems", "minLength", "minProperties"} {
		add(ValidationTightened, k, boundChange(k, o.At(k), n.At(k), func(a, b float64) bool { return b > a }, "raised")...)
	}
	// format has no rule in crdify: unhandled, so refused.
	if a, b := o.StringAt("format"), n.StringAt("format"); a != b {
		add(ValidationTightened, "format", fmt.Sprintf("format changed from %q to %q", a, b))
	}
	// crdify oneOf: the set of schemas changed.
	out = append(out, oneOfChanges(o.At("oneOf"), n.At("oneOf"))...)
	out = append(out, unhandledChanges(o, n)...)
	// crdify default: added, removed or changed.
	od, nd := defaultOf(o), defaultOf(n)
	switch {
	case od == nil && nd != nil:
		add(DefaultChanged, "default", fmt.Sprintf("default %s added where there was none", value.Compact(nd)))
	case od != nil && nd == nil:
		add(DefaultChanged, "", fmt.Sprintf("default %s removed", value.Compact(od)))
	case od != nil && string(kubeJSON(od)) != string(kubeJSON(nd)):
		add(DefaultChanged, "default", fmt.Sprintf("default changed from %s to %s", value.Compact(od), value.Compact(nd)))
	}
	for i := range out {
		k := out[i].key
		out[i].grouped = out[i].kind == Unhandled && k != "pattern" && k != "nullable" || k == "format"
	}
	return out
}

// unhandledByRule are the members crdify's rules compare and clear before
// it compares what is left of two nodes (its unhandled check), and the
// children it compares where they are.
func unhandledByRule(key string) bool {
	switch key {
	case "default", "description", "enum", "maximum", "maxItems", "maxLength", "maxProperties", "minimum",
		"minItems", "minLength", "minProperties", "oneOf", "required", "type", "pattern", "nullable",
		"properties", "items":
		return true
	}
	return false
}

// defaultOf is a node's default, nil for none (a null default is none to
// Kubernetes).
func defaultOf(n *value.Value) *value.Value {
	if d := n.At("default"); d != nil && d.Kind != value.Null {
		return d
	}
	return nil
}

// kubeJSON is a value as Kubernetes writes JSON values of a schema
// (default, enum values) again, which the preflight compares.
func kubeJSON(v *value.Value) []byte { return value.AppendKubernetesJSON(nil, v) }

// enumChange reports an enum added to a field that had none, and values
// taken out of one (all of them when the enum is removed: crdify counts
// that as values removed); values may be added.
func enumChange(o, n *value.Value) []nodeChange {
	oldShown, oldKeys := enumValues(o)
	newShown, newKeys := enumValues(n)
	if len(oldKeys) == 0 {
		if len(newKeys) == 0 {
			return nil
		}
		return []nodeChange{{kind: EnumRemoved, key: "enum", same: "enum added " + sortedSet(newKeys),
			msg: fmt.Sprintf("enum %s added where any value was allowed", strings.Join(newShown, ", "))}}
	}
	var gone, goneKeys []string
	for i, k := range oldKeys {
		if !slices.Contains(newKeys, k) {
			gone, goneKeys = append(gone, oldShown[i]), append(goneKeys, k)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	c := nodeChange{kind: EnumRemoved, key: "enum", same: "enum removed " + sortedSet(goneKeys),
		msg: fmt.Sprintf("enum values %s removed: existing objects that use them no longer validate", strings.Join(gone, ", "))}
	if len(newKeys) == 0 {
		c.key = "" // at the node
		c.msg = fmt.Sprintf("enum %s removed: every value is allowed now, but the preflight counts its values as removed and refuses it", strings.Join(gone, ", "))
	}
	return []nodeChange{c}
}

// enumValues lists an enum's values as messages show them (compact JSON)
// and as the preflight compares them.
func enumValues(v *value.Value) (shown, keys []string) {
	if v == nil || v.Kind != value.Array {
		return nil, nil
	}
	for i := range v.Items {
		shown = append(shown, string(value.Compact(&v.Items[i])))
		keys = append(keys, string(kubeJSON(&v.Items[i])))
	}
	return shown, keys
}

// sortedSet is the distinct strings of list, sorted, as one string.
func sortedSet(list []string) string {
	return strings.Join(slices.Compact(slices.Sorted(slices.Values(list))), "\x00")
}

// boundChange reports a bound added, or moved the way tighter says.
func boundChange(k string, o, n *value.Value, tighter func(a, b float64) bool, moved string) []string {
	switch {
	case n == nil || n.Kind != value.Number:
		return nil
	case o == nil || o.Kind != value.Number:
		return []string{fmt.Sprintf("%s %s added where there was none", k, value.Compact(n))}
	case tighter(o.Num, n.Num):
		return []string{fmt.Sprintf("%s %s from %s to %s", k, moved, value.Compact(o), value.Compact(n))}
	}
	return nil
}

// jsonItems lists a list's items as compact JSON.
func jsonItems(v *value.Value) []string {
	if v == nil || v.Kind != value.Array {
		return nil
	}
	out := make([]string, len(v.Items))
	for i := range v.Items {
		out[i] = string(value.Compact(&v.Items[i]))
	}
	return out
}

// newItems lists the strings of n that o does not have.
func newItems(o, n *value.Value) []string {
	var out []string
	have := jsonItems(o)
	for _, s := range jsonItems(n) {
		if !slices.Contains(have, s) {
			out = append(out, strings.Trim(s, `"`))
		}
	}
	return out
}
