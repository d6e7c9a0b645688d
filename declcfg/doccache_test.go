package declcfg_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// bundleDoc is a YAML bundle document; extra is appended to its fields.
func bundleDoc(name, extra string) string {
	return fmt.Sprintf(`---
image: quay.io/example/%[1]s:v1
name: %[1]s
package: pkg
properties:
- type: olm.package
  value:
    packageName: pkg
    version: 1.0.0
- type: olm.bundle.object
  value:
    data: eyJraW5kIjoiQ29uZmlnTWFwIn0=
relatedImages:
- image: quay.io/example/%[1]s:v1
  name: ""
schema: olm.bundle
%[2]s`, name, extra)
}

// cacheLoad is what loading one file gave.
type cacheLoad struct {
	cfg      *declcfg.DeclarativeConfig
	err      error
	warnings []declcfg.Warning
}

// loadFiles loads each file on its own, all at once, sharing cache (nil:
// none).
func loadFiles(t *testing.T, files []string, cache *declcfg.DocumentCache) []cacheLoad {
	t.Helper()
	out := make([]cacheLoad, len(files))
	var wg sync.WaitGroup
	for i, text := range files {
		wg.Go(func() {
			fsys, err := declcfg.NewMemFS(map[string][]byte{fmt.Sprintf("c%d/catalog.yaml", i): []byte(text)})
			if err != nil {
				t.Error(err)
				return
			}
			var mu sync.Mutex
			opts := []declcfg.LoadOption{
				declcfg.WithObjectCheck(func() declcfg.ObjectCheck {
					return func(obj *declcfg.Object) []*declcfg.Error {
						if strings.HasPrefix(obj.Name, "bad") {
							return []*declcfg.Error{{Line: obj.Pos.Line, Message: "bad name"}}
						}
						return nil
					}
				}),
				declcfg.WithWarnings(func(w declcfg.Warning) {
					mu.Lock()
					defer mu.Unlock()
					out[i].warnings = append(out[i].warnings, w)
				}),
			}
			if cache != nil {
				opts = append(opts, declcfg.WithDocumentCache(cache))
			}
			out[i].cfg, out[i].err = declcfg.LoadFS(context.Background(), fsys, opts...)
		})
	}
	wg.Wait()
	return out
}

// TestDocumentCache loads catalogs that share documents at different
// lines, with and without a cache: every catalog, position, problem and
// warning must be the same, and the bundles of shared documents must
// share their property values.
func TestDocumentCache(t *testing.T) {
	pkg := "---\nname: pkg\nschema: olm.package\n"
	a, b, c := bundleDoc("a", ""), bundleDoc("b", ""), bundleDoc("c", "")
	unknown := bundleDoc("u", "surprise: true\n") // a warning each time
	bad := bundleDoc("bad", "")                   // a problem each time
	files := []string{
		pkg + a + b + unknown + bad,
		"# a comment moves every line\n\n" + pkg + b + a + c + bad + unknown,
		pkg + c + unknown + a,
		pkg + a + b + c,
	}
	want := loadFiles(t, files, nil)
	for round := range 3 {
		cache := declcfg.NewDocumentCache()
		got := loadFiles(t, files, cache)
		for i := range files {
			if !reflect.DeepEqual(got[i].cfg, want[i].cfg) {
				t.Errorf("round %d, file %d: loaded with the cache:\n%+v\nwithout:\n%+v", round, i, got[i].cfg, want[i].cfg)
			}
			if fmt.Sprint(got[i].err) != fmt.Sprint(want[i].err) {
				t.Errorf("round %d, file %d: problems with the cache: %v; without: %v", round, i, got[i].err, want[i].err)
			}
			if len(got[i].warnings) != len(want[i].warnings) || len(want[i].warnings) == 0 && strings.Contains(files[i], "surprise") {
				t.Errorf("round %d, file %d: %d warnings with the cache, %d without", round, i, len(got[i].warnings), len(want[i].warnings))
			}
		}
		if want[0].err == nil || !strings.Contains(want[1].err.Error(), "bad name") {
			t.Fatalf("the object check found nothing: %v", want[1].err)
		}
		// Bundle a of file 0 and of file 3: one decoding.
		pa, pb := want[0].cfg.Bundles[0].Properties[1].Value, got[0].cfg.Bundles[0].Properties[1].Value
		qa, qb := want[3].cfg.Bundles[0].Properties[1].Value, got[3].cfg.Bundles[0].Properties[1].Value
		if &pa[0] == &qa[0] || &pb[0] != &qb[0] {
			t.Errorf("round %d: the same document loaded twice shares its values only with the cache", round)
		}
	}
}
