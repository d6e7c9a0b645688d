package olmv1

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/render"
)

func TestResolveBundleFromCatalog(t *testing.T) {
	ctx := context.Background()
	b, err := ResolveBundle(ctx, render.Renderer{}, "testdata/catalog", InstallOptions{Selection: Selection{Package: "ack-ecrpublic-controller"}})
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "ack-ecrpublic-controller.v1.0.14" || !b.HasManifests() {
		t.Errorf("bundle %s, manifests %v", b.Name, b.HasManifests())
	}
	var u *UnsupportedError
	_, err = ResolveBundle(ctx, render.Renderer{}, "testdata/catalog", InstallOptions{Selection: Selection{Package: "pelorus-operator"}})
	if !errors.As(err, &u) || u.Bundle != "pelorus-operator.v0.0.2" {
		t.Errorf("pelorus: %v", err)
	}
	// The checks come from the install options.
	candidate := Selection{Package: "service-binding-operator", Channels: []string{"candidate"}}
	if b, err := ResolveBundle(ctx, render.Renderer{}, "testdata/catalog", InstallOptions{Selection: candidate}); err != nil || b.Name != "service-binding-operator.v1.0.1" {
		t.Errorf("service-binding-operator: %v", err)
	}
	_, err = ResolveBundle(ctx, render.Renderer{}, "testdata/catalog", InstallOptions{Selection: candidate, NoWebhooks: true})
	if !errors.As(err, &u) || u.Bundle != "service-binding-operator.v1.0.1" {
		t.Errorf("service-binding-operator with NoWebhooks: %v", err)
	}
	if _, err := ResolveBundle(ctx, render.Renderer{}, "testdata/catalog", InstallOptions{Selection: Selection{Package: "nope"}}); err == nil || !strings.Contains(err.Error(), `no package "nope"`) {
		t.Errorf("unknown package: %v", err)
	}
	if _, err := ResolveBundle(ctx, render.Renderer{}, "testdata/no-such-catalog", InstallOptions{Selection: Selection{Package: "nope"}}); err == nil {
		t.Error("a missing catalog resolved")
	}
}

// A catalog that keeps only a bundle's olm.csv.metadata: the bundle is
// pulled from its image, or the error says why it must be.
func TestResolveBundlePulls(t *testing.T) {
	imagetest.IsolateAuth(t)
	reg := imagetest.Registry(t, "", "")
	dir := "../testdata/bundles/ack-ecrpublic-controller_1.0.14"
	imagetest.Push(t, reg+"/ack:v1", imagetest.Image(t, map[string]string{labels.Package: "ack-ecrpublic-controller"}, nil, imagetest.DirLayer(t, dir, "")))
	catalog := migratedCatalog(t, reg+"/ack:v1")
	r := render.Renderer{Images: image.Options{Insecure: true, TempDir: t.TempDir()}}
	ctx := context.Background()
	sel := InstallOptions{Selection: Selection{Package: "ack-ecrpublic-controller"}}
	b, err := ResolveBundle(ctx, r, catalog, sel)
	if err != nil {
		t.Fatal(err)
	}
	if b.Image != reg+"/ack:v1" || !b.HasManifests() {
		t.Errorf("pulled bundle %s from %s, manifests %v", b.Name, b.Image, b.HasManifests())
	}
	os.RemoveAll(catalog)
	catalog = migratedCatalog(t, reg+"/missing:v1")
	_, err = ResolveBundle(ctx, r, catalog, sel)
	if err == nil || !strings.Contains(err.Error(), "the catalog carries only its olm.csv.metadata, so its manifests must be read from its image "+reg+"/missing:v1") {
		t.Errorf("missing image: %v", err)
	}
}

// migratedCatalog writes a catalog of the ack-ecrpublic-controller
// package whose bundle, of image ref, keeps only its olm.csv.metadata.
func migratedCatalog(t *testing.T, ref string) string {
	t.Helper()
	src := "testdata/catalog/ack-ecrpublic-controller"
	cfg, err := declcfg.LoadFS(context.Background(), os.DirFS(src))
	if err != nil || len(cfg.Bundles) != 1 {
		t.Fatalf("loading %s: %v", src, err)
	}
	ms, err := render.MigrationsFor("bundle-object-to-csv-metadata")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Bundles[0].Image = ref
	if err := ms.Run(&cfg.Bundles[0]); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := declcfg.Write(cfg, &buf, declcfg.FormatYAML); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "catalog.yaml"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestOptionsConstructors(t *testing.T) {
	in := InstallOptions{Namespace: "ops", WatchNamespace: "team", NoWebhooks: true, ServiceAccount: "sa"}
	ro := in.ManifestOptions()
	if ro != (ManifestOptions{InstallNamespace: "ops", WatchNamespace: "team", NoWebhooks: true}) {
		t.Errorf("manifest options %+v", ro)
	}
	if c := ro.Checks(); c != (CheckOptions{NoWebhooks: true, SingleOwnNamespace: true}) {
		t.Errorf("checks %+v", c)
	}
	if c := (ManifestOptions{InstallNamespace: "ops"}).Checks(); c != (CheckOptions{}) {
		t.Errorf("checks of an AllNamespaces install %+v", c)
	}
}
