package template

import (
	"context"
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

// Every reference that fails is reported by reference, each distinct one
// rendered once; when the context has ended, references left out fail
// with its error instead of going missing.
func TestRenderImagesReportsEveryFailure(t *testing.T) {
	fake := fakeBundles{"quay.io/example/a:v1": bundle("a", "1.0.0"), "quay.io/example/b:v1": bundle("b", "1.0.0")}
	refs := []string{"quay.io/example/a:v1", "quay.io/example/x:v1", "quay.io/example/b:v1", "quay.io/example/y:v1", "quay.io/example/x:v1"}
	got, failed := renderImages(t.Context(), fake, refs)
	if len(got) != 2 || got["quay.io/example/a:v1"] == nil || got["quay.io/example/b:v1"] == nil {
		t.Errorf("rendered %v", got)
	}
	if len(failed) != 2 || failed["quay.io/example/x:v1"] == nil || failed["quay.io/example/y:v1"] == nil {
		t.Errorf("failed %v", failed)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	got, failed = renderImages(ctx, fake, refs)
	if len(got)+len(failed) != 4 {
		t.Errorf("cancelled: %d rendered and %d failed of 4 references", len(got), len(failed))
	}
	for ref, err := range failed {
		if !strings.Contains(err.Error(), ref) {
			t.Errorf("%s: error %v does not name it", ref, err)
		}
	}
}
