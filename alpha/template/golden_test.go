package template

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/template/templatetest"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/render"
)

// The goldens in testdata/templates are upstream opm's output for the
// templates there and the bundle images of images.txt (except where a
// template's comment says why not; see the README there). Every template
// NAME.yaml or NAME.json must render to exactly NAME.golden.json and
// NAME.golden.yaml and, where NAME.csvmeta.golden.* exist, with the
// bundle-object-to-csv-metadata migration to those.
func TestGoldens(t *testing.T) {
	imagetest.IsolateAuth(t)
	testdata := filepath.Join("..", "..", "testdata")
	prefix := templatetest.PushAll(t, testdata, imagetest.Registry(t, "", ""))
	templates := templatetest.Templates(t, filepath.Join(testdata, "templates"))
	if len(templates) == 0 {
		t.Fatal("no templates in testdata/templates")
	}
	for _, file := range templates {
		name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		levels := map[string]string{"": ""}
		if _, err := os.Stat(strings.TrimSuffix(file, filepath.Ext(file)) + ".csvmeta.golden.json"); err == nil {
			levels[".csvmeta"] = "bundle-object-to-csv-metadata"
		}
		for suffix, level := range levels {
			t.Run(name+suffix, func(t *testing.T) {
				t.Parallel()
				in := Input{Name: filepath.Base(file), Data: []byte(strings.ReplaceAll(readFile(t, file), "$REGISTRY", prefix))}
				kind, err := Detect(in)
				if err != nil {
					t.Fatal(err)
				}
				migrations, err := render.MigrationsFor(level)
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := Expand(context.Background(), kind, in, ImageBundles(render.Renderer{Migrations: migrations}))
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range []declcfg.Format{declcfg.FormatJSON, declcfg.FormatYAML} {
					var buf bytes.Buffer
					if err := declcfg.Write(cfg, &buf, f); err != nil {
						t.Fatal(err)
					}
					got := strings.ReplaceAll(buf.String(), prefix, "$REGISTRY")
					compareGolden(t, strings.TrimSuffix(file, filepath.Ext(file))+suffix+".golden"+f.Ext(), got)
				}
			})
		}
	}
}

func TestConvertGoldens(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "templates", "convert")
	in := Input{Name: "catalog.yaml", Data: []byte(readFile(t, filepath.Join(dir, "catalog.yaml")))}
	for _, k := range []Kind{Basic, Substitutes} {
		for _, f := range []declcfg.Format{declcfg.FormatJSON, declcfg.FormatYAML} {
			out, err := Convert(context.Background(), k, in, f)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join(dir, string(k)+".golden"+f.Ext()), string(out))
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func compareGolden(t *testing.T, golden, got string) {
	t.Helper()
	want := readFile(t, golden)
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("%s: line %d differs:\n got: %.200s\nwant: %.200s", golden, i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("%s: got %d lines, want %d", golden, len(gl), len(wl))
}
