package fbcyaml

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// sameAsGoYAML checks that, where the fast path takes a document, go-yaml
// reads it to the same tree. It reports whether the fast path took it.
func sameAsGoYAML(t *testing.T, doc []byte) bool {
	t.Helper()
	fv, _, ok, ferr := fastDecode(doc, 1, false, nil)
	if !ok {
		return false
	}
	sv, serr := slowDecode(doc, 1)
	if ferr != nil && serr != nil && isNonFinite(ferr) && isNonFinite(serr) {
		// Both refuse a number JSON cannot hold; the fast path knows where.
		return true
	}
	if ferr != nil || serr != nil {
		t.Fatalf("errors differ on %q: fast %v, go-yaml %v", doc, ferr, serr)
	}
	if fv.Kind != sv.Kind {
		t.Fatalf("kinds differ on %q: fast %v, go-yaml %v", doc, fv.Kind, sv.Kind)
	}
	if f, s := value.AppendCompact(nil, &fv), value.AppendCompact(nil, &sv); !bytes.Equal(f, s) {
		t.Fatalf("trees differ on\n%s\nfast:    %s\ngo-yaml: %s", doc, f, s)
	}
	return true
}

func isNonFinite(err error) bool {
	return strings.Contains(err.Error(), "cannot be represented in JSON")
}

func TestFastPathReadsEmitterOutput(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	taken := 0
	const n = 20000
	for i := 0; i < n; i++ {
		v := randomValue(r, 0)
		if v.Kind != value.Object || len(v.Fields) == 0 {
			v = value.Value{Kind: value.Object, Fields: []value.Field{{Key: "k", Value: v}}}
		}
		doc := AppendDocument(nil, &v)
		if sameAsGoYAML(t, doc) {
			taken++
			continue
		}
		// The fast path may leave to go-yaml only complex keys ("? ") and
		// the raw Unicode line breaks the emitter writes in quoted text, and
		// merge keys ("<<"), which go-yaml reads back as merges.
		if !bytes.Contains(doc, []byte("? ")) && !bytes.Contains(doc, []byte("<<:")) && !bytes.ContainsAny(doc, "\u2028\u2029\u0085") {
			t.Errorf("fast path refused an emitted document:\n%s", doc)
		}
	}
	if taken < n*8/10 {
		t.Errorf("fast path took only %d of %d emitted documents", taken, n)
	}
}

var handWritten = []string{
	// Plain scalars JSON writes as they are, and ones it escapes.
	"a: say \"hi\"\nb: C:\\path\nc: é日本 😀\nd: one\n  two\n\n  three\ne: one\n  two\nf: x\\\n  y\n",
	"a: 1\nb: two\n",
	"---\nschema: olm.package\nname: foo\n",
	"--- # comment\na: b\n",
	"# leading comment\na: b # trailing\n\n# between\nc: d\n",
	"a:\n  b:\n    c: 1\n  d: [] \ne: {}\n",
	"list:\n- a\n- b\n-\n- - x\n  - y\n- k: v\n  k2: v2\n",
	"list:\n  - a\n  -   b\n  - c: 1\n    d: 2\nnext: x\n",
	"a: this is a long\n  plain scalar that\n\n  continues\nb: x\n",
	"a: 'single ''quoted'' with\n  fold'\nb: \"double \\t \\\" \\u00e9 \\x41\n  \\\n  joined\"\n",
	"desc: |\n  line one\n    indented\n\n  line three\nnext: 1\n",
	"desc: |-\n  no newline\nk: |+\n  keep\n\n\nz: 1\n",
	"desc: |2\n    leading spaces\nz: 1\n",
	"e: |\nz: 1\n",
	"yes: no\non: off\n1: 2\n1.5: x\n~x: y\n",
	"n: ~\nm: null\nf: 1e3\ng: .5\nh: 0x1F\ni: 0b101\nj: 2021-01-01\nk: 12345678901234567890\nl: -0\n",
	"a: b: c\n", "a:\tb\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "<<: {a: 1}\n", "a: [1, 2]\n", "a: {b: 1}\n",
	"a: {packageName: foo, version: 0.1.0}\n", "a: [x, 'y', \"z\", 1.5, yes, ~, [n], {k: v}]\n", "a: [1, 2, ]\n", "a: {\"k\":1,\"j\":[true]}\n",
	"- {name: a, image: b}\n- [x]\n", "a: [a: b]\n", "a: {a}\n", "a: {a: }\n", "a: [1,\n 2]\n", "a: {x:1}\n", "a: [x:y]\n", "a: [x:, y]\n",
	"a: {b: c} # comment\n", "a: [b #c]\n", "a: [b]c\n", "a: {b: {c: [d, {e: f}]}}\n", "a: [-1, -x, ?y, :z]\n", "a: {'q': 'r''s', \"t\": \"\\u00e9\"}\n",
	"? complex\n: value\n", "a: >\n  folded\n", "- top\n- level\n", "just a string\n", "a: 1\n b: 2\n",
	"a: \"unterminated\n", "a: 'x'y\n", "a: \"x\"#c\n", "key with spaces: v\n\"quoted key\": v\n'sq key': v\n",
	"a: x:y\nb: -1\nc: -x\nd: :x\ne: ?x\n", "a: x #c\n  y\n", "a:\n  - b\n  c: 1\n", "a: 1\na: 2\n",
	"a: |\n   \n  x\n", "a: |1\n  x\n", "a: \"\\N \\_ \\L \\P \\e \\0\"\n", "a: \"\\ud800\"\n", "a: \"\\U0001F600\"\n",
	"...\n", "a: 1\n...\n", "0: \"\\U80000000\"\n", "a: |", "a: 'x\n\n  y'\n", "a: \"x\n\n\n  y\"\n", "a: 'x   \n   y'\n",
	// A comment line, even one indented deeper than its scalar, ends a
	// plain scalar; so does a comment after a continuation line.
	"annotations:\n  a: b\n\n      # c\n  d: e\n", "a: b\n   # c\nd: e\n", "a: b\n   # c\n   more\nd: e\n",
	"a: b\n  c # d\ne: f\n", "a: b\n  c # d\n  g\ne: f\n", "- a\n  # c\n- b\n", "- a\n    # c\n  x\n",
	"a:\n  b: c\n      # d\n  e: f\n", "a: b\n\n   # c\n\n   d\n",
	// go-yaml refuses "?" in flow plain scalars and keys whose ":" is more
	// than 1,024 characters from their start.
	"a: [b?]\n", "a: {a?: b}\n", "a: {a: b?c}\n", "a: [b ?c]\n",
	"\"" + strings.Repeat("k", 1022) + "\": 1\n", "\"" + strings.Repeat("k", 1023) + "\": 1\n",
	strings.Repeat("k", 1024) + ": 1\n", strings.Repeat("k", 1022) + "   : 1\n",
	"a: {'" + strings.Repeat("k", 1022) + "': 1}\n", "a: {'" + strings.Repeat("k", 1023) + "': 1}\n",
	"a: {" + strings.Repeat("k", 1024) + ": 1}\n", "a: {" + strings.Repeat("k", 1022) + "   : 1}\n",
}

