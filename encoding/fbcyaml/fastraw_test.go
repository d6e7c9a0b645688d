package fbcyaml

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/fbcat/opm/encoding/value"
)

// compactingSame decodes doc both ways and fails unless they agree: the
// same error, duplicates and tree, but where DecodeCompactingProperties
// gives a value.Raw node, which must be a property's value, hold the
// compact JSON of the tree DecodeWithDuplicates gives there, and keep its
// position. It returns the paths of the Raw nodes.
func compactingSame(t *testing.T, doc []byte) []string {
	t.Helper()
	want, wantDups, wantErr := DecodeWithDuplicates(doc, 3)
	got, gotDups, gotErr := DecodeCompactingProperties(doc, 3)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: error %v, want %v", doc, gotErr, wantErr)
	}
	if !reflect.DeepEqual(gotDups, wantDups) {
		t.Fatalf("%q: duplicates %v, want %v", doc, gotDups, wantDups)
	}
	if wantErr != nil {
		return nil
	}
	var raws []string
	sameExceptRaw(t, doc, "", &want, &got, &raws)
	if a, b := value.AppendCompact(nil, &want), value.AppendCompact(nil, &got); !bytes.Equal(a, b) {
		t.Fatalf("%q: compact JSON %s, want %s", doc, b, a)
	}
	return raws
}

func sameExceptRaw(t *testing.T, doc []byte, path string, want, got *value.Value, raws *[]string) {
	t.Helper()
	if got.Kind == value.Raw {
		if !isPropertyValuePath(path) || (want.Kind != value.Object && want.Kind != value.Array) {
			t.Fatalf("%q: compacted %s, a %s", doc, path, want.Kind)
		}
		if compact := value.AppendCompact(nil, want); string(compact) != got.Str {
			t.Fatalf("%q: %s compacted to %s, want %s", doc, path, got.Str, compact)
		}
		if got.Line != want.Line || got.Col != want.Col {
			t.Fatalf("%q: %s at %d:%d, want %d:%d", doc, path, got.Line, got.Col, want.Line, want.Col)
		}
		*raws = append(*raws, path)
		return
	}
	if got.Kind != want.Kind || got.Str != want.Str || got.Bool != want.Bool || got.Line != want.Line || got.Col != want.Col ||
		len(got.Items) != len(want.Items) || len(got.Fields) != len(want.Fields) ||
		got.Num != want.Num {
		t.Fatalf("%q: %s differs:\n%+v\nwant\n%+v", doc, path, *got, *want)
	}
	for i := range want.Items {
		sameExceptRaw(t, doc, fmt.Sprintf("%s[%d]", path, i), &want.Items[i], &got.Items[i], raws)
	}
	for i := range want.Fields {
		if got.Fields[i].Key != want.Fields[i].Key {
			t.Fatalf("%q: %s: key %q, want %q", doc, path, got.Fields[i].Key, want.Fields[i].Key)
		}
		sameExceptRaw(t, doc, path+"."+want.Fields[i].Key, &want.Fields[i].Value, &got.Fields[i].Value, raws)
	}
}

// isPropertyValuePath reports whether path is .properties[i].value.
func isPropertyValuePath(path string) bool {
	var i int
	var rest string
	n, _ := fmt.Sscanf(path, ".properties[%d]%s", &i, &rest)
	return n == 2 && rest == ".value"
}

