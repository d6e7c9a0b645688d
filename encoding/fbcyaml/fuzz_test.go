package fbcyaml

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// maxFuzzInput bounds fuzz inputs, so that a slow case shows up as a
// slow execution rather than a hang of the fuzzer.
const maxFuzzInput = 64 << 10

// seedFiles reads the files of the repository's testdata that match
// patterns, to seed fuzz targets' corpora (and tests) with.
func seedFiles(f testing.TB, patterns ...string) [][]byte {
	var files [][]byte
	for _, pattern := range patterns {
		names, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			files = append(files, data)
		}
	}
	return files
}

var yamlSeedFiles = []string{
	"../../testdata/catalog/*/*.yaml",
	"../../testdata/serve/catalog/*.yaml",
	"../../testdata/serve/catalog/*/*.yaml",
	"../../testdata/bundles/*/*/*.yaml",
	"../../testdata/demo/*.yaml",
}

// FuzzDecode reads a stream the way the loader does (split, then each
// document decoded) and checks what holds for any input: no panic; an
// error is a *position.Error on a line of its document; a tree is no deeper than
// value.MaxDepth, its positions are inside its document, and writing it
// as YAML and reading that back gives the same tree.
func FuzzDecode(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	for _, s := range handWritten {
		f.Add([]byte(s))
	}
	for _, tc := range hostile {
		if len(tc.doc) <= 4096 {
			f.Add([]byte(tc.doc))
		}
	}
	for _, data := range seedFiles(f, yamlSeedFiles...) {
		if len(data) <= maxFuzzInput {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		docs, _ := SplitDocuments(data, 1)
		for _, d := range docs {
			last := d.Line + int32(bytes.Count(d.Data, []byte{'\n'})) - 1
			v, err := Decode(d.Data, d.Line)
			if err != nil {
				var ye *position.Error
				if !errors.As(err, &ye) || ye.Line < int(d.Line) || ye.Line > int(last) || ye.Column < 0 {
					t.Fatalf("document at line %d to %d of %q: error %#v", d.Line, last, data, err)
				}
				continue
			}
			if v.Kind == value.Null && v.Line == 0 {
				continue // a document of comments and white space
			}
			depth := checkTree(t, &v, d.Line, last, 0)
			if depth > value.MaxDepth {
				t.Fatalf("tree of %q is %d deep", d.Data, depth)
			}
			if depth <= 64 && !hasUnicodeBreak(&v) {
				// Written out, deeper trees grow quadratically with
				// their indentation. go-yaml writes NEL, LS and PS raw
				// in quoted text and reads them back as line breaks;
				// the emitter does the same.
				checkRoundTrip(t, &v)
			}
		}
	})
}

// checkTree checks the positions of a tree and returns its depth.
func checkTree(t *testing.T, v *value.Value, first, last int32, depth int) int {
	if v.Line < first || v.Line > last || v.Col < 0 {
		t.Fatalf("node at %d:%d, outside lines %d to %d", v.Line, v.Col, first, last)
	}
	deepest := depth
	for i := range v.Items {
		deepest = max(deepest, checkTree(t, &v.Items[i], first, last, depth+1))
	}
	for i := range v.Fields {
		deepest = max(deepest, checkTree(t, &v.Fields[i].Value, first, last, depth+1))
	}
	return deepest
}

// hasUnicodeBreak reports whether a tree's text holds a line break
// YAML 1.1 knows beyond "\n" and "\r".
func hasUnicodeBreak(v *value.Value) bool {
	if strings.ContainsAny(v.Str, "\u0085\u2028\u2029") {
		return true
	}
	for i := range v.Items {
		if hasUnicodeBreak(&v.Items[i]) {
			return true
		}
	}
	for i := range v.Fields {
		if strings.ContainsAny(v.Fields[i].Key, "\u0085\u2028\u2029") || hasUnicodeBreak(&v.Fields[i].Value) {
			return true
		}
	}
	return false
}

// checkRoundTrip writes a tree as a YAML document and reads it back.
func checkRoundTrip(t *testing.T, v *value.Value) {
	doc := v
	if v.Kind != value.Object {
		doc = &value.Value{Kind: value.Object, Fields: []value.Field{{Key: "k", Value: *v}}}
	}
	out := AppendDocument(nil, doc)
	back, err := Decode(out, 1)
	if err != nil {
		t.Fatalf("reading back\n%s: %v", out, err)
	}
	if a, b := value.AppendCompact(nil, doc), value.AppendCompact(nil, &back); !bytes.Equal(a, b) {
		t.Fatalf("round trip through\n%s\nchanged %s\ninto    %s", out, a, b)
	}
}
