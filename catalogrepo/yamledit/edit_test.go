package yamledit

import (
	"bytes"
	"errors"
	"testing"
)

const channel = `entries:
# first
- name: a
  replaces: z
  # about a
- name: b # the b
# before c
- name: c
  skips:
  - x
other: 1
`

func removeCases() []editCase {
	l := []any{"l"}
	e := []any{"entries"}
	return []editCase{
		{name: "first", in: channel, edit: removeAt(e, 0), want: "entries:\n# first\n- name: b # the b\n# before c\n- name: c\n  skips:\n  - x\nother: 1\n"},
		{name: "middle", in: channel, edit: removeAt(e, 1), want: "entries:\n# first\n- name: a\n  replaces: z\n  # about a\n# before c\n- name: c\n  skips:\n  - x\nother: 1\n"},
		{name: "last", in: channel, edit: removeAt(e, 2), want: "entries:\n# first\n- name: a\n  replaces: z\n  # about a\n- name: b # the b\n# before c\nother: 1\n"},
		{name: "all", in: channel, edit: removeAt(e, 0, 1, 2), want: "entries: []\n# first\n# before c\nother: 1\n"},
		{name: "first and last, CRLF", in: crlf(channel), edit: removeAt(e, 0, 2), want: crlf("entries:\n# first\n- name: b # the b\n# before c\nother: 1\n")},
		{name: "only, comment on the key's line", in: "l: # the list\n- a\nz: 1\n", edit: removeAt(l, 0), want: "l: [] # the list\nz: 1\n"},
		{name: "only, indented", in: "k:\n  l:\n    - a\n  z: 1\n", edit: removeAt([]any{"k", "l"}, 0), want: "k:\n  l: []\n  z: 1\n"},
		{name: "only item of the document", in: "# header\n- a\n", edit: func(t *testing.T, f *File) error { return f.Remove(f.Root(), f.Root().Content[0]) }, want: "# header\n[]\n"},
		{name: "last, no line break at the end", in: "l:\n- a\n- b", edit: removeAt(l, 1), want: "l:\n- a\n"},
		{name: "last and append", in: "l:\n- a\n- b\n", edit: func(t *testing.T, f *File) error {
			return errors.Join(removeAt(l, 1)(t, f), appendTo("c", "l")(t, f))
		}, want: "l:\n- a\n- c\n"},
		{name: "only and append", in: "l:\n- a\nz: 1\n", edit: func(t *testing.T, f *File) error {
			return errors.Join(appendTo("b", "l")(t, f), removeAt(l, 0)(t, f))
		}, want: "l:\n- b\nz: 1\n"},
		{name: "only item of a sequence below its dash", in: "l:\n-\n  - a\n", edit: removeAt([]any{"l", 0}, 0), want: "l:\n- []\n"},
		{name: "an inner item of a sequence in a sequence", in: "l:\n- - a\n  - b\n", edit: removeAt([]any{"l", 0}, 1), want: "l:\n- - a\n"},
		{name: "an item sharing its line with its parent is refused", in: "l:\n- - a\n  - b\n", edit: removeAt([]any{"l", 0}, 0), err: "t.yaml:2:5: cannot remove an item whose '-' shares its line"},
		{name: "not an item of the sequence", in: "l: [a]\nm: [b]\n", edit: func(t *testing.T, f *File) error {
			return f.Remove(node(t, f, "l"), node(t, f, "m", 0))
		}, err: "not an item of this sequence"},
	}
}

func TestRemove(t *testing.T) { runCases(t, removeCases()) }

const pkg = `schema: olm.package   # inline
name: "quoted"
desc: 'single'
replicas: "2"
empty:
icon:
  base64data: abc
  mediatype: image/png
list:
- a
`

// set sets key of the mapping at path to v.
func set(key string, v any, path ...any) func(t *testing.T, f *File) error {
	return func(t *testing.T, f *File) error { return f.Set(node(t, f, path...), key, v) }
}

// del deletes key of the mapping at path.
func del(key string, path ...any) func(t *testing.T, f *File) error {
	return func(t *testing.T, f *File) error { return f.Delete(node(t, f, path...), key) }
}

func setCases() []editCase {
	with := func(old, new string) string { return string(bytes.Replace([]byte(pkg), []byte(old), []byte(new), 1)) }
	lit := "d: |\n  one\n  two\nk: 1\n"
	return []editCase{
		{name: "plain, comment kept", in: pkg, edit: set("schema", "olm.channel"), want: with("olm.package", "olm.channel")},
		{name: "plain that must be quoted", in: pkg, edit: set("schema", "yes"), want: with("olm.package", `"yes"`)},
		{name: "double quotes kept", in: pkg, edit: set("name", "new"), want: with(`"quoted"`, `"new"`)},
		{name: "double quotes kept, multi-line", in: pkg, edit: set("name", "a\nb"), want: with(`"quoted"`, `"a\nb"`)},
		{name: "single quotes kept", in: pkg, edit: set("desc", "it's"), want: with(`'single'`, `'it''s'`)},
		{name: "a number replacing a quoted string", in: pkg, edit: set("replicas", 3), want: with(`"2"`, `3`)},
		{name: "an empty value", in: pkg, edit: set("empty", "v"), want: with("empty:", "empty: v")},
		{name: "a scalar replacing a mapping", in: pkg, edit: set("icon", "none"), want: with("icon:\n  base64data: abc\n  mediatype: image/png\n", "icon: none\n")},
		{name: "a mapping replacing a sequence", in: pkg, edit: set("list", Map{{"k", "v"}}), want: with("list:\n- a\n", "list:\n  k: v\n")},
		{name: "a mapping replacing a scalar", in: pkg, edit: set("schema", Map{{"a", 1}}), want: with("schema: olm.package   # inline\n", "schema:   # inline\n  a: 1\n")},
		{name: "a new key at the end", in: pkg, edit: set("new", []string{"x"}), want: pkg + "new:\n- x\n"},
		{name: "a new key in an item", in: basicTemplate, edit: set("description", "d", "entries", 0),
			want: string(bytes.Replace([]byte(basicTemplate), []byte("  defaultChannel: Fast\n"), []byte("  defaultChannel: Fast\n  description: d\n"), 1))},
		{name: "a literal by a literal", in: lit, edit: set("d", "three\nfour\n"), want: "d: |\n  three\n  four\nk: 1\n"},
		{name: "a literal by a line", in: lit, edit: set("d", "x"), want: "d: x\nk: 1\n"},
		{name: "CRLF", in: crlf(pkg), edit: set("icon", Map{{"mediatype", "image/svg+xml"}}), want: crlf(with("icon:\n  base64data: abc\n  mediatype: image/png\n", "icon:\n  mediatype: image/svg+xml\n"))},
		{name: "not a mapping", in: pkg, edit: set("k", 1, "list"), err: "t.yaml:10:1: cannot set \"k\" on a sequence"},
	}
}

