package yamledit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// target is a node the fuzzer may edit and the path to it in the generic
// document.
type target struct {
	n    *yaml.Node
	path []step
}

// targets lists the collections and the null values of keys under n,
// following no alias.
func targets(n *yaml.Node, path []step, out []target) []target {
	if n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode || isNull(n) {
		out = append(out, target{n, path})
	}
	for i, c := range n.Content {
		p := append(path[:len(path):len(path)], step{index: i})
		if n.Kind == yaml.MappingNode {
			if i%2 == 0 {
				continue
			}
			var k any
			if n.Content[i-1].Decode(&k) != nil {
				return out
			}
			p[len(p)-1] = step{key: k, isKey: true}
		}
		out = targets(c, p, out)
	}
	return out
}

// FuzzAppend appends to a sequence of any input (or removes an item, sets
// or deletes a key) and checks that Bytes either refuses or returns text
// that reads back as the original document with the edit made, computed
// here independently; an append to a non-empty block sequence must only
// insert text.
func FuzzAppend(f *testing.F) {
	var seeds []string
	for _, cases := range [][]editCase{appendCases(), emptyCases(), scalarCases(), jsonCases(), flowCases(), removeCases(), setCases(), deleteCases(), aliasCases()} {
		for _, c := range cases {
			seeds = append(seeds, c.in)
		}
	}
	files, _ := filepath.Glob(filepath.Join(releases, "*", "before", "operators", "*", "catalog-templates", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			seeds = append(seeds, string(b))
		}
	}
	for i, s := range seeds {
		f.Add(s, "quay.io/x/y:1.0.0", uint8(i), uint8(i%5))
	}
	f.Fuzz(fuzzEdit)
}

// fuzzEdit makes one edit chosen by pick and what, and checks the result.
func fuzzEdit(t *testing.T, in, value string, pick, what uint8) {
	f, err := Parse("f.yaml", []byte(in))
	if err != nil {
		return
	}
	ts := targets(f.Root(), nil, nil)
	if len(ts) == 0 {
		return
	}
	tg := ts[int(pick)%len(ts)]
	change, err := edit(f, tg, value, int(pick), what%5)
	if err != nil || change == nil {
		return
	}
	out, err := f.Bytes()
	if err != nil {
		return
	}
	var want, got any
	if err := yaml.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(out, &got); err != nil {
		t.Fatalf("the result does not parse: %v\n%s", err, out)
	}
	put(&want, tg.path, change(get(want, tg.path)))
	if d := diff(want, got, ""); d != "" {
		t.Fatalf("Bytes returned a wrong document (%s):\n%s", d, out)
	}
	if what%5 < 2 && tg.n.Kind == yaml.SequenceNode && !isFlow(tg.n) {
		p := 0
		for p < len(in) && p < len(out) && in[p] == out[p] {
			p++
		}
		if !strings.HasSuffix(string(out), in[p:]) {
			t.Fatalf("the append changed more than an insertion:\n%s", out)
		}
	}
}

// edit makes the edit on f and returns how it changes the target's
// generic value (nil when there is nothing to do).
func edit(f *File, tg target, value string, pick int, what uint8) (func(any) any, error) {
	n := tg.n
	var v any = value
	if what == 1 {
		v = Map{{"name", value}, {"replaces", strings.ToUpper(value)}}
	}
	g := generic(v)
	switch {
	case what < 2 && n.Kind != yaml.MappingNode:
		return func(c any) any { l, _ := c.([]any); return append(l[:len(l):len(l)], g) }, f.Append(n, v)
	case what == 2 && n.Kind == yaml.SequenceNode && len(n.Content) > 0:
		i := pick % len(n.Content)
		return func(c any) any { l := c.([]any); return append(l[:i:i], l[i+1:]...) }, f.Remove(n, n.Content[i])
	case what > 2 && n.Kind == yaml.MappingNode:
		key := "newkey"
		if len(n.Content) > 0 && pick%3 > 0 {
			key = n.Content[2*(pick%(len(n.Content)/2))].Value
		}
		var gk any
		if k, _ := Lookup(n, key); k != nil {
			_ = k.Decode(&gk)
		} else {
			gk = key
		}
		if what == 4 {
			return func(c any) any { mapDo(c, gk, nil, true); return c }, f.Delete(n, key)
		}
		return func(c any) any { mapDo(c, gk, g, false); return c }, f.Set(n, key, v)
	}
	return nil, nil
}

// mapDo sets or deletes a key of a generic mapping.
func mapDo(m, k, v any, del bool) {
	switch x := m.(type) {
	case map[string]any:
		s, _ := k.(string)
		if del {
			delete(x, s)
		} else {
			x[s] = v
		}
	case map[any]any:
		if del {
			delete(x, k)
		} else {
			x[k] = v
		}
	}
}
