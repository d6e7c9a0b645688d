package yamledit

import (
	"errors"
	"testing"
)

const basicTemplate = `---
schema: olm.template.basic
entries:
- schema: olm.package
  name: aws-neuron-operator
  defaultChannel: Fast
- schema: olm.channel
  name: Fast
  package: aws-neuron-operator
  entries:
  - name: aws-neuron-operator.v0.0.1
  - name: aws-neuron-operator.v0.0.2
    replaces: aws-neuron-operator.v0.0.1
- schema: olm.bundle
  image: quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.3
`

const semverTemplate = `Schema: olm.semver
GenerateMinorChannels: true
Stable:
  Bundles:
  - Image: quay.io/community-operator-pipeline-prod/konflux:0.0.4
  - Image: quay.io/community-operator-pipeline-prod/konflux:0.0.5
Candidate:
  bundles:
  - image: quay.io/community-operator-pipeline-prod/konflux:0.1.0-rc.5
`

// release appends a bundle and its channel entry, as a release does.
func release(t *testing.T, f *File) error {
	return errors.Join(
		f.Append(node(t, f, "entries", 1, "entries"), chEntry("aws-neuron-operator.v0.0.3", "aws-neuron-operator.v0.0.2")),
		f.Append(node(t, f, "entries"), bundle("quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.4")),
	)
}

// releaseCases are the edits a release makes.
func releaseCases() []editCase {
	return []editCase{{
		name: "basic template release",
		in:   basicTemplate,
		edit: release,
		want: `---
schema: olm.template.basic
entries:
- schema: olm.package
  name: aws-neuron-operator
  defaultChannel: Fast
- schema: olm.channel
  name: Fast
  package: aws-neuron-operator
  entries:
  - name: aws-neuron-operator.v0.0.1
  - name: aws-neuron-operator.v0.0.2
    replaces: aws-neuron-operator.v0.0.1
  - name: aws-neuron-operator.v0.0.3
    replaces: aws-neuron-operator.v0.0.2
- schema: olm.bundle
  image: quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.3
- schema: olm.bundle
  image: quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.4
`,
	}, {
		name: "basic template release, CRLF",
		in:   crlf(basicTemplate),
		edit: release,
		want: crlf(`---
schema: olm.template.basic
entries:
- schema: olm.package
  name: aws-neuron-operator
  defaultChannel: Fast
- schema: olm.channel
  name: Fast
  package: aws-neuron-operator
  entries:
  - name: aws-neuron-operator.v0.0.1
  - name: aws-neuron-operator.v0.0.2
    replaces: aws-neuron-operator.v0.0.1
  - name: aws-neuron-operator.v0.0.3
    replaces: aws-neuron-operator.v0.0.2
- schema: olm.bundle
  image: quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.3
- schema: olm.bundle
  image: quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.4
`),
	}, {
		name: "semver template, keys found case-insensitively",
		in:   semverTemplate,
		edit: func(t *testing.T, f *File) error {
			_, stable := LookupFold(f.Root(), "stable")
			_, bundles := LookupFold(stable, "bundles")
			_, cand := LookupFold(f.Root(), "candidate")
			_, cb := LookupFold(cand, "Bundles")
			return errors.Join(
				f.Append(bundles, Map{{"Image", "quay.io/community-operator-pipeline-prod/konflux:0.1.9"}}),
				f.Append(cb, Map{{"image", "quay.io/community-operator-pipeline-prod/konflux:0.2.0-rc.0"}}),
			)
		},
		want: `Schema: olm.semver
GenerateMinorChannels: true
Stable:
  Bundles:
  - Image: quay.io/community-operator-pipeline-prod/konflux:0.0.4
  - Image: quay.io/community-operator-pipeline-prod/konflux:0.0.5
  - Image: quay.io/community-operator-pipeline-prod/konflux:0.1.9
Candidate:
  bundles:
  - image: quay.io/community-operator-pipeline-prod/konflux:0.1.0-rc.5
  - image: quay.io/community-operator-pipeline-prod/konflux:0.2.0-rc.0
`,
	}}
}

// commentCases keep comments, blank lines and documents where they are.
func commentCases() []editCase {
	return []editCase{{
		name: "comments everywhere stay; the item goes before trailing blank lines and outdented comments",
		in: `# header comment
# second header line
---
schema: olm.template.basic # the schema
entries:
# the package
- schema: olm.package
  name: a  # inline
  # a comment inside the item

# bundles
- schema: olm.bundle # bundle one
  image: x:1 # latest
    # deeper comment, still the item's

  # another of the item's, after a blank line

# trailing comment
`,
		edit: appendTo(bundle("x:2"), "entries"),
		want: `# header comment
# second header line
---
schema: olm.template.basic # the schema
entries:
# the package
- schema: olm.package
  name: a  # inline
  # a comment inside the item

# bundles
- schema: olm.bundle # bundle one
  image: x:1 # latest
    # deeper comment, still the item's

  # another of the item's, after a blank line
- schema: olm.bundle
  image: x:2

# trailing comment
`,
	}, {
		name: "sequence indented under its key, document end marker and later documents kept",
		in: `entries:
  - name: a
  - name: b
other: 1
...
---
entries:
  - name: z
`,
		edit: appendTo(Map{{"name", "c"}}, "entries"),
		want: `entries:
  - name: a
  - name: b
  - name: c
other: 1
...
---
entries:
  - name: z
`,
	}}
}

