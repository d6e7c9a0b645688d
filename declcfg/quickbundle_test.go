package declcfg

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/encoding/value"
)

// withoutQuick decodes every document into a tree, as before quickBundle.
var withoutQuick = WithTrees()

// loadedWith is what loading gives: the catalog, the problems and the
// warnings.
type loadedWith struct {
	cfg      *DeclarativeConfig
	problems string
	warnings []string
}

func loadBothWays(t *testing.T, fsys fstest.MapFS) (quick, tree loadedWith) {
	t.Helper()
	one := func(opts ...LoadOption) loadedWith {
		var warnings []Warning
		var mu sync.Mutex
		opts = append(opts, WithRootName("root"), WithWarnings(func(w Warning) {
			mu.Lock()
			warnings = append(warnings, w)
			mu.Unlock()
		}))
		cfg, errs := load(t, fsys, opts...)
		SortWarnings(warnings)
		var ws []string
		for _, w := range warnings {
			ws = append(ws, w.String())
		}
		return loadedWith{cfg, errs.Error(), ws}
	}
	return one(), one(withoutQuick)
}

// sameQuickLoad fails the test if loading with quickBundle gives anything but
// what loading without it gives.
func sameQuickLoad(t *testing.T, name string, fsys fstest.MapFS) {
	t.Helper()
	quick, tree := loadBothWays(t, fsys)
	if !reflect.DeepEqual(quick.cfg, tree.cfg) {
		t.Fatalf("%s: loaded with quick bundles:\n%+v\nwithout:\n%+v", name, quick.cfg, tree.cfg)
	}
	if quick.problems != tree.problems {
		t.Fatalf("%s: problems with quick bundles:\n%s\nwithout:\n%s", name, quick.problems, tree.problems)
	}
	if !reflect.DeepEqual(quick.warnings, tree.warnings) {
		t.Fatalf("%s: warnings with quick bundles:\n%q\nwithout:\n%q", name, quick.warnings, tree.warnings)
	}
}

// quickCount counts the documents of data quickBundle types, and checks
// that the compact JSON it gives of each is what AppendCompact writes of
// the document's tree.
func quickCount(t testing.TB, data []byte) (quick, docs int) {
	decodeFile(data, nil, &quickDecoder{withDoc: true}, yamlDecoding{}, func(d document) {
		docs++
		if d.quick == nil {
			return
		}
		quick++
		v, err := value.NewJSONParser(data[d.Src.Off:d.Src.End], 1).Next()
		if err != nil {
			t.Fatalf("a bundle quickBundle typed does not parse: %v", err)
		}
		if want := value.AppendCompact(nil, &v); !bytes.Equal(d.compact, want) {
			t.Fatalf("quickBundle's compact JSON:\n%s\nAppendCompact:\n%s", d.compact, want)
		}
	})
	return quick, docs
}

// TestQuickBundleOnRealCatalogs loads every JSON catalog of the test data
// (and of the conformance data, when it is there) with and without
// quickBundle, and checks that most of their bundles were typed by it.
func TestQuickBundleOnRealCatalogs(t *testing.T) {
	patterns := []string{"../testdata/serve/catalog/*/*.json", "../testdata/*.json", "../testdata/bundles.golden*/*.json", "../testdata/templates/*.json"}
	if !testing.Short() {
		patterns = append(patterns, "../../shared/conformance/*.json", "../../shared/conformance/bundles.golden*/*.json")
	}
	// A catalog of real data, as the benchmarks take it (one file per
	// package; see declcfgtest.RealCatalogEnv).
	if dir := os.Getenv("OPM_BENCH_CATALOG"); dir != "" {
		patterns = append(patterns, filepath.Join(dir, "*", "*.json"))
	}
	quick, bundles := 0, 0
	eachFile(t, patterns, func(name string, data []byte) {
		sameQuickLoad(t, name, fstest.MapFS{"catalog.json": {Data: data}})
		q, _ := quickCount(t, data)
		quick += q
		bundles += strings.Count(string(data), `"schema": "olm.bundle"`) // as opm and json.dump write it
	})
	t.Logf("quickBundle typed %d of %d bundles", quick, bundles)
	if bundles == 0 || quick < bundles*9/10 {
		t.Fatalf("quickBundle typed %d of %d bundles of the test data", quick, bundles)
	}
}

