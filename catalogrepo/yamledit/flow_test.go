package yamledit

import (
	"errors"
	"strings"
	"testing"
)

// jsonTemplate is a basic template as JSON pretty-printed with two
// spaces; indent4 re-indents it with four.
const jsonTemplate = `{
  "schema": "olm.template.basic",
  "entries": [
    {
      "schema": "olm.package",
      "name": "a",
      "defaultChannel": "stable"
    },
    {
      "schema": "olm.channel",
      "name": "stable",
      "package": "a",
      "entries": [
        {
          "name": "a.v1"
        }
      ]
    },
    {
      "schema": "olm.bundle",
      "image": "x:1"
    }
  ]
}
`

func indent4(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		n := len(l) - len(strings.TrimLeft(l, " "))
		lines[i] = strings.Repeat(" ", 2*n) + l[n:]
	}
	return strings.Join(lines, "")
}

func jsonRelease(t *testing.T, f *File) error {
	return errors.Join(
		f.Append(node(t, f, "entries"), bundle("x:2")),
		f.Append(node(t, f, "entries", 1, "entries"), chEntry("a.v2", "a.v1")),
	)
}

const jsonReleased = `{
  "schema": "olm.template.basic",
  "entries": [
    {
      "schema": "olm.package",
      "name": "a",
      "defaultChannel": "stable"
    },
    {
      "schema": "olm.channel",
      "name": "stable",
      "package": "a",
      "entries": [
        {
          "name": "a.v1"
        },
        {
          "name": "a.v2",
          "replaces": "a.v1"
        }
      ]
    },
    {
      "schema": "olm.bundle",
      "image": "x:1"
    },
    {
      "schema": "olm.bundle",
      "image": "x:2"
    }
  ]
}
`

func jsonCases() []editCase {
	return []editCase{{
		name: "JSON indented by 2",
		in:   jsonTemplate,
		edit: jsonRelease,
		want: jsonReleased,
	}, {
		name: "JSON indented by 4, CRLF",
		in:   crlf(indent4(jsonTemplate)),
		edit: jsonRelease,
		want: crlf(indent4(jsonReleased)),
	}, {
		name: "compact JSON",
		in:   `{"schema":"olm.template.basic","entries":[{"schema":"olm.package","name":"a"},{"schema":"olm.channel","name":"s","entries":[{"name":"a.v1"}]},{"schema":"olm.bundle","image":"x:1"}]}`,
		edit: jsonRelease,
		want: `{"schema":"olm.template.basic","entries":[{"schema":"olm.package","name":"a"},{"schema":"olm.channel","name":"s","entries":[{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}]},{"schema":"olm.bundle","image":"x:1"},{"schema":"olm.bundle","image":"x:2"}]}`,
	}, {
		name: "one-line JSON with spaces",
		in:   `{"schema": "olm.template.basic", "entries": [{"schema": "olm.bundle", "image": "x:1"}]}` + "\n",
		edit: appendTo(bundle("x:2"), "entries"),
		want: `{"schema": "olm.template.basic", "entries": [{"schema": "olm.bundle", "image": "x:1"}, {"schema": "olm.bundle", "image": "x:2"}]}` + "\n",
	}, {
		name: "empty entries in pretty JSON",
		in:   "{\n  \"schema\": \"olm.template.basic\",\n  \"entries\": []\n}\n",
		edit: appendTo(bundle("x:2"), "entries"),
		want: "{\n  \"schema\": \"olm.template.basic\",\n  \"entries\": [\n    {\n      \"schema\": \"olm.bundle\",\n      \"image\": \"x:2\"\n    }\n  ]\n}\n",
	}, {
		name: "JSON set, add and delete keys",
		in:   jsonTemplate,
		edit: func(t *testing.T, f *File) error {
			pkg := node(t, f, "entries", 0)
			return errors.Join(f.Set(pkg, "defaultChannel", "fast"), f.Set(pkg, "icon", Map{{"mediatype", "image/png"}}),
				f.Delete(pkg, "name"), f.Delete(node(t, f, "entries", 2), "image"))
		},
		want: strings.NewReplacer(`      "name": "a",
      "defaultChannel": "stable"
`, `      "defaultChannel": "fast",
      "icon": {
        "mediatype": "image/png"
      }
`, `      "schema": "olm.bundle",
      "image": "x:1"
`, `      "schema": "olm.bundle"
`).Replace(jsonTemplate),
	}, {
		name: "JSON remove the middle and the last item",
		in:   jsonTemplate,
		edit: func(t *testing.T, f *File) error {
			e := node(t, f, "entries")
			return errors.Join(f.Remove(e, e.Content[1]), f.Remove(e, e.Content[2]))
		},
		want: "{\n  \"schema\": \"olm.template.basic\",\n  \"entries\": [\n    {\n      \"schema\": \"olm.package\",\n      \"name\": \"a\",\n      \"defaultChannel\": \"stable\"\n    }\n  ]\n}\n",
	}, {
		name: "JSON remove every item, then append",
		in:   jsonTemplate,
		edit: func(t *testing.T, f *File) error {
			e := node(t, f, "entries")
			return errors.Join(f.Remove(e, e.Content[0]), f.Remove(e, e.Content[1]), f.Remove(e, e.Content[2]), f.Append(e, Map{{"schema", "x"}}))
		},
		want: "{\n  \"schema\": \"olm.template.basic\",\n  \"entries\": [\n    {\n      \"schema\": \"x\"\n    }\n  ]\n}\n",
	}}
}

