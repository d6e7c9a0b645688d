package validate

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// outcome is what a validation reports, as text.
func outcome(t *testing.T, fsys fs.FS, trees bool) string {
	t.Helper()
	res, err := Validate(context.Background(), fsys, Options{Concurrency: 1, trees: trees})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d objects, graph checked %v\nproblems: %v\nwarnings: %v", res.Objects, res.GraphChecked, res.Problems, res.Warnings)
}

// sameWithTrees fails the test unless validating files gives the same
// problems and warnings whether bundles whose shape passed before are
// taken from their bytes (schemas.quick) or decoded into trees.
func sameWithTrees(t *testing.T, name string, files map[string][]byte) {
	t.Helper()
	fsys, err := declcfg.NewMemFS(files)
	if err != nil {
		t.Fatal(err)
	}
	if quick, trees := outcome(t, fsys, false), outcome(t, fsys, true); quick != trees {
		t.Errorf("%s: taking known bundles from their bytes:\n%s\ndecoding every one:\n%s", name, quick, trees)
	}
}

// TestQuickCheckSameAsTrees: a bundle whose shape passed before (here,
// package pre's copy of each bundle of foo, in the same file) is not
// decoded into a tree; a broken bundle of that shape, or of one close to
// it, is reported as it is without the quick check.
func TestQuickCheckSameAsTrees(t *testing.T) {
	pre := strings.ReplaceAll(goodPackage, "foo", "pre")
	edits := [][2]string{
		{},
		{`"value":{"group":"x.io","kind":"Foo","version":"v1"}`, `"value":null`},
		{`"value":{"group":"x.io","kind":"Foo","version":"v1"}`, `"value":{"group":"x.io","kind":"","version":"v1"}`},
		{`"value":{"group":"x.io","kind":"Foo","version":"v1"}`, `"value":{"group":"x.io","kind":"Foo","version":1}`},
		{`"value":{"group":"x.io","kind":"Foo","version":"v1"}`, `"Value":{"group":"x.io","kind":"Foo","version":"v1"}`},
		{`{"type":"olm.gvk",`, `{"type":"olm.gvk","TYPE":"olm.package",`},
		{`"supported":true`, `"supported":"yes"`},
		{`"supported":true`, `"supported":false`},
		{`"displayName":"Foo"`, `"displayName":""`},
		{`"image":"quay.io/x/foo:0.1.0"`, `"image":"Quay.io/X/foo"`},
		{`"image":"quay.io/x/foo:0.1.0"`, `"image":""`},
		{`"version":"0.1.0"`, `"version":"v0.1"`},
		{`"name":"op","image"`, `"image"`},
		{`"name":"op","image"`, `"name":"","image"`},
		{`"relatedImages":[{`, `"relatedImages":[{"name":"x","image":null},{`},
		{`"x-descriptors":["urn:x"]`, `"x-descriptors":["urn:x",""]`},
		{`"path":"size"`, `"path":"size","value":null`},
	}
	for _, e := range edits {
		foo := goodPackage
		if e[0] != "" {
			if !strings.Contains(foo, e[0]) {
				t.Fatalf("test broken: %q not found", e[0])
			}
			foo = strings.Replace(foo, e[0], e[1], 1)
		}
		sameWithTrees(t, e[1], map[string][]byte{"foo/index.json": []byte(pre + foo)})
	}
}

// TestQuickCheckSameOnRealCatalogs compares on the JSON catalogs of the
// test data, each twice in one file, and on $OPM_BENCH_CATALOG.
func TestQuickCheckSameOnRealCatalogs(t *testing.T) {
	for name, data := range jsonTestData(t) {
		sameWithTrees(t, name, map[string][]byte{"a/catalog.json": data, "b/catalog.json": data})
	}
	dir := os.Getenv(declcfgtest.RealCatalogEnv)
	if dir == "" || testing.Short() {
		return
	}
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sameWithTrees(t, dir, files)
}