// TestCompactedPropertiesOnRealCatalogs loads every YAML catalog of the
// test data (and of the conformance data, when it is there) as render
// does, the values of properties compacted as they are read (see
// fbcyaml.DecodeCompactingProperties), and with every document's tree
// whole, and checks that both give the same catalog, problems and
// warnings.
func TestCompactedPropertiesOnRealCatalogs(t *testing.T) {
	patterns := []string{"../testdata/serve/catalog/*/*.yaml", "../testdata/catalog/*/*.yaml", "../testdata/templates/*.yaml"}
	if !testing.Short() {
		patterns = append(patterns, "../../shared/conformance/*/*.yaml", "../../shared/conformance/*/*/*.yaml")
	}
	if dir := os.Getenv("OPM_BENCH_CATALOG"); dir != "" {
		patterns = append(patterns, filepath.Join(dir, "*", "*.yaml"))
	}
	files := 0
	eachFile(t, patterns, func(name string, data []byte) {
		sameQuickLoad(t, name, fstest.MapFS{"catalog.yaml": {Data: data}})
		files++
	})
	if files == 0 {
		t.Fatal("no YAML catalog in the test data")
	}
}

// eachFile passes every file that matches one of patterns to f, with its
// bytes.
func eachFile(t *testing.T, patterns []string, f func(name string, data []byte)) {
	t.Helper()
	for _, pattern := range patterns {
		names, _ := filepath.Glob(pattern)
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f(name, data)
		}
	}
}

// quickBase is a bundle in canonical form, as opm writes it.
var quickBase = `{
    "schema": "olm.bundle",
    "name": "op.v1.0.0",
    "package": "op",
    "image": "quay.io/org/op-bundle@sha256:abcd",
    "properties": [
        {
            "type": "olm.package",
            "value": {
                "packageName": "op",
                "version": "1.0.0"
            }
        },
        {
            "type": "olm.gvk",
            "value": {
                "group": "x.io",
                "kind": "X",
                "version": "v1"
            }
        },
        {
            "type": "olm.bundle.object",
            "value": {
                "data": "` + base64.StdEncoding.EncodeToString([]byte(`{"kind":"CustomResourceDefinition"}`)) + `"
            }
        },
        {
            "type": "olm.csv.metadata",
            "value": {
                "annotations": {
                    "alm-examples": "[\n  {\n    \"kind\": \"X\"\n  }\n]"
                },
                "capabilities": 3,
                "description": "é < \u0000",
                "keywords": [
                    "a",
                    "b"
                ],
                "nested": [[[{"a": null, "b": true}]]]
            }
        }
    ],
    "relatedImages": [
        {
            "name": "op",
            "image": "quay.io/org/op@sha256:1234"
        },
        {
            "image": "quay.io/org/b@sha256:1234",
            "name": ""
        }
    ]
}
`

// replace is quickBase with old replaced by new, everywhere.
func replace(old, new string) func() string {
	return func() string { return strings.ReplaceAll(quickBase, old, new) }
}

// between is quickBase with what lies between from and to (both kept)
// replaced by with.
func between(from, to, with string) func() string {
	return func() string {
		i := strings.Index(quickBase, from) + len(from)
		j := i + strings.Index(quickBase[i:], to)
		return quickBase[:i] + with + quickBase[j:]
	}
}

