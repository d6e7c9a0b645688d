package yamledit

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// verify checks that out reads back as the original first document with
// the recorded edits applied to it as generic values, and that the other
// documents are unchanged.
func (f *File) verify(out []byte) error {
	want, err := f.expected()
	if err != nil {
		return err
	}
	got, err := decodeAll(out)
	if err != nil {
		return fmt.Errorf("%s: the edited text does not parse (%v): nothing written", f.t.name, yamlError(f.t.name, out, err))
	}
	if len(got) != 1+len(f.later) {
		return fmt.Errorf("%s: the edited text has %d documents instead of %d: nothing written", f.t.name, len(got), 1+len(f.later))
	}
	if d := diff(want, got[0], ""); d != "" {
		return fmt.Errorf("%s: the edited text does not read back as intended (%s): nothing written", f.t.name, d)
	}
	for i, doc := range f.later {
		if d := diff(doc, got[i+1], ""); d != "" {
			return fmt.Errorf("%s: document %d changed (%s): nothing written", f.t.name, i+2, d)
		}
	}
	return nil
}

// step is one step of a path from the top node: a mapping key (the key's
// decoded value) or a sequence index.
type step struct {
	key   any
	index int
	isKey bool
}

// path is where n sits, from the top node down.
func (f *File) path(n *yaml.Node) ([]step, error) {
	var p []step
	for n != f.Root() {
		l := f.links[n]
		switch {
		case l.parent == nil:
			return nil, fmt.Errorf("%s: the node is not in the document", f.t.pos(n))
		case l.key != nil:
			var k any
			if err := l.key.Decode(&k); err != nil {
				return nil, fmt.Errorf("%s: %w", f.t.pos(l.key), err)
			}
			p = append(p, step{key: k, isKey: true})
		default:
			p = append(p, step{index: l.index})
		}
		n = l.parent
	}
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	return p, nil
}

// removal is a deferred item removal: items are removed last, deepest
// first and from the end, so the other edits' paths stay valid.
type removal struct {
	path  []step
	index int
}

// expected is the original document decoded as generic values with every
// recorded edit applied.
func (f *File) expected() (any, error) {
	var root any
	if err := f.Root().Decode(&root); err != nil {
		return nil, yamlError(f.t.name, nil, err)
	}
	var rems []removal
	for _, o := range f.ops {
		p, err := f.path(o.node)
		if err != nil {
			return nil, err
		}
		if o.kind == opRemove {
			rems = append(rems, removal{p, f.links[o.item].index})
			continue
		}
		if err := f.applyOp(&root, p, o); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(rems, func(i, j int) bool {
		if len(rems[i].path) != len(rems[j].path) {
			return len(rems[i].path) > len(rems[j].path)
		}
		return rems[i].index > rems[j].index
	})
	for _, r := range rems {
		l, ok := get(root, r.path).([]any)
		if !ok || r.index >= len(l) {
			return nil, fmt.Errorf("%s: internal error: no item %d to remove", f.t.name, r.index)
		}
		put(&root, r.path, append(l[:r.index:r.index], l[r.index+1:]...))
	}
	return root, nil
}

// applyOp applies an append, set or delete to the generic tree.
func (f *File) applyOp(root *any, p []step, o op) error {
	cur := get(*root, p)
	if o.kind == opAppend {
		l, _ := cur.([]any)
		put(root, p, append(l[:len(l):len(l)], generic(o.value)))
		return nil
	}
	var key any
	if o.item == nil {
		key = o.key
	} else if err := o.item.Decode(&key); err != nil {
		return fmt.Errorf("%s: %w", f.t.pos(o.item), err)
	}
	switch m := cur.(type) {
	case map[string]any:
		s, ok := key.(string)
		if !ok {
			s = fmt.Sprint(key)
		}
		if o.kind == opDelete {
			delete(m, s)
		} else {
			m[s] = generic(o.value)
		}
	case map[any]any:
		if o.kind == opDelete {
			delete(m, key)
		} else {
			m[key] = generic(o.value)
		}
	default:
		return fmt.Errorf("%s: internal error: not a mapping in the generic document", f.t.pos(o.node))
	}
	return nil
}

// get follows a path in a generic tree (nil when it leads nowhere).
func get(v any, p []step) any {
	for _, s := range p {
		switch x := v.(type) {
		case map[string]any:
			k, _ := s.key.(string)
			v = x[k]
		case map[any]any:
			v = x[s.key]
		case []any:
			if s.index >= len(x) {
				return nil
			}
			v = x[s.index]
		default:
			return nil
		}
	}
	return v
}

// put sets the value at a path of a generic tree whose containers exist.
func put(root *any, p []step, v any) {
	if len(p) == 0 {
		*root = v
		return
	}
	parent, s := get(*root, p[:len(p)-1]), p[len(p)-1]
	switch x := parent.(type) {
	case map[string]any:
		k, _ := s.key.(string)
		x[k] = v
	case map[any]any:
		x[s.key] = v
	case []any:
		x[s.index] = v
	}
}

// diff describes the first difference between two generic values, or
// returns "" when they are equal (NaN equal to NaN).
func diff(want, got any, at string) string {
	if w, ok := asMap(want); ok {
		g, ok := asMap(got)
		if !ok || len(g) != len(w) {
			return mismatch(at, want, got)
		}
		for k, v := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("at %s.%v: missing", at, k)
			}
			if d := diff(v, gv, at+"."+fmt.Sprint(k)); d != "" {
				return d
			}
		}
		return ""
	}
	switch w := want.(type) {
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return mismatch(at, want, got)
		}
		for i := range w {
			if d := diff(w[i], g[i], at+"["+strconv.Itoa(i)+"]"); d != "" {
				return d
			}
		}
		return ""
	case float64:
		if g, ok := got.(float64); ok && math.IsNaN(w) && math.IsNaN(g) {
			return ""
		}
	}
	if !reflect.DeepEqual(want, got) {
		return mismatch(at, want, got)
	}
	return ""
}

// asMap views both map types yaml.v3 decodes to (map[string]any, and
// map[any]any when a key is not a string) as one.
func asMap(v any) (map[any]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		out := make(map[any]any, len(m))
		for k, e := range m {
			out[k] = e
		}
		return out, true
	case map[any]any:
		return m, true
	}
	return nil, false
}

func mismatch(at string, want, got any) string {
	if at == "" {
		at = "the document"
	}
	s := fmt.Sprintf("at %s: want %v, got %v", at, want, got)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
