package crdcompat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// oneOfChanges compares a schema node's oneOf lists as the preflight
// does: as sets of schemas, each without its own description and example
// (order does not count). Any difference is unsafe: a oneOf where there
// was none, a schema taken out (objects that matched it no longer
// validate), or a schema added (an object that matched exactly one
// schema may now match two, and no longer validate).
func oneOfChanges(o, n *value.Value) []string {
	old, cur := oneOfSchemas(o), oneOfSchemas(n)
	if len(old) == 0 {
		if len(cur) == 0 {
			return nil
		}
		return []string{fmt.Sprintf("oneOf added where there was none: objects must now match exactly one of its %d schemas", len(n.Items))}
	}
	var out []string
	if gone := missingFrom(old, cur); len(gone) > 0 {
		out = append(out, fmt.Sprintf("allowed oneOf schemas removed (old oneOf[%s]): objects that matched them no longer validate", strings.Join(gone, ", ")))
	}
	if added := missingFrom(cur, old); len(added) > 0 {
		out = append(out, fmt.Sprintf("allowed oneOf schemas added (oneOf[%s]): objects that matched one schema may now match two, and no longer validate", strings.Join(added, ", ")))
	}
	return out
}

// oneOfSchemas lists the schemas of a oneOf list as compact JSON, each
// without its description and example; nil for none.
func oneOfSchemas(list *value.Value) []string {
	if list == nil || list.Kind != value.Array {
		return nil
	}
	out := make([]string, len(list.Items))
	for i := range list.Items {
		s := list.Items[i]
		if s.Kind == value.Object {
			s.Fields = slices.DeleteFunc(slices.Clone(s.Fields), func(f value.Field) bool {
				return f.Key == "description" || f.Key == "example"
			})
		}
		out[i] = string(value.Compact(&s))
	}
	return out
}

// missingFrom lists the indexes of the schemas of a that b lacks.
func missingFrom(a, b []string) []string {
	var out []string
	for i, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, fmt.Sprint(i))
		}
	}
	return out
}
