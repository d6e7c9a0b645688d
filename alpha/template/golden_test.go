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
	"github.com/fbcat/opm/internal/image/imagetest"
	"github.com/fbcat/opm/render"
)

// The goldens in testdata/templates are upstream opm's output for the
// same templates and bundle images (see the README there); the templates
// must render to exactly those bytes.
func TestGoldens(t *testing.T) {
	imagetest.IsolateAuth(t)
	testdata := filepath.Join("..", "..", "testdata")
	dir := filepath.Join(testdata, "templates")
	prefix := templatetest.PushAll(t, testdata, imagetest.Registry(t, "", ""))
	cases := []struct {
		name, level, suffix string
	}{
		{name: "semver"},
		{name: "semver-community"},
		{name: "semver-minor"},
		{name: "semver-minor", level: "bundle-object-to-csv-metadata", suffix: ".csvmeta"},
		{name: "semver-prerelease"},
		{name: "basic"},
		{name: "basic", level: "bundle-object-to-csv-metadata", suffix: ".csvmeta"},
		{name: "substitutes"},
		{name: "substitutes-legacy"},
	}
	for _, c := range cases {
		t.Run(c.name+c.suffix, func(t *testing.T) {
			t.Parallel()
			in := Input{Name: c.name + ".yaml", Data: []byte(strings.ReplaceAll(readFile(t, filepath.Join(dir, c.name+".yaml")), "$REGISTRY", prefix))}
			kind, err := Detect(in)
			if err != nil {
				t.Fatal(err)
			}
			migrations, err := render.MigrationsFor(c.level)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := Render(context.Background(), kind, in, ImageBundles(render.Renderer{Migrations: migrations}))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []declcfg.Format{declcfg.FormatJSON, declcfg.FormatYAML} {
				var buf bytes.Buffer
				if err := declcfg.Write(cfg, &buf, f); err != nil {
					t.Fatal(err)
				}
				got := strings.ReplaceAll(buf.String(), prefix, "$REGISTRY")
				compareGolden(t, filepath.Join(dir, c.name+c.suffix+".golden"+f.Ext()), got)
			}
		})
	}
}

func TestConvertGoldens(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "templates")
	in := Input{Name: "catalog.yaml", Data: []byte(readFile(t, filepath.Join(dir, "catalog.yaml")))}
	for _, k := range []Kind{Basic, Substitutes} {
		for _, f := range []declcfg.Format{declcfg.FormatJSON, declcfg.FormatYAML} {
			out, err := Convert(context.Background(), k, in, f)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join(dir, "catalog."+string(k)+".golden"+f.Ext()), string(out))
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