func TestFastPathHandWritten(t *testing.T) {
	for _, s := range handWritten {
		sameAsGoYAML(t, []byte(s))
	}
}

func FuzzFastPath(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	for _, s := range handWritten {
		f.Add([]byte(s))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 50; i++ {
		v := randomValue(r, 0)
		if v.Kind == value.Object {
			f.Add(AppendDocument(nil, &v))
		}
	}
	for _, data := range seedFiles(f, yamlSeedFiles...) {
		docs, _ := SplitDocuments(data, 1)
		for _, d := range docs {
			if len(d.Data) <= maxFuzzInput {
				f.Add(d.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > maxFuzzInput {
			return
		}
		sameAsGoYAML(t, doc)
	})
}

// TestCommentEndsPlainScalar: a comment line indented deeper than the
// keys around it (an annotations.yaml's "    # OpenShift annotations")
// is read on the fast path, so the keys after it keep their lines.
func TestCommentEndsPlainScalar(t *testing.T) {
	doc := "annotations:\n  a: b\n\n      # OpenShift annotations.\n  com.redhat.openshift.versions: v4.9\n"
	v, _, ok, err := fastDecode([]byte(doc), 11, false, nil)
	if !ok || err != nil {
		t.Fatalf("fast path refused the document: %v", err)
	}
	if got := v.At("annotations", "com.redhat.openshift.versions"); got == nil || got.Str != "v4.9" || got.Line != 15 {
		t.Errorf("the key after the comment: %+v, want v4.9 at line 15", got)
	}
}

// TestDuplicatesBothPaths checks that the fast path and the line scan
// behind go-yaml find the same repeated top-level keys.
func TestDuplicatesBothPaths(t *testing.T) {
	docs := []string{
		"schema: olm.package\nname: foo\nschema: olm.channel\nname: s\nentries:\n- name: a\n  name: b\n",
		"a: 1\nb:\n  c: 1\na: 2\n\"q\": 1\nq: 2\n",
		"a: 1\nb: 2\n",
	}
	for _, doc := range docs {
		v, fast, ok, err := fastDecode([]byte(doc), 3, false, nil)
		if !ok || err != nil {
			t.Fatalf("fast path refused %q: %v", doc, err)
		}
		slow := topLevelDuplicates([]byte(doc), 3, &v)
		if fmt.Sprint(fast) != fmt.Sprint(slow) {
			t.Errorf("%q: fast path found %v, line scan %v", doc, fast, slow)
		}
	}
}

// TestTabInIndentation checks that a tab in indentation is named, at its
// line and column, whatever go-yaml calls it.
func TestTabInIndentation(t *testing.T) {
	tests := []struct {
		doc       string
		line, col int
	}{
		{"schema: olm.package\nname: foo\nicon:\n\tmediatype: image/png\n", 14, 1},
		{"schema: olm.channel\nentries:\n- name: a\n\treplaces: b\n", 14, 1},
		{"schema: olm.channel\nentries:\n  - name: a\n  \t replaces: b\n", 14, 3},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(tt.doc), 11)
		var e *position.Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: error %v, want a *position.Error", tt.doc, err)
		}
		if e.Line != tt.line || e.Column != tt.col || !strings.HasPrefix(e.Message, "tab in indentation; YAML indents with spaces only") {
			t.Errorf("%q: %d:%d: %s; want %d:%d and the tab named", tt.doc, e.Line, e.Column, e.Message, tt.line, tt.col)
		}
	}
	// Tabs elsewhere are not blamed for other mistakes.
	_, err := Decode([]byte("a: \"x\ty\"\nb: [1\n"), 1)
	if err == nil || strings.Contains(err.Error(), "tab") {
		t.Errorf("unclosed list: %v", err)
	}
}
