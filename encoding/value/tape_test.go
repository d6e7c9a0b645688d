package value

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// tapeTree rebuilds the tree of node i of t, as the parser would build it
// of the text (positions aside).
func tapeTree(t *testing.T, tp *Tape, i int32) Value {
	t.Helper()
	n := tp.Nodes[i]
	switch n.Kind {
	case Null:
		return Value{Kind: Null}
	case Bool:
		return Value{Kind: Bool, Bool: tp.Data[n.Start] == 't'}
	case Number:
		f, ok := tp.Number(i)
		if !ok {
			t.Fatalf("number %s does not parse", tp.Data[n.Start:n.End])
		}
		return Value{Kind: Number, Num: f}
	case String:
		return Value{Kind: String, Str: string([]byte(tp.Text(i)))}
	}
	v := Value{Kind: n.Kind}
	count := int32(0)
	for j := i + 1; j < n.Next; j = tp.Nodes[j].Next {
		count++
		child := tapeTree(t, tp, j)
		if n.Kind == Array {
			if tp.Nodes[j].KeyEnd != 0 {
				t.Fatalf("an element has a key")
			}
			v.Items = append(v.Items, child)
			continue
		}
		v.Fields = append(v.Fields, Field{Key: string([]byte(tp.Key(j))), Value: child})
	}
	if count != n.Len {
		t.Fatalf("node %d has %d children, Len %d", i, count, n.Len)
	}
	return v
}

// sameTree reports whether a and b hold the same values, positions and
// literals aside.
func sameTree(a, b *Value) bool {
	if a.Kind != b.Kind || len(a.Items) != len(b.Items) || len(a.Fields) != len(b.Fields) {
		return false
	}
	switch a.Kind {
	case Bool:
		return a.Bool == b.Bool
	case Number:
		return math.Float64bits(a.Num) == math.Float64bits(b.Num)
	case String:
		return a.Str == b.Str
	}
	for i := range a.Items {
		if !sameTree(&a.Items[i], &b.Items[i]) {
			return false
		}
	}
	for i := range a.Fields {
		if a.Fields[i].Key != b.Fields[i].Key || !sameTree(&a.Fields[i].Value, &b.Fields[i].Value) {
			return false
		}
	}
	return true
}

func TestTape(t *testing.T) {
	var tp Tape
	for _, s := range []string{`1`, `"a"`, `[]`, `{}`, `[[],{}]`, `{"a":[1,{"b":null}],"c":"\u00e9\n"}`, `[true,false,-1.5e3]`} {
		if !tp.Parse([]byte(s)) {
			t.Fatalf("Parse(%s) failed", s)
		}
		v, err := ParseJSON([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := tapeTree(t, &tp, 0); !sameTree(&got, &v) {
			t.Errorf("Parse(%s) = %+v, want %+v", s, got, v)
		}
		if tp.Nodes[0].Next != int32(len(tp.Nodes)) || tp.Nodes[0].End != int32(len(s)) {
			t.Errorf("Parse(%s): root node %+v of %d", s, tp.Nodes[0], len(tp.Nodes))
		}
	}
	for _, s := range []string{``, `[`, `]`, `{"a"}`, `{"a":}`, `[1,]`, `[1 ]`, ` 1`, `1 `, `{"a":1,}`, `[}`, `{]`, `"a`, `tru`, `nul`, `[1][2]`, `{1:2}`} {
		if tp.Parse([]byte(s)) {
			t.Errorf("Parse(%q) took it", s)
		}
	}
}

// FuzzTape checks that the Tape of what AppendCompact writes of any
// value holds that value.
func FuzzTape(f *testing.F) {
	for _, s := range jsonSamples {
		f.Add([]byte(s))
	}
	names, _ := filepath.Glob("../../testdata/bundles.golden*/*.json")
	for _, name := range names {
		if data, err := os.ReadFile(name); err == nil && len(data) <= 64<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var tp Tape
		tp.Parse(data) // anything: it must not fail badly
		v, err := ParseJSON(data)
		if err != nil {
			return
		}
		compact := AppendCompact(nil, &v)
		if !tp.Parse(compact) {
			t.Fatalf("Parse refuses %s", compact)
		}
		if got := tapeTree(t, &tp, 0); !sameTree(&got, &v) {
			t.Fatalf("the tape of %s holds %s", compact, AppendCompact(nil, &got))
		}
	})
}