func TestSet(t *testing.T) { runCases(t, setCases()) }

func TestSetSameValueRecordsNothing(t *testing.T) {
	f, err := Parse("t.yaml", []byte(pkg))
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(f.Set(f.Root(), "name", "quoted"), f.Set(f.Root(), "replicas", "2"), f.Set(f.Root(), "list", []string{"a"})); err != nil {
		t.Fatal(err)
	}
	if f.Changed() {
		t.Error("Changed after setting the values the keys have")
	}
	if got, err := f.Bytes(); err != nil || string(got) != pkg {
		t.Errorf("Bytes = %q, %v; want the original", got, err)
	}
	if err := f.Set(f.Root(), "replicas", 2); err != nil || !f.Changed() {
		t.Errorf("setting the number 2 over the string \"2\": %v, changed %v", err, f.Changed())
	}
}

func deleteCases() []editCase {
	return []editCase{
		{name: "middle", in: "a: 1\nb: 2 # c\nc: 3\n", edit: del("b"), want: "a: 1\nc: 3\n"},
		{name: "last, with its nested lines and comments", in: "a: 1\nb:\n  x: 1\n  # about x\n# footer\n", edit: del("b"), want: "a: 1\n# footer\n"},
		{name: "first key of an item", in: "l:\n- name: a\n  image: b\n", edit: del("name", "l", 0), want: "l:\n- image: b\n"},
		{name: "first two keys of an item", in: "l:\n- name: a\n  image: b\n  x: 1\n", edit: func(t *testing.T, f *File) error {
			return errors.Join(del("name", "l", 0)(t, f), del("image", "l", 0)(t, f))
		}, want: "l:\n- x: 1\n"},
		{name: "only key of an item", in: "l:\n- name: a\n- name: b\n", edit: del("name", "l", 0), want: "l:\n- {}\n- name: b\n"},
		{name: "only key of an item, replaced by a new one", in: "l:\n- name: a\n", edit: func(t *testing.T, f *File) error {
			return errors.Join(del("name", "l", 0)(t, f), set("image", "x", "l", 0)(t, f))
		}, want: "l:\n- image: x\n"},
		{name: "only key of an item below its dash", in: "l:\n-\n  name: a\n", edit: del("name", "l", 0), want: "l:\n- {}\n"},
		{name: "only key of a mapping value", in: "m:\n  a: 1\nz: 2\n", edit: del("a", "m"), want: "m: {}\nz: 2\n"},
		{name: "only key of the document", in: "# h\na: 1\n", edit: del("a"), want: "# h\n{}\n"},
		{name: "missing", in: "a: 1\n", edit: del("x"), err: `t.yaml:1:1: no key "x" to delete`},
	}
}

func TestDelete(t *testing.T) { runCases(t, deleteCases()) }

func severalCases() []editCase {
	return []editCase{{
		name: "a deprecation-like edit set",
		in:   basicTemplate,
		edit: func(t *testing.T, f *File) error {
			e := node(t, f, "entries")
			ch := node(t, f, "entries", 1, "entries")
			return errors.Join(
				f.Set(node(t, f, "entries", 0), "defaultChannel", "Stable"),
				f.Remove(ch, ch.Content[0]),
				f.Delete(ch.Content[1], "replaces"),
				f.Set(node(t, f, "entries", 1), "name", "Stable"),
				f.Remove(e, e.Content[2]),
				f.Append(e, Map{{"schema", "olm.deprecations"}, {"package", "aws-neuron-operator"}, {"entries", []any{Map{{"reference", Map{{"schema", "olm.channel"}, {"name", "Fast"}}}, {"message", "use Stable"}}}}}),
			)
		},
		want: `---
schema: olm.template.basic
entries:
- schema: olm.package
  name: aws-neuron-operator
  defaultChannel: Stable
- schema: olm.channel
  name: Stable
  package: aws-neuron-operator
  entries:
  - name: aws-neuron-operator.v0.0.2
- schema: olm.deprecations
  package: aws-neuron-operator
  entries:
  - reference:
      schema: olm.channel
      name: Fast
    message: use Stable
`,
	}}
}

func TestSeveralEdits(t *testing.T) { runCases(t, severalCases()) }