// quickEdits change quickBase; taken says whether quickBundle still types
// it. Either way, loading must give what the tree gives.
var quickEdits = []struct {
	name  string
	edit  func() string
	taken bool
}{
	{"as written", replace("", ""), true},
	{"schema last", func() string {
		doc := strings.Replace(quickBase, `"schema": "olm.bundle",`, "", 1)
		return strings.TrimSuffix(doc, "\n}\n") + `, "schema": "olm.bundle"}`
	}, true},
	{"one line", replace("\n", ""), true},
	{"no properties", between(`"image": "quay.io/org/op-bundle@sha256:abcd",`, `"relatedImages"`, "\n"), true},
	{"empty properties", between(`"properties": [`, `],`+"\n"+`    "relatedImages"`, ""), true},
	{"empty related images", between(`"relatedImages": [`, "]\n}", ""), true},
	{"no package", replace(`"package": "op",`, ""), true},
	{"YAML bundle object", replace(base64.StdEncoding.EncodeToString([]byte(`{"kind":"CustomResourceDefinition"}`)), base64.StdEncoding.EncodeToString([]byte("kind: CRD\n"))), true},
	{"unknown field", replace(`"image":`, `"imagе": "x", "image":`), false},
	{"field in other case", replace(`"image":`, `"Image":`), false},
	{"repeated field", replace(`"image":`, `"image": "x", "image":`), false},
	{"two objects run together", replace(`"image":`, `"schema": "olm.bundle", "image":`), false},
	{"escaped name", replace(`"op.v1.0.0"`, `"op.v1\u002e0.0"`), false},
	{"name with a line break", replace(`"op.v1.0.0"`, `"op.v1\n0.0"`), false},
	{"null properties", between(`"properties": `, `,`+"\n"+`    "relatedImages"`, "null"), false},
	{"name not a string", replace(`"op.v1.0.0"`, `7`), false},
	{"property of three keys", replace(`"type": "olm.gvk",`, `"type": "olm.gvk", "extra": 1,`), false},
	{"property without a value", between(`"type": "olm.package"`, `},`+"\n"+`        {`+"\n"+`            "type": "olm.gvk"`, "\n        "), false},
	{"fraction", replace(`"capabilities": 3`, `"capabilities": 3.5`), false},
	{"rounded number", replace(`"capabilities": 3`, `"capabilities": 123456789012345678901`), false},
	{"keys out of order", replace(`"group": "x.io",`, `"zz": {"b": 1, "a": [{"d": 1, "c": 2}]}, "group": "x.io",`), true},
	{"repeated key", replace(`"group": "x.io",`, `"kind": "X", "group": "x.io",`), false},
	{"escape written otherwise", replace(`é <`, `\u00e9 <`), true},
	{"HTML escape", replace(`é <`, `é \u003c`), true},
	{"escaped solidus and upper-case hex", replace(`é <`, `\/ \u00E9 \u2028`), true},
	{"surrogate pair", replace(`é <`, `\ud83d\ude00 <`), true},
	{"lone surrogate half", replace(`é <`, `\ud83d <`), false},
	{"invalid UTF-8", replace(`é <`, "\xe9 \\u00e9"), false},
	{"as json.dump writes it", func() string {
		// Python's json.dump(obj, f, indent=2): two spaces, non-ASCII as
		// \u escapes, <, > and & as they are.
		doc := strings.ReplaceAll(quickBase, "    ", "  ")
		return strings.ReplaceAll(doc, `é <`, `\u00e9 <b>&amp;</b>`)
	}, true},
	{"bad base64", replace(`"data": "`, `"data": "!!`), false},
	{"bundle object of two keys", replace(`"data": "`, `"dat": 1, "data": "`), false},
	{"bundle object data not a string", replace(`"data": "`, `"data": 5, "x": "`), false},
	{"another schema", replace(`"olm.bundle"`, `"olm.bundlf"`), false},
	{"no schema", replace(`"schema": "olm.bundle",`, ""), false},
	{"empty related image", replace(`"relatedImages": [`, `"relatedImages": [{},`), true},
	{"related image of three keys", replace(`"name": "op",`, `"name": "op", "x": "y",`), false},
	{"syntax error", replace(`"relatedImages": [`, `"relatedImages": [,`), false},
	{"truncated", func() string { return quickBase[:len(quickBase)-3] }, false},
}

func TestQuickBundleEdits(t *testing.T) {
	pkg := `{"schema":"olm.package","name":"op"}` + "\n"
	for _, e := range quickEdits {
		doc := e.edit()
		if doc == quickBase && e.name != "as written" {
			t.Fatalf("%s: the edit changes nothing", e.name)
		}
		data := []byte(pkg + doc + pkg)
		if q, _ := quickCount(t, data); (q == 1) != e.taken {
			t.Errorf("%s: quickBundle took %d documents, want taken=%v:\n%s", e.name, q, e.taken, doc)
		}
		sameQuickLoad(t, e.name, fstest.MapFS{"a/catalog.json": {Data: data}})
	}
}

// FuzzQuickBundle checks that loading any JSON file gives the same
// catalog, problems and warnings with quickBundle as without.
func FuzzQuickBundle(f *testing.F) {
	f.Add([]byte(quickBase))
	for _, e := range quickEdits {
		f.Add([]byte(e.edit()))
	}
	f.Add([]byte(fmt.Sprintf("%s\n%s", quickBase, strings.ReplaceAll(quickBase, "\n", ""))))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		sameQuickLoad(t, "fuzzed", fstest.MapFS{"catalog.json": {Data: data}})
		quickCount(t, data)
	})
}
