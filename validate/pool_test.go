package validate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// problemsOf validates files and returns its problems as text.
func problemsOf(t *testing.T, files map[string]string, opts Options) string {
	t.Helper()
	data := map[string][]byte{}
	for name, text := range files {
		data[name] = []byte(text)
	}
	fsys, err := declcfg.NewMemFS(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Validate(context.Background(), fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(res.Problems)
}

// TestSchemaPoolSameProblems: validations sharing a pool, one after
// another and side by side, of valid catalogs and of broken ones, find
// what validations without one find; the pool keeps what they compiled,
// no more than ran at once.
func TestSchemaPoolSameProblems(t *testing.T) {
	catalogs := []map[string]string{
		{"foo/index.json": goodPackage},
		{"foo/index.json": strings.Replace(goodPackage, `"name":"foo","defaultChannel"`, `"name":"Foo_Bar","defaultChannel"`, 1)},
		{"foo/index.json": strings.Replace(goodPackage, `"image":"quay.io/x/foo:0.1.0"`, `"image":"Quay.io/X/foo"`, 1), "bar/index.json": goodPackage},
	}
	dirs, _ := os.ReadDir("../testdata/catalog")
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join("../testdata/catalog", d.Name(), "catalog.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		catalogs = append(catalogs, map[string]string{d.Name() + "/catalog.yaml": string(data)})
	}
	want := make([]string, len(catalogs))
	for i, c := range catalogs {
		want[i] = problemsOf(t, c, Options{})
	}
	pool := NewSchemaPool()
	var wg sync.WaitGroup
	for round := range 3 {
		for i, c := range catalogs {
			wg.Go(func() {
				if got := problemsOf(t, c, Options{Pool: pool, Concurrency: 2}); got != want[i] {
					t.Errorf("round %d, catalog %d: with a pool %s, without %s", round, i, got, want[i])
				}
			})
		}
		wg.Wait()
	}
	if n := len(pool.free); n == 0 || n > 2*len(catalogs) {
		t.Errorf("the pool keeps %d schemas", n)
	}
	kept := len(pool.free)
	for i, c := range catalogs {
		if got := problemsOf(t, c, Options{Pool: pool, Concurrency: 1}); got != want[i] {
			t.Errorf("catalog %d, one at a time: with a pool %s, without %s", i, got, want[i])
		}
	}
	if len(pool.free) != kept {
		t.Errorf("validating one at a time compiled more: the pool keeps %d schemas, not %d", len(pool.free), kept)
	}
}

// TestSchemaPoolKeepsOneUsersSchemas: a validation with other user
// schemas than the pool's compiles its own and checks by them.
func TestSchemaPoolKeepsOneUsersSchemas(t *testing.T) {
	dir := t.TempDir()
	schema := "package custom\n\n#Widget: {\n\tschema: \"example.com.widget\"\n\tname!: string & =~\"^[a-z]+$\"\n\t...\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "widget.cue"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	user, err := LoadUserSchemas([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"foo/index.json": goodPackage, "w.yaml": "schema: example.com.widget\nname: Bad-Name\n"}
	pool := NewSchemaPool()
	if got := problemsOf(t, files, Options{Pool: pool}); strings.Contains(got, "w.yaml") {
		t.Errorf("without the user's schemas: %s", got)
	}
	if got := problemsOf(t, files, Options{Pool: pool, Schemas: user}); !strings.Contains(got, "w.yaml:2") {
		t.Errorf("with the user's schemas, after a validation without them: %s", got)
	}
	if got := problemsOf(t, files, Options{Pool: pool}); strings.Contains(got, "w.yaml") {
		t.Errorf("without the user's schemas again: %s", got)
	}
}