// layoutCases follow the layout of the existing items.
func layoutCases() []editCase {
	return []editCase{{
		name: "content after the dash aligned as the existing items",
		in:   "items:\n-   name: a\n    value: 1\n",
		edit: appendTo(Map{{"name", "b"}, {"value", 2}}, "items"),
		want: "items:\n-   name: a\n    value: 1\n-   name: b\n    value: 2\n",
	}, {
		name: "literal and folded block scalars in the last item",
		in: `entries:
- name: a
  description: |
    line one

    # not a comment: text
- name: b
  description: >-
    folded
    text

# after
`,
		edit: appendTo(Map{{"name", "c"}}, "entries"),
		want: `entries:
- name: a
  description: |
    line one

    # not a comment: text
- name: b
  description: >-
    folded
    text
- name: c

# after
`,
	}, {
		name: "kept trailing lines of a block scalar stay with it",
		in:   "l:\n- |+\n  text\n\n\nk: 1\n",
		edit: appendTo("x", "l"),
		want: "l:\n- |+\n  text\n\n\n- x\nk: 1\n",
	}, {
		name: "multi-line plain and quoted scalars in the last item",
		in:   "l:\n- a: plain text\n    over two lines\n- b: \"quoted \\\" text\n    over lines\"\nk: 1\n",
		edit: appendTo("x", "l"),
		want: "l:\n- a: plain text\n    over two lines\n- b: \"quoted \\\" text\n    over lines\"\n- x\nk: 1\n",
	}}
}

// nestingCases write nested values and several appends.
func nestingCases() []editCase {
	return []editCase{{
		name: "nested values follow the file's indentation",
		in:   "a:\n    b:\n        - x: 1\n    l:\n    - q\n",
		edit: appendTo(Map{{"name", "nm"}, {"props", []any{Map{{"type", "t"}, {"value", Map{{"k", "v"}}}}}}, {"empty", Map{}}, {"none", []string{}}}, "a", "b"),
		want: "a:\n    b:\n        - x: 1\n        - name: nm\n          props:\n              - type: t\n                value:\n                    k: v\n          empty: {}\n          none: []\n    l:\n    - q\n",
	}, {
		name: "sequences in sequences",
		in:   "l:\n- - a\n  - b\n",
		edit: func(t *testing.T, f *File) error {
			return errors.Join(f.Append(node(t, f, "l", 0), "c"), f.Append(node(t, f, "l"), []any{"d", []string{"e"}}))
		},
		want: "l:\n- - a\n  - b\n  - c\n- - d\n  - - e\n",
	}, {
		name: "several appends keep their order; inner before outer at the same place",
		in:   "entries:\n- name: ch\n  entries:\n  - name: a\n",
		edit: func(t *testing.T, f *File) error {
			outer, inner := node(t, f, "entries"), node(t, f, "entries", 0, "entries")
			return errors.Join(f.Append(outer, Map{{"name", "x"}}), f.Append(inner, Map{{"name", "b"}}),
				f.Append(outer, Map{{"name", "z"}}), f.Append(inner, Map{{"name", "c"}}))
		},
		want: "entries:\n- name: ch\n  entries:\n  - name: a\n  - name: b\n  - name: c\n- name: x\n- name: z\n",
	}}
}

// endCases append at the end of a file.
func endCases() []editCase {
	return []editCase{{
		name: "no line break at the end of the file",
		in:   "l:\n- a",
		edit: appendTo("b", "l"),
		want: "l:\n- a\n- b",
	}, {
		name: "CRLF, no line break at the end",
		in:   "l:\r\n- a",
		edit: appendTo("b", "l"),
		want: "l:\r\n- a\r\n- b",
	}, {
		name: "after a block scalar that ends the file with a line break",
		in:   "l:\n- |\n  text\n",
		edit: appendTo("x", "l"),
		want: "l:\n- |\n  text\n- x\n",
	}, {
		name: "after a block scalar that ends the file without one: refused",
		in:   "l:\n- |\n  text",
		edit: appendTo("x", "l"),
		err:  "t.yaml:2:3: the file ends in a block scalar without a final line break",
	}, {
		name: "a document that is a sequence",
		in:   "# list\n- a\n- b\n",
		edit: func(t *testing.T, f *File) error { return f.Append(f.Root(), Map{{"k", "v"}}) },
		want: "# list\n- a\n- b\n- k: v\n",
	}}
}

func appendCases() []editCase {
	var all []editCase
	for _, c := range [][]editCase{releaseCases(), commentCases(), layoutCases(), nestingCases(), endCases()} {
		all = append(all, c...)
	}
	return all
}

