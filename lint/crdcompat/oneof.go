package crdcompat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// oneOfChanges compares a schema node's oneOf lists as crdify's oneOf
// validation does: as sets of schemas, each without its own description
// and example (order does not count here; see underChangedOneOf). Any
// difference is unsafe: a oneOf where there was none, a schema taken out
// (objects that matched it no longer validate), or a schema added (an
// object that matched exactly one schema may now match two, and no
// longer validate).
func oneOfChanges(o, n *value.Value) []nodeChange {
	old, cur := oneOfSchemas(o), oneOfSchemas(n)
	if len(old) == 0 {
		if len(cur) == 0 {
			return nil
		}
		return []nodeChange{{kind: OneOfChanged, key: "oneOf", same: "oneOf added " + sortedSet(cur),
			msg: fmt.Sprintf("oneOf added where there was none: objects must now match exactly one of its %d schemas", len(n.Items))}}
	}
	var out []nodeChange
	if gone, at := missingFrom(old, cur); len(gone) > 0 {
		out = append(out, nodeChange{kind: OneOfChanged, key: "oneOf", same: "oneOf removed " + sortedSet(gone),
			msg: fmt.Sprintf("allowed oneOf schemas removed (old oneOf[%s]): objects that matched them no longer validate", at)})
	}
	if added, at := missingFrom(cur, old); len(added) > 0 {
		out = append(out, nodeChange{kind: OneOfChanged, key: "oneOf", same: "oneOf added " + sortedSet(added),
			msg: fmt.Sprintf("allowed oneOf schemas added (oneOf[%s]): objects that matched one schema may now match two, and no longer validate", at)})
	}
	return out
}

// oneOfSchemas lists the schemas of a oneOf list as the preflight
// compares them (see canonical), each without its description and
// example; nil for none.
func oneOfSchemas(list *value.Value) []string {
	if list == nil || list.Kind != value.Array {
		return nil
	}
	out := make([]string, len(list.Items))
	for i := range list.Items {
		out[i] = string(canonical(nil, &list.Items[i], func(k string) bool { return k == "description" || k == "example" }))
	}
	return out
}

// missingFrom lists the schemas of a that b lacks, and their indexes in
// a ("0, 2").
func missingFrom(a, b []string) (missing []string, at string) {
	var indexes []string
	for i, s := range a {
		if !slices.Contains(b, s) {
			missing = append(missing, s)
			indexes = append(indexes, fmt.Sprint(i))
		}
	}
	return missing, strings.Join(indexes, ", ")
}
