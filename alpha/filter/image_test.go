package filter_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/fbcat/opm/alpha/filter"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/render"
)

// TestRunCatalogImage filters a catalog image pulled from a registry on
// 127.0.0.1: the result is what filtering its directory gives.
func TestRunCatalogImage(t *testing.T) {
	imagetest.IsolateAuth(t)
	ref := imagetest.Registry(t, "", "") + "/catalog:v1"
	imagetest.Push(t, ref, imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.DirLayer(t, testCatalog, "configs")))
	f := config(t, "    packages:\n    - name: widget\n      channels:\n      - name: stable\n        minVersion: 1.1.0\n    - name: clusterpulse\n")
	sel := func(string) (*filter.Filter, error) { return &f, nil }
	r := &render.Renderer{Images: image.Options{TempDir: t.TempDir()}}
	fromImage, err := filter.Run(context.Background(), r, []string{ref}, sel)
	if err != nil {
		t.Fatal(err)
	}
	fromDir, err := filter.Run(context.Background(), r, []string{testCatalog}, sel)
	if err != nil {
		t.Fatal(err)
	}
	out := write(t, fromImage)
	if !bytes.Equal(out, write(t, fromDir)) {
		t.Error("the filtered image differs from the filtered directory")
	}
	if len(fromImage.Bundles) != 4+2 {
		t.Errorf("%d bundles kept, want 6", len(fromImage.Bundles))
	}
	mustBeValid(t, out)

	if _, err := filter.Run(context.Background(), r, []string{imagetest.Registry(t, "", "") + "/missing:v1"}, sel); err == nil {
		t.Error("a missing image: no error")
	}
}