func TestAppend(t *testing.T) { runCases(t, appendCases()) }

func emptyCases() []editCase {
	return []editCase{{
		name: "empty flow sequence under a key becomes a block sequence",
		in:   "schema: olm.channel\nentries: []\nname: stable\n",
		edit: func(t *testing.T, f *File) error {
			e := node(t, f, "entries")
			return errors.Join(f.Append(e, chEntry("a.v1", "a.v0")), f.Append(e, Map{{"name", "a.v2"}}))
		},
		want: "schema: olm.channel\nentries:\n- name: a.v1\n  replaces: a.v0\n- name: a.v2\nname: stable\n",
	}, {
		name: "null value with a comment; indented sequences elsewhere in the file",
		in:   "a:\n  - x\nentries: ~ # none yet\nb: 1\n",
		edit: appendTo(Map{{"name", "nm"}}, "entries"),
		want: "a:\n  - x\nentries: # none yet\n  - name: nm\nb: 1\n",
	}, {
		name: "empty value at the end of the file",
		in:   "schema: olm.channel\nentries:",
		edit: appendTo("a", "entries"),
		want: "schema: olm.channel\nentries:\n- a",
	}, {
		name: "empty value of a key inside an item",
		in:   "entries:\n- name: ch\n  entries:\n- name: other\n",
		edit: appendTo(Map{{"name", "a"}}, "entries", 0, "entries"),
		want: "entries:\n- name: ch\n  entries:\n  - name: a\n- name: other\n",
	}, {
		name: "null inside a flow mapping",
		in:   "m: {a: null, b: 1}\n",
		edit: appendTo("x", "m", "a"),
		want: "m: {a: [x], b: 1}\n",
	}, {
		name: "empty flow sequence inside a flow mapping stays flow",
		in:   "m: {a: [], b: 1}\n",
		edit: appendTo(Map{{"k", "v"}}, "m", "a"),
		want: "m: {a: [{k: v}], b: 1}\n",
	}, {
		name: "append to a mapping is refused",
		in:   "m: {a: 1}\n",
		edit: appendTo("x", "m"),
		err:  "t.yaml:1:4: cannot append to a mapping",
	}, {
		name: "append to a null sequence item is refused",
		in:   "l:\n- \n- a\n",
		edit: appendTo("x", "l", 0),
		err:  "cannot append to a scalar",
	}}
}

func TestAppendToEmpty(t *testing.T) { runCases(t, emptyCases()) }

func scalarCases() []editCase {
	in := "l:\n- a\n"
	one := func(v any, line string) editCase {
		return editCase{name: line, in: in, edit: appendTo(v, "l"), want: in + line + "\n"}
	}
	return []editCase{
		one("plain", "- plain"),
		one("quay.io/x/y@sha256:0123abcd", "- quay.io/x/y@sha256:0123abcd"),
		one(">=1.0.0 <2.0.0", `- ">=1.0.0 <2.0.0"`),
		one("yes", `- "yes"`),
		one("y", `- "y"`), // a bool to YAML 1.1 readers (sigs.k8s.io/yaml)
		one("on", `- "on"`),
		one("1_000", `- "1_000"`),
		one("1:20", "- 1:20"), // a string to both readers (no sexagesimal)
		one("1.0", `- "1.0"`),
		one("0o17", `- "0o17"`),
		one("null", `- "null"`),
		one("", `- ""`),
		one("a: b", `- "a: b"`),
		one("- x", `- "- x"`),
		one("#x", `- "#x"`),
		one("x #y", `- "x #y"`),
		one(" lead", `- " lead"`),
		one(`say "hi"`, `- say "hi"`),
		one("tab\there", `- "tab\there"`),
		one("ünïcode", "- ünïcode"),
		one(true, "- true"),
		one(42, "- 42"),
		one(nil, "- null"),
		one("two\nlines\n", "- |\n  two\n  lines"),
		one("two\nlines", "- |-\n  two\n  lines"),
		one(" two\nlines", `- " two\nlines"`),
		one("del\x7f", `- "del\u007f"`),
		one("nel\u0085", `- "nel\u0085"`),
		one("bom\ufeff", `- "bom\ufeff"`),
		{name: "single quotes when the file prefers them", in: "a: 'x'\nb: 'y'\nl:\n- a\n", edit: appendTo("yes", "l"), want: "a: 'x'\nb: 'y'\nl:\n- a\n- 'yes'\n"},
		{name: "unsupported type", in: in, edit: appendTo(1.5, "l"), err: "cannot write a value of type float64"},
		{name: "invalid UTF-8", in: in, edit: appendTo("\xff", "l"), err: "not valid UTF-8"},
		{name: "duplicate keys", in: in, edit: appendTo(Map{{"a", 1}, {"a", 2}}, "l"), err: `the key "a" appears twice`},
	}
}

func TestAppendScalars(t *testing.T) { runCases(t, scalarCases()) }
