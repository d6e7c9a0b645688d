package declcfg

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestYAMLErrorLinesAsUpstream holds the line of a YAML syntax error in a
// catalog to the one upstream names: opm v1.73's validate reads each
// document with go-yaml v2 and says "yaml: line N" counted from the
// document's first line (N below); the file line is that document's
// first line plus N-1. For a problem go-yaml's parser finds, that is the
// line before the one it was found on; for an unclosed quote, the line
// after the file's last.
func TestYAMLErrorLinesAsUpstream(t *testing.T) {
	const pkg = "schema: olm.package\nname: foo\ndefaultChannel: stable\n"
	const channel = "schema: olm.channel\npackage: foo\nname: stable\nentries:\n"
	tests := []struct {
		name, data string
		want       string // "line: message" of the only syntax error
	}{
		// upstream: line 5 of the document starting on line 6
		{"mis-indented key in a block sequence", "---\n" + pkg + "---\n" + channel + "  - name: foo.v1\n   replaces: x\n",
			"10: invalid YAML: did not find expected '-' indicator"},
		// line 3
		{"unclosed flow sequence", "schema: olm.package\nname: foo\ndefaultChannel: [stable\n---\nschema: olm.channel\n",
			"3: invalid YAML: did not find expected ',' or ']'"},
		// line 5 of the document starting on line 5
		{"unclosed double quote", pkg + "---\nschema: olm.channel\npackage: foo\nname: \"stable\nentries: []\n",
			"9: invalid YAML: found unexpected end of stream"},
		// line 3
		{"tab in the indentation", "schema: olm.package\nname: foo\n\tdefaultChannel: stable\n",
			"3:1: invalid YAML: tab in indentation"},
		// line 9 of the document starting on line 5
		{"list item after a mapping", pkg + "---\nschema: olm.bundle\nname: foo.v1\npackage: foo\nimage: x\nproperties:\n- type: olm.package\n  value:\n    packageName: foo\n    version: 1.0.0\n  - type: bad\n",
			"13: invalid YAML: did not find expected key"},
		// line 2
		{"colon in a plain value", "schema: olm.package\nname: foo: bar\ndefaultChannel: stable\n",
			"2: invalid YAML: mapping values are not allowed in this context"},
		// line 6 of the document starting on line 5
		{"unclosed flow mapping", pkg + "---\n" + channel + "- name: foo.v1\n- {name: foo.v2, replaces: foo.v1\n",
			"10: invalid YAML: did not find expected ',' or '}'"},
		// line 5
		{"literal block less indented", pkg + "description: |\n  ok\n bad\n",
			"5: invalid YAML: did not find expected key"},
		// no line: the document's first line
		{"unknown anchor", "schema: olm.package\nname: foo\ndefaultChannel: *anchor\n",
			"1: invalid YAML: unknown anchor 'anchor' referenced"},
		// line 5
		{"indented key after blank lines", "\n\nschema: olm.package\nname: foo\n defaultChannel: stable\n",
			"5: invalid YAML: mapping values are not allowed in this context"},
		// line 6 of the document starting on line 11
		{"unclosed single quote", pkg + "---\n" + channel + "- name: foo.v1\n---\nschema: olm.bundle\nname: foo.v1\npackage: foo\nimage: 'x\nproperties: []\n",
			"16: invalid YAML: found unexpected end of stream"},
		// line 7 of the document starting on line 5
		{"unclosed flow sequence after a comment", pkg + "---\n# comment\n" + channel + "- name: foo.v1\n  skips: [a, b\n- name: foo.v2\n",
			"11: invalid YAML: did not find expected ',' or ']'"},
		// line 6 of the document starting on line 5
		{"key indented under a sequence item", pkg + "---\n" + channel + "- name: foo.v1\n    replaces: foo.v0\n",
			"10: invalid YAML: mapping values are not allowed in this context"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := load(t, fstest.MapFS{"catalog.yaml": file(tc.data)})
			var got []string
			for _, e := range errs {
				if strings.Contains(e.Error(), "invalid YAML") {
					got = append(got, e.Error())
				}
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], "catalog.yaml:"+tc.want) {
				t.Errorf("errors %q, want one starting %q", got, "catalog.yaml:"+tc.want)
			}
		})
	}
}
