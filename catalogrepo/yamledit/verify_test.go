package yamledit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const anchors = `base: &base
  name: a
  list: &l
  - x
use: *base
other: *l
plain: &p 1
merged:
  <<: *base
  y: 2
`

func aliasCases() []editCase {
	return []editCase{
		{name: "unrelated edits leave anchors and aliases alone", in: anchors, edit: func(t *testing.T, f *File) error {
			return errors.Join(set("new", "v")(t, f), set("y", 3, "merged")(t, f))
		}, want: strings.Replace(anchors, "  y: 2\n", "  y: 3\nnew: v\n", 1)},
		{name: "a key over a merged one", in: anchors, edit: set("name", "b", "merged"), want: anchors[:len(anchors)-1] + "\n  name: b\n"},
		{name: "an unused anchor goes with its value", in: anchors, edit: set("plain", 2), want: strings.Replace(anchors, "&p 1", "2", 1)},
		{name: "an anchor right before its value", in: "a: &x:y\nc: 1\n", edit: set("a", "z"), want: "a: z\nc: 1\n"},
		{name: "replacing a value with an anchor and a tag", in: "a: &x !!str 1\nc: 1\n", edit: set("a", 2), want: "a: 2\nc: 1\n"},
		{name: "through an alias", in: anchors, edit: appendTo("y", "other"), err: "t.yaml:6:8: cannot edit through the alias *l: edit the anchor &l at line 3 instead"},
		{name: "through an alias, set", in: anchors, edit: set("k", "v", "use"), err: "cannot edit through the alias *base"},
		{name: "inside an anchor an alias repeats", in: anchors, edit: appendTo("y", "base", "list"), err: "t.yaml:3:9: cannot edit inside the anchor &l (line 3): the alias at line 6 repeats it"},
		{name: "inside an anchor, deeper", in: anchors, edit: set("name", "b", "base"), err: "cannot edit inside the anchor &base (line 1)"},
		{name: "taking an anchor away", in: anchors, edit: del("base"), err: "t.yaml:1:7: cannot take away the anchor &base: the alias at line 5 uses it"},
		{name: "replacing an anchor", in: anchors, edit: set("base", "x"), err: "cannot take away the anchor &base"},
		{name: "a merge key deleted through the merging mapping is caught by verification", in: "a: &a {x: 1}\nb:\n  <<: *a\n  x: 2\n", edit: del("x", "b"), err: "does not read back as intended (at .b: want map[], got map[x:1])"},
	}
}

func TestAliases(t *testing.T) { runCases(t, aliasCases()) }

func overlapCases() []editCase {
	return []editCase{
		{name: "set inside a removed item", in: basicTemplate, edit: func(t *testing.T, f *File) error {
			e := node(t, f, "entries")
			return errors.Join(f.Remove(e, e.Content[0]), f.Set(e.Content[0], "name", "x"))
		}, err: "overlapping edits"},
		{name: "append inside a removed item", in: basicTemplate, edit: func(t *testing.T, f *File) error {
			e := node(t, f, "entries")
			return errors.Join(f.Append(node(t, f, "entries", 1, "entries"), "x"), f.Remove(e, e.Content[1]))
		}, err: "overlapping edits"},
		{name: "the same item removed twice", in: basicTemplate, edit: func(t *testing.T, f *File) error {
			e := node(t, f, "entries")
			return errors.Join(f.Remove(e, e.Content[0]), f.Remove(e, e.Content[0]))
		}, err: "overlapping edits"},
		{name: "a key set and deleted", in: basicTemplate, edit: func(t *testing.T, f *File) error {
			return errors.Join(set("schema", "x")(t, f), del("schema")(t, f))
		}, err: `the key "schema" is edited twice`},
		{name: "a new key set twice", in: basicTemplate, edit: func(t *testing.T, f *File) error {
			return errors.Join(set("k", "x")(t, f), set("k", "y")(t, f))
		}, err: `the key "k" is edited twice`},
		{name: "append to a value that is replaced", in: basicTemplate, edit: func(t *testing.T, f *File) error {
			return errors.Join(appendTo("x", "entries")(t, f), set("entries", []string{})(t, f))
		}, err: "overlapping edits"},
	}
}

func TestOverlaps(t *testing.T) { runCases(t, overlapCases()) }

