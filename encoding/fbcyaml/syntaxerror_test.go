package fbcyaml

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/position"
)

// basicHead is the first two lines of a basic template; the mistake of
// each case below is on line 3 or after.
const basicHead = "schema: olm.template.basic\nentries:\n"

// upstreamMistakes are YAML mistakes in a basic template and what upstream
// opm v1.73 (`opm alpha render-template basic FILE`: sigs.k8s.io/yaml, so
// go-yaml v2) says of each: "yaml: line N: msg", or no line (line 0).
// The lines it names are not always the mistake's: go-yaml names its
// parser's problems one line early (01, 02, 06, 07, 10, 16), and the end
// of the file after an unclosed quote a line past the last (04, 05).
var upstreamMistakes = []struct {
	name string
	doc  string
	line int // the line upstream names; 0 for none
	msg  string
}{
	{"01 over-indented sequence item", basicHead + "- schema: olm.package\n  name: foo\n- schema: olm.channel\n  name: stable\n  package: foo\n  entries:\n    - name: foo.v1\n  - name: foo.v2\n", 9, "did not find expected key"},
	{"02 under-indented key", basicHead + "- schema: olm.package\n  name: foo\n defaultChannel: stable\n", 4, "did not find expected key"},
	{"03 tab in indentation", basicHead + "- schema: olm.package\n\tname: foo\n", 4, "tab in indentation; YAML indents with spaces only: replace the tab with spaces (found a tab character that violates indentation)"},
	{"04 unclosed double quote", basicHead + "- schema: olm.package\n  name: \"foo\n  defaultChannel: stable\n", 6, "found unexpected end of stream"},
	{"05 unclosed single quote", basicHead + "- schema: olm.package\n  name: 'foo\n  defaultChannel: stable\n", 6, "found unexpected end of stream"},
	{"06 unclosed flow sequence", basicHead + "- schema: olm.bundle\n  image: x\n  skips: [a, b\n- schema: olm.package\n  name: foo\n", 5, "did not find expected ',' or ']'"},
	{"07 unclosed flow mapping", basicHead + "- {schema: olm.package, name: foo\n- schema: olm.bundle\n  image: x\n", 3, "did not find expected ',' or '}'"},
	{"09 mapping under a scalar", basicHead + "- schema: olm.package\n  name: foo\nschema2: x\n  a: b\n", 6, "mapping values are not allowed in this context"},
	{"10 mapping key among sequence items", "schema: olm.template.basic\nentries:\n  - schema: olm.package\n    name: foo\n  other: 1\n", 4, "did not find expected '-' indicator"},
	{"11 mapping in a plain value", basicHead + "- schema: olm.package\n  name: foo: bar\n", 4, "mapping values are not allowed in this context"},
	{"12 key without a colon", basicHead + "- schema: olm.package\n  name\n  defaultChannel: stable\n", 5, "could not find expected ':'"},
	{"13 reserved character", basicHead + "- schema: olm.package\n  name: @foo\n", 4, "found character that cannot start any token"},
	{"14 undefined alias", basicHead + "- schema: olm.package\n  name: *foo\n", 0, "unknown anchor 'foo' referenced"},
	{"15 mistake on the first line", "[schema, , x]\n", 1, "did not find expected node content"},                     // upstream: no line
	{"15b scanner mistake on the first line", "schema: a: b\n", 1, "mapping values are not allowed in this context"}, // upstream: no line
	{"16 block scalar less indented", basicHead + "- schema: olm.package\n  description: |\n      text\n    more\n  name: foo\n", 5, "did not find expected key"},
	{"17 flow sequence unclosed at the end", basicHead + "- schema: olm.bundle\n  image: x\n  skips: [a, b\n", 5, "did not find expected ',' or ']'"},
	{"18 dash without a space", basicHead + "-schema: olm.package\n  name: foo\n", 4, "mapping values are not allowed in this context"},
}

// TestSyntaxErrorNamesUpstreamsLine: whichever parser found the mistake
// first (go-yaml v3, which names other lines, or Decode, which names the
// line the problem was found on), SyntaxError names upstream's line.
func TestSyntaxErrorNamesUpstreamsLine(t *testing.T) {
	for _, c := range upstreamMistakes {
		t.Run(c.name, func(t *testing.T) {
			var n yamlv3.Node
			v3err := yamlv3.Unmarshal([]byte(c.doc), &n)
			_, decErr := Decode([]byte(c.doc), 1)
			for _, err := range []error{v3err, decErr, nil} {
				got := SyntaxError([]byte(c.doc), 1, err)
				if got == nil || got.Line != c.line || got.Message != c.msg {
					t.Fatalf("SyntaxError after %v = %+v, want line %d: %s", err, got, c.line, c.msg)
				}
			}
			// In a later document, or a part of a file, lines count from
			// where it starts.
			if got := SyntaxError([]byte(c.doc), 11, nil); c.line > 0 && got.Line != c.line+10 {
				t.Errorf("from line 11: line %d, want %d", got.Line, c.line+10)
			}
		})
	}
}

// TestSyntaxErrorDuplicateKeysPass: upstream reads a duplicate key (the
// last one wins), so it is no syntax error.
func TestSyntaxErrorDuplicateKeysPass(t *testing.T) {
	if got := SyntaxError([]byte(basicHead+"- schema: olm.package\n  name: foo\n  name: bar\n"), 1, nil); got != nil {
		t.Errorf("duplicate key: %+v", got)
	}
}

// TestSyntaxErrorLaterDocument: the documents after the first are read
// too, their lines counted through the stream.
func TestSyntaxErrorLaterDocument(t *testing.T) {
	got := SyntaxError([]byte("a: 1\n---\nb: 1\n  c: 2\n"), 1, nil)
	if got == nil || got.Line != 4 || got.Message != "mapping values are not allowed in this context" {
		t.Errorf("got %+v", got)
	}
}

// TestSyntaxErrorFallsBack: what go-yaml v2 reads but another parser
// refuses keeps that parser's error, at its line.
func TestSyntaxErrorFallsBack(t *testing.T) {
	doc := []byte("a: 1\na: 2\n")
	var m map[string]any
	v3err := yamlv3.Unmarshal(doc, &m) // yaml.v3 refuses duplicate keys in a map
	got := SyntaxError(doc, 5, v3err)
	if got == nil || got.Line != 6 || !strings.Contains(got.Message, `mapping key "a" already defined at line 1`) {
		t.Errorf("v3's duplicate key: %+v (from %v)", got, v3err)
	}
	own := &position.Error{Line: 7, Column: 3, Message: "own"}
	if got := SyntaxError(doc, 1, own); got != own {
		t.Errorf("a *position.Error: %+v", got)
	}
	if got := SyntaxError(doc, 1, errors.New("something else")); got == nil || got.Line != 0 || got.Message != "something else" {
		t.Errorf("another error: %+v", got)
	}
	if got := SyntaxError(doc, 1, nil); got != nil {
		t.Errorf("no error: %+v", got)
	}
}

// TestSyntaxErrorExpandsNothing: a document whose aliases would expand
// past any memory is checked for syntax only.
func TestSyntaxErrorExpandsNothing(t *testing.T) {
	doc := "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 10; i++ {
		prev := fmt.Sprintf("*l%d", i-1)
		doc += fmt.Sprintf("l%d: &l%d [%s]\n", i, i, strings.Repeat(prev+", ", 9)+prev)
	}
	if got := SyntaxError([]byte(doc), 1, nil); got != nil {
		t.Errorf("got %+v", got)
	}
}
