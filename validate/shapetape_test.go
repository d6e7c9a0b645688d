package validate

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fbcat/opm/encoding/value"
)

// exactSchema is fbc.cue with a bundle's related images checked in full
// (a disjunction of lists), so that shapes hash their positions exactly.
func exactSchema(t testing.TB) *catalogSchema {
	t.Helper()
	const from = "relatedImages?: [...#RelatedImage]"
	src := string(fbcSource)
	if !strings.Contains(src, from) {
		t.Fatalf("fbc.cue has no %q", from)
	}
	cs, err := newCatalogSchema([]byte(strings.Replace(src, from, from+" | [...string]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// tapeSchemas are the built-in schemas and two variants (values
// observed, positions exact), compiled once for the tests of this file.
var tapeSchemas = sync.OnceValues(func() ([]*schemas, error) {
	var t testing.T
	var out []*schemas
	for _, cs := range []func() (*catalogSchema, error){builtin,
		func() (*catalogSchema, error) { return valueSchema(&t), nil },
		func() (*catalogSchema, error) { return exactSchema(&t), nil }} {
		c, err := cs()
		if err != nil {
			return nil, err
		}
		s, err := compileWith(c, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
})

// sameTapeKeys fails the test unless every definition's converter gives
// the tree of data and the Tape of its compact JSON the same key.
func sameTapeKeys(t *testing.T, data []byte) {
	t.Helper()
	v, err := value.ParseJSON(data)
	if err != nil || v.Kind != value.Object {
		return
	}
	ss, err := tapeSchemas()
	if err != nil {
		t.Fatal(err)
	}
	compact := value.AppendCompact(nil, &v)
	var tp value.Tape
	if !tp.Parse(compact) {
		t.Fatalf("Tape refuses %s", compact)
	}
	for _, s := range ss {
		defs := map[string]*definition{"": s.meta}
		for schema, def := range s.builtin {
			defs[schema] = def
		}
		for schema, def := range defs {
			kind := kindFor(schema)
			want, _ := def.conv.prepare(&v, kind)
			got, ok := def.conv.tapeKey(&tp, kind)
			if !ok || got != want {
				t.Fatalf("%s as %q: tapeKey %x, %v; prepare %x", compact, schema, got, ok, want)
			}
		}
	}
}

// jsonTestData is the contents of the JSON catalogs of the test data,
// by file name.
func jsonTestData(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, pattern := range []string{"../testdata/bundles.golden*/*.json", "../testdata/serve/catalog/*/*.json"} {
		names, _ := filepath.Glob(pattern)
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			files[name] = data
		}
	}
	if len(files) == 0 {
		t.Fatal("no test data")
	}
	return files
}

func TestTapeKeyOnTestData(t *testing.T) {
	for _, data := range jsonTestData(t) {
		p := value.NewJSONParser(data, 1)
		for !p.AtEOF() {
			start := p.Offset()
			if _, err := p.Next(); err != nil {
				break
			}
			sameTapeKeys(t, data[start:p.Offset()])
		}
	}
}

// FuzzTapeKey checks that the key of any blob read through a Tape is the
// one its tree gives, whatever definition and kind.
func FuzzTapeKey(f *testing.F) {
	for _, s := range []string{
		`{"schema":"olm.bundle","name":"a","package":"p","image":"","properties":[{"type":"olm.gvk","value":{"group":"g.io","kind":"K","version":"v1"}},{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}},{"TYPE":"olm.csv.metadata","Value":{"crdDescriptions":{"owned":[{"name":"","specDescriptors":[{"path":"x","value":null}]}]},"keywords":["a",""],"installModes":[{"type":"OwnNamespace","supported":true}]}}],"relatedImages":[{"name":"a","image":"b"},{},"x"]}`,
		`{"schema":"olm.channel","name":"c","package":"p","entries":[{"name":"a","replaces":"b","skips":["x",""],"skipRange":"<1.0.0"}],"Name":"d"}`,
		`{"schema":"olm.package","name":"p","defaultChannel":null,"icon":{"base64data":"","mediatype":"image/svg+xml"},"properties":[{"type":"olm.maxOpenShiftVersion","value":4.16},{"type":"x","value":null}]}`,
		`{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.bundle","name":"a"},"message":"m"},{"reference":{"schema":"olm.package"},"message":""}]}`,
		`{"schema":"example.com.x","name":1.5e300,"package":[-0,0,1e-320],"x":{"\u00e9":"\ud83d\ude00"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		sameTapeKeys(t, data)
	})
}