// TestVerifyCatchesWrongText makes the edited text wrong behind the
// splicing's back and checks that Bytes refuses to hand it out.
func TestVerifyCatchesWrongText(t *testing.T) {
	cases := []struct {
		name   string
		in     string
		mutate func([]byte) []byte
		err    string
	}{
		{"a changed value", basicTemplate, func(b []byte) []byte { return bytes.Replace(b, []byte(":1.1.4"), []byte(":1.1.5"), 1) },
			"t.yaml: the edited text does not read back as intended (at .entries[3].image: want quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.4, got quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.5): nothing written"},
		{"a lost line", basicTemplate, func(b []byte) []byte { return bytes.Replace(b, []byte("  defaultChannel: Fast\n"), nil, 1) },
			"at .entries[0]"},
		{"text that does not parse", basicTemplate, func(b []byte) []byte { return append(b, "- : [\n"...) },
			"the edited text does not parse"},
		{"a later document changed", basicTemplate + "---\na: 1\n", func(b []byte) []byte { return bytes.Replace(b, []byte("a: 1"), []byte("a: 2"), 1) },
			"document 2 changed (at .a: want 1, got 2)"},
		{"a document added", basicTemplate, func(b []byte) []byte { return append(b, "---\na: 1\n"...) },
			"2 documents instead of 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("t.yaml", []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Append(f.Root().Content[3], bundle("quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.4")); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Bytes(); err != nil {
				t.Fatalf("without the hook: %v", err)
			}
			f.mutate = c.mutate
			got, err := f.Bytes()
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("error %v, want one with %q", err, c.err)
			}
			if got != nil {
				t.Errorf("text handed out with the error")
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ name, in, err string }{
		{"syntax", "a: [\nb: 1\n", "t.yaml:"},
		{"duplicate key", "a: 1\na: 2\n", `t.yaml:2: invalid YAML: mapping key "a" already defined at line 1`},
		{"no document", "# only a comment\n", "t.yaml: no YAML document"},
		{"empty", "", "t.yaml: no YAML document"},
		{"lone carriage return", "a: 1\rb: 2\n", "t.yaml:1: a carriage return without a line feed"},
		{"unicode line separator", "a: 1\nb: \"x\u2028y\"\n", "t.yaml:2: line break character U+2028"},
		{"a broken later document", "a: 1\n---\nb: [\n", "t.yaml:"},
		{"keys equal once read", "a: 1\nm:\n  0: x\n  00: y\n", `t.yaml:4:3: the key "00" is the same as the key "0" at line 3`},
		{"an unknown alias", "a: *x\n", "t.yaml: invalid YAML: unknown anchor 'x' referenced"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(c.in))
			if err == nil || !strings.HasPrefix(err.Error(), "t.yaml") || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("error %v, want one with %q", err, c.err)
			}
		})
	}
}

func TestForeignNodes(t *testing.T) {
	a, _ := Parse("a.yaml", []byte("l: [x]\n"))
	b, _ := Parse("b.yaml", []byte("l: [x]\n"))
	_, l := Lookup(b.Root(), "l")
	if err := a.Append(l, "y"); err == nil || err.Error() != "a.yaml: the node to edit is not a node of this file" {
		t.Errorf("appending to another file's node: %v", err)
	}
	if err := a.Append(nil, "y"); err == nil {
		t.Error("appending to nil: no error")
	}
	if err := a.Append(a.doc, "y"); err == nil {
		t.Error("appending to the document node: no error")
	}
}

func TestLookup(t *testing.T) {
	f, err := Parse("t.yaml", []byte(semverTemplate))
	if err != nil {
		t.Fatal(err)
	}
	if k, _ := Lookup(f.Root(), "stable"); k != nil {
		t.Error("Lookup is not exact")
	}
	if k, v := LookupFold(f.Root(), "stable"); k == nil || k.Value != "Stable" || v.Kind != 4 {
		t.Errorf("LookupFold(stable) = %v, %v", k, v)
	}
	if k, v := Lookup(f.Root().Content[1], "x"); k != nil || v != nil {
		t.Error("Lookup in a scalar found something")
	}
	if k, _ := Lookup(nil, "x"); k != nil {
		t.Error("Lookup in nil found something")
	}
}