func TestCompactingPropertiesWhere(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		raw       []string
	}{
		{"type before value", "schema: olm.bundle\nproperties:\n- type: olm.gvk\n  value:\n    group: a\n    kind: K\n    version: v1\n- type: olm.package\n  value: {packageName: p, version: 1.0.0}\n", []string{".properties[0].value", ".properties[1].value"}},
		{"indented list", "properties:\n  - type: olm.csv.metadata\n    value:\n      annotations:\n        a: \"b\"\n      description: |\n        text\n        more\n      keywords: [x, 'y']\n", []string{".properties[0].value"}},
		{"value before type", "properties:\n- value:\n    group: a\n  type: olm.gvk\n", nil},
		{"bundle object", "properties:\n- type: olm.bundle.object\n  value:\n    data: eyJ9\n", nil},
		{"a rounded number", "properties:\n- type: t\n  value:\n    n: 12345678901234567890\n- type: t\n  value:\n    n: [1, 2]\n", []string{".properties[1].value"}},
		{"flow property", "properties:\n- {type: t, value: {a: b}}\n", nil},
		{"scalar value", "properties:\n- type: t\n  value: 3\n", nil},
		{"properties a mapping", "properties:\n  x:\n    type: t\n    value:\n      a: b\n", nil},
		{"properties deeper down", "spec:\n  properties:\n  - type: t\n    value:\n      a: b\n", nil},
		{"a list in a property", "properties:\n- type: t\n  value:\n  - properties:\n    - type: u\n      value:\n        a: b\n", []string{".properties[0].value"}},
		{"duplicate keys in a value", "properties:\n- type: t\n  value:\n    a: 1\n    b: 2\n    a: 3\n", []string{".properties[0].value"}},
		{"a typed key", "properties:\n- type: t\n  value:\n    1: one\n    true: yes\n", []string{".properties[0].value"}},
		{"empty collections", "properties:\n- type: t\n  value: {}\n- type: t\n  value: []\n- type: t\n  value:\n    a: []\n    b: {}\n    c:\n", []string{".properties[0].value", ".properties[1].value", ".properties[2].value"}},
		{"multi-line scalars", "properties:\n- type: t\n  value:\n    a: one\n      two\n\n      three\n    b: \"x\n      y\"\n    c: 'it''s'\n", []string{".properties[0].value"}},
		{"a type after the value", "properties:\n- type: t\n  value:\n    a: b\n  type: olm.bundle.object\n", nil},
		{"second of two types", "properties:\n- type: olm.bundle.object\n  type: t\n  value:\n    a: b\n", []string{".properties[0].value"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := compactingSame(t, []byte(c.doc)); !slices.Equal(got, c.raw) {
				t.Errorf("compacted %q, want %q", got, c.raw)
			}
		})
	}
}

// TestCompactingPropertiesOnTestdata decodes every document of the
// repository's YAML catalogs and bundles and of the hand-written cases
// both ways.
func TestCompactingPropertiesOnTestdata(t *testing.T) {
	var inputs [][]byte
	for _, s := range handWritten {
		inputs = append(inputs, []byte(s))
	}
	for _, tc := range hostile {
		inputs = append(inputs, []byte(tc.doc))
	}
	inputs = append(inputs, seedFiles(t, yamlSeedFiles...)...)
	raws := 0
	for _, data := range inputs {
		docs, _ := SplitDocuments(data, 1)
		for _, d := range docs {
			raws += len(compactingSame(t, d.Data))
		}
	}
	if raws == 0 {
		t.Error("no property value was compacted")
	}
}

// FuzzCompactingProperties holds DecodeCompactingProperties to
// DecodeWithDuplicates on any input.
func FuzzCompactingProperties(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	for _, s := range handWritten {
		f.Add([]byte(s))
	}
	for _, data := range seedFiles(f, yamlSeedFiles...) {
		if len(data) <= maxFuzzInput {
			f.Add(data)
		}
	}
	f.Add([]byte("properties:\n- type: t\n  value:\n    a: [1, {b: c}]\n    d:\n    - e\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		docs, _ := SplitDocuments(data, 1)
		for _, d := range docs {
			compactingSame(t, d.Data)
		}
	})
}

// BenchmarkCompactRealProperties writes, as compact JSON, the property
// values of every YAML document of the catalog $OPM_BENCH_CATALOG names:
// what render does with each (mostly CSV metadata, whose strings are
// prose and embedded JSON).
func BenchmarkCompactRealProperties(b *testing.B) {
	var vals []value.Value
	var n int64
	for _, data := range realYAMLFiles(b) {
		docs, _ := SplitDocuments(data, 1)
		for _, doc := range docs {
			v, err := DecodeDocument(doc.Data, doc.Line)
			if err != nil {
				continue
			}
			props, _ := v.Get("properties")
			if props == nil {
				continue
			}
			for _, item := range props.Items {
				if pv, ok := item.Get("value"); ok {
					vals = append(vals, *pv)
					n += int64(len(value.AppendCompact(nil, pv)))
				}
			}
		}
	}
	b.SetBytes(n)
	var out []byte
	for b.Loop() {
		for i := range vals {
			out = value.AppendCompact(out[:0], &vals[i])
		}
	}
}

// realYAMLFiles reads every YAML file of the catalog $OPM_BENCH_CATALOG
// names, or skips b if it names none.
func realYAMLFiles(b *testing.B) [][]byte {
	dir := os.Getenv("OPM_BENCH_CATALOG")
	if dir == "" {
		b.Skip("OPM_BENCH_CATALOG names no catalog of real data")
	}
	var files [][]byte
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(path) != ".yaml" && filepath.Ext(path) != ".yml") {
			return err
		}
		data, err := os.ReadFile(path)
		files = append(files, data)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return files
}
