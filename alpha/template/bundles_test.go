package template

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/template/templatetest"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/render"
)

// Templates render bundle images only, as upstream's do: catalog images,
// catalog directories and bundle directories are refused.
func TestImageBundlesOnly(t *testing.T) {
	imagetest.IsolateAuth(t)
	testdata := filepath.Join("..", "..", "testdata")
	reg := imagetest.Registry(t, "", "")
	imagetest.Push(t, reg+"/catalog:v1", imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.DirLayer(t, filepath.Join(testdata, "catalog"), "configs")))
	templatetest.Push(t, reg+"/widget:v1", filepath.Join(testdata, "templates", "bundle"), templatetest.Spec{Package: "widget", Version: "1.0.0"})

	br := ImageBundles(render.Renderer{})
	b, err := br.RenderBundle(t.Context(), reg+"/widget:v1")
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "widget.v1.0.0" || b.Image != reg+"/widget:v1" || len(b.CSV) == 0 {
		t.Errorf("bundle %q image %q, CSV %d bytes", b.Name, b.Image, len(b.CSV))
	}
	for ref, want := range map[string]string{
		reg + "/catalog:v1":                            "cannot render catalog image: not allowed: templates can reference bundle images only",
		filepath.Join(testdata, "catalog"):             "not allowed: templates can reference bundle images only",
		filepath.Join(testdata, "templates", "bundle"): "not allowed: templates can reference bundle images only",
	} {
		if _, err := br.RenderBundle(t.Context(), ref); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", ref, err, want)
		}
	}
}

// Migrations apply to every bundle, and the CSV is kept for the semver
// template's package description.
func TestImageBundlesMigrate(t *testing.T) {
	imagetest.IsolateAuth(t)
	reg := imagetest.Registry(t, "", "")
	templatetest.Push(t, reg+"/widget:v1", filepath.Join("..", "..", "testdata", "templates", "bundle"), templatetest.Spec{Package: "widget", Version: "1.0.0"})
	migrations, err := render.MigrationsFor("bundle-object-to-csv-metadata")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ImageBundles(render.Renderer{Migrations: migrations}).RenderBundle(t.Context(), reg+"/widget:v1")
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, p := range b.Properties {
		types = append(types, p.Type)
	}
	if got := strings.Join(types, " "); strings.Contains(got, "olm.bundle.object") || !strings.Contains(got, "olm.csv.metadata") || len(b.CSV) == 0 {
		t.Errorf("properties %s, CSV %d bytes", got, len(b.CSV))
	}
}