func TestJSON(t *testing.T) { runCases(t, jsonCases()) }

// removeAt removes the items at the given indexes of the sequence at path.
func removeAt(path []any, idx ...int) func(t *testing.T, f *File) error {
	return func(t *testing.T, f *File) error {
		s := node(t, f, path...)
		var errs []error
		for _, i := range idx {
			errs = append(errs, f.Remove(s, s.Content[i]))
		}
		return errors.Join(errs...)
	}
}

func flowCases() []editCase {
	l := []any{"l"}
	return []editCase{
		{name: "append", in: "l: [a, b] # c\n", edit: appendTo("c", "l"), want: "l: [a, b, c] # c\n"},
		{name: "append quoted like the items", in: "l: [\"a\", \"b\"]\n", edit: appendTo("c", "l"), want: "l: [\"a\", \"b\", \"c\"]\n"},
		{name: "append a mapping", in: "l: [a]\n", edit: appendTo(Map{{"k", "v"}, {"m", []string{"x"}}}, "l"), want: "l: [a, {k: v, m: [x]}]\n"},
		{name: "append where a plain scalar cannot go", in: "l: [a]\n", edit: appendTo("b, c", "l"), want: "l: [a, \"b, c\"]\n"},
		{name: "append after a trailing comma", in: "l: [a, b,]\n", edit: appendTo("c", "l"), want: "l: [a, b, c,]\n"},
		{name: "append to a multi-line flow sequence", in: "l: [\n  a,\n  b\n]\n", edit: appendTo("c", "l"), want: "l: [\n  a,\n  b,\n  c\n]\n"},
		{name: "remove the first", in: "l: [a, b, c]\n", edit: removeAt(l, 0), want: "l: [b, c]\n"},
		{name: "remove the middle", in: "l: [a, b, c]\n", edit: removeAt(l, 1), want: "l: [a, c]\n"},
		{name: "remove the last", in: "l: [a, b, c]\n", edit: removeAt(l, 2), want: "l: [a, b]\n"},
		{name: "remove the last two", in: "l: [a, b, c]\n", edit: removeAt(l, 1, 2), want: "l: [a]\n"},
		{name: "remove the first two", in: "l: [a, b, c]\n", edit: removeAt(l, 0, 1), want: "l: [c]\n"},
		{name: "remove the only", in: "l: [ a ]\n", edit: removeAt(l, 0), want: "l: []\n"},
		{name: "remove from a multi-line flow sequence", in: "l: [\n  a,\n  b,\n  c\n]\n", edit: removeAt(l, 0, 2), want: "l: [\n  b\n]\n"},
		{name: "remove all and append", in: "l: [a, b]\n", edit: func(t *testing.T, f *File) error {
			return errors.Join(removeAt(l, 0, 1)(t, f), appendTo("c", "l")(t, f))
		}, want: "l: [c]\n"},
		{name: "set a new key", in: "m: {a: 1}\n", edit: func(t *testing.T, f *File) error { return f.Set(node(t, f, "m"), "b", 2) }, want: "m: {a: 1, b: 2}\n"},
		{name: "set in an empty mapping", in: "m: {}\n", edit: func(t *testing.T, f *File) error { return f.Set(node(t, f, "m"), "b", "x") }, want: "m: {b: x}\n"},
		{name: "set keeps single quotes", in: "m: {a: 1, b: 'x'}\n", edit: func(t *testing.T, f *File) error { return f.Set(node(t, f, "m"), "b", "it's") }, want: "m: {a: 1, b: 'it''s'}\n"},
		{name: "set a value to a sequence", in: "m: {a: 1, b: x}\n", edit: func(t *testing.T, f *File) error { return f.Set(node(t, f, "m"), "a", []string{"p", "q"}) }, want: "m: {a: [p, q], b: x}\n"},
		{name: "delete the first key", in: "m: {a: 1, b: 2}\n", edit: func(t *testing.T, f *File) error { return f.Delete(node(t, f, "m"), "a") }, want: "m: {b: 2}\n"},
		{name: "delete the last key", in: "m: {a: 1, b: 2}\n", edit: func(t *testing.T, f *File) error { return f.Delete(node(t, f, "m"), "b") }, want: "m: {a: 1}\n"},
		{name: "set a key without a value", in: "m: {a, b: 1}\n", edit: func(t *testing.T, f *File) error { return f.Set(node(t, f, "m"), "a", 0) }, want: "m: {a: 0, b: 1}\n"},
		{name: "set a key with an empty value", in: "m: {a: , b: 1}\n", edit: func(t *testing.T, f *File) error { return f.Set(node(t, f, "m"), "a", 0) }, want: "m: {a: 0, b: 1}\n"},
		{name: "append to a key without a value", in: "m: {b: 1, a}\n", edit: appendTo("x", "m", "a"), want: "m: {b: 1, a: [x]}\n"},
		{name: "set after a key without a value", in: "m: {a}\n", edit: func(t *testing.T, f *File) error { return f.Set(node(t, f, "m"), "b", 1) }, want: "m: {a, b: 1}\n"},
		{name: "set after an empty value", in: "m: {a: }\n", edit: func(t *testing.T, f *File) error { return f.Set(node(t, f, "m"), "b", 1) }, want: "m: {a: , b: 1}\n"},
		{name: "compact YAML flow keeps the space after plain keys", in: "l: [a,b]\n", edit: appendTo(Map{{"k", "v"}}, "l"), want: "l: [a,b,{k: v}]\n"},
		{name: "comment inside refused", in: "l: [a, # c\n  b]\n", edit: appendTo("c", "l"), err: "t.yaml:1:4: a comment inside a flow collection"},
		{name: "comment at the end inside refused", in: "l: [a, b # c\n  ]\n", edit: appendTo("c", "l"), err: "a comment inside a flow collection"},
		{name: "tab-indented refused", in: "{\n\t\"l\": [\n\t\t1\n\t]\n}\n", edit: appendTo(2, "l"), err: "indented with a tab"},
	}
}

func TestFlow(t *testing.T) { runCases(t, flowCases()) }
