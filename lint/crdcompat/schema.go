package crdcompat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// The comparison of one version's schema with the same version's in the
// new CRD, node by node.

// nodeLine is a node's line, 0 for none.
func nodeLine(n *value.Value) int {
	if n == nil {
		return 0
	}
	return int(n.Line)
}

// compareVersions compares the schemas of one version.
func compareVersions(ov, nv *version) []Change {
	var out []Change
	removed := map[string]bool{}
	for _, path := range ov.paths {
		if removed[ov.parent[path]] && path != "" {
			removed[path] = true // within a removed field: reported with it
			continue
		}
		n := nv.nodes[path]
		if n == nil {
			removed[path] = true
			at := nv.nodes[ov.parent[path]]
			if at == nil {
				at = nv.node
			}
			out = append(out, Change{Kind: FieldRemoved, Version: ov.name, Field: path, Line: nodeLine(at), Message: "field removed: existing objects that set it no longer validate; deprecate it instead of removing it"})
			continue
		}
		if ov.sigs[path] == nv.sigs[path] {
			continue // nothing compareNodes reads differs
		}
		for _, c := range compareNodes(ov.nodes[path], n) {
			at := n.At(c.key)
			if at == nil || c.key == "" {
				at = n
			}
			out = append(out, Change{Kind: c.kind, Version: ov.name, Field: path, Line: nodeLine(at), Message: c.msg})
		}
	}
	return out
}

// compareNodes lists the unsafe changes of one schema node.
func compareNodes(o, n *value.Value) []nodeChange {
	var out []nodeChange
	add := func(kind, key string, msgs ...string) {
		for _, m := range msgs {
			out = append(out, nodeChange{kind, key, m})
		}
	}
	if a, b := o.StringAt("type"), n.StringAt("type"); a != b {
		add(TypeChanged, "type", fmt.Sprintf("type changed from %q to %q", a, b))
	}
	add(EnumRemoved, "enum", enumChange(o.At("enum"), n.At("enum"))...)
	if added := newItems(o.At("required"), n.At("required")); len(added) > 0 {
		add(RequiredAdded, "required", fmt.Sprintf("new required fields %s: existing objects without them no longer validate; make them optional (with a default set by the operator)", strings.Join(added, ", ")))
	}
	for _, k := range []string{"maximum", "maxItems", "maxLength", "maxProperties"} {
		add(ValidationTightened, k, boundChange(k, o.At(k), n.At(k), func(a, b float64) bool { return b < a }, "lowered")...)
	}
	for _, k := range []string{"minimum", "minItems", "minLength", "minProperties"} {
		add(ValidationTightened, k, boundChange(k, o.At(k), n.At(k), func(a, b float64) bool { return b > a }, "raised")...)
	}
	if a, b := o.StringAt("format"), n.StringAt("format"); a != b {
		add(ValidationTightened, "format", fmt.Sprintf("format changed from %q to %q", a, b))
	}
	add(OneOfChanged, "oneOf", oneOfChanges(o.At("oneOf"), n.At("oneOf"))...)
	out = append(out, unhandledChanges(o, n)...)
	od, nd := o.At("default"), n.At("default")
	switch {
	case od == nil && nd != nil:
		add(DefaultChanged, "default", fmt.Sprintf("default %s added where there was none", value.Compact(nd)))
	case od != nil && nd == nil:
		add(DefaultChanged, "", fmt.Sprintf("default %s removed", value.Compact(od)))
	case od != nil && string(value.Compact(od)) != string(value.Compact(nd)):
		add(DefaultChanged, "default", fmt.Sprintf("default changed from %s to %s", value.Compact(od), value.Compact(nd)))
	}
	return out
}

// enumChange reports an enum added to a field that had none, and values
// taken out of one; values may be added.
func enumChange(o, n *value.Value) []string {
	ov, nv := jsonItems(o), jsonItems(n)
	switch {
	case len(ov) == 0 && len(nv) > 0:
		return []string{fmt.Sprintf("enum %s added where any value was allowed", strings.Join(nv, ", "))}
	case len(nv) == 0:
		return nil // no enum any more: every value is allowed
	}
	var gone []string
	for _, v := range ov {
		if !slices.Contains(nv, v) {
			gone = append(gone, v)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("enum values %s removed: existing objects that use them no longer validate", strings.Join(gone, ", "))}
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
