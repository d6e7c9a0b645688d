package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

// renderJSON renders the references with r and returns the JSON stream.
func renderJSON(t *testing.T, r *Renderer, refs ...string) ([]byte, error) {
	t.Helper()
	w := declcfg.NewOrderedWriter(declcfg.FormatJSON)
	defer w.Close()
	if err := r.RenderTo(context.Background(), w, refs...); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if _, err := w.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), nil
}

func mustRender(t *testing.T, r *Renderer, refs ...string) []byte {
	t.Helper()
	out, err := renderJSON(t, r, refs...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// bundleImage makes a bundle image of a bundle directory: manifests/ and
// metadata/ at the root, and the package label.
func bundleImage(t *testing.T, dir string) v1.Image {
	return imagetest.Image(t, map[string]string{labels.Package: "any", labels.MediaType: "registry+v1"}, nil,
		imagetest.DirLayer(t, filepath.Join(dir, "manifests"), "manifests"),
		imagetest.DirLayer(t, filepath.Join(dir, "metadata"), "metadata"))
}

// TestRenderImages checks that rendering an image gives what rendering
// its directory gives, with the bundle's image set to the reference.
func TestRenderImages(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	catalogRef := host + "/catalog:v1"
	imagetest.Push(t, catalogRef, imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.Layer(t, imagetest.Entry{Name: "bin/opm", Body: "not extracted"}),
		imagetest.DirLayer(t, "../testdata/catalog", "configs")))
	bundleDirs, _ := filepath.Glob("../testdata/bundles/*")
	if len(bundleDirs) == 0 {
		t.Fatal("no bundles in ../testdata/bundles")
	}

	tmp := t.TempDir()
	r := &Renderer{Images: image.Options{TempDir: tmp}}
	golden, _ := os.ReadFile("../testdata/catalog.golden.json")
	if got := mustRender(t, r, catalogRef); !bytes.Equal(got, golden) {
		t.Errorf("catalog image render differs from the directory's golden")
	}

	for _, dir := range bundleDirs {
		ref := host + "/bundles/" + strings.ToLower(strings.ReplaceAll(filepath.Base(dir), "_", "-")) + ":v1"
		imagetest.Push(t, ref, bundleImage(t, dir))
		for _, level := range []string{"none", AllMigrations} {
			migrations, err := MigrationsFor(level)
			if err != nil {
				t.Fatal(err)
			}
			fromImage := mustRender(t, &Renderer{Migrations: migrations, Images: image.Options{TempDir: tmp}}, ref)
			asRef := template.Must(template.New("").Parse(ref))
			fromDir := mustRender(t, &Renderer{Migrations: migrations, ImageRefTemplate: asRef}, dir)
			if !bytes.Equal(fromImage, fromDir) {
				t.Errorf("%s (migrations %s): image render differs from the directory render with the image set:\n%s\n---\n%s", dir, level, fromImage, fromDir)
			}
			if level == AllMigrations && !bytes.Contains(fromImage, []byte(`"olm.csv.metadata"`)) {
				t.Errorf("%s: migrated bundle image render has no olm.csv.metadata", dir)
			}
		}
	}

	// Several references of every kind, in order.
	mixed := mustRender(t, r, bundleDirs[0], catalogRef, "../testdata/catalog")
	if !bytes.Contains(mixed, golden[:100]) || bytes.Count(mixed, []byte(`"schema": "olm.package"`)) != 2*bytes.Count(golden, []byte(`"schema": "olm.package"`)) {
		t.Error("mixed render lacks the catalog twice")
	}

	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("extracted images were left behind: %v", entries)
	}
}

func TestRenderImageErrors(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	push := func(repo string, labels map[string]string, layers ...v1.Layer) string {
		ref := host + "/" + repo + ":1"
		imagetest.Push(t, ref, imagetest.Image(t, labels, nil, layers...))
		return ref
	}
	catalog := push("catalog", map[string]string{labels.Configs: "/configs"}, imagetest.DirLayer(t, "../testdata/catalog", "configs"))
	bundle := push("bundle", map[string]string{labels.Package: "x"}, imagetest.DirLayer(t, "../testdata/bundles/pelorus-operator_0.0.2", ""))
	wrongLabel := push("wronglabel", map[string]string{labels.Configs: "/catalog"}, imagetest.DirLayer(t, "../testdata/catalog", "configs"))
	emptyBundle := push("emptybundle", map[string]string{labels.Package: "x"}, imagetest.Layer(t, imagetest.Entry{Name: "README", Body: "x"}))
	broken := push("broken", map[string]string{labels.Configs: "/configs"}, imagetest.Layer(t, imagetest.Entry{Name: "configs/foo/catalog.json", Body: `{"schema":"olm.package","name":`}))
	hostile := push("hostile", map[string]string{labels.Configs: "/configs"}, imagetest.Layer(t, imagetest.Entry{Name: "configs/passwd", Type: '2', Linkname: "/etc/passwd"}))
	sqlite := push("sqlite", map[string]string{labels.Database: "/database/index.db"})

	tmp := t.TempDir()
	tests := []struct {
		name    string
		allowed Kind
		ref     string
		want    string
	}{
		{"bundle image not allowed", CatalogDir | CatalogImage, bundle, "cannot render bundle image: not allowed"},
		{"catalog image not allowed", BundleImage, catalog, "cannot render catalog image: not allowed"},
		{"label names a missing directory", 0, wrongLabel, `names a directory the image does not have`},
		{"bundle image without manifests", 0, emptyBundle, "cannot read the manifests directory"},
		{"broken catalog", 0, broken, host + "/broken:1/configs/foo/catalog.json"},
		{"hostile layer", 0, hostile, `layer entry "configs/passwd" refused`},
		{"sqlite index", 0, sqlite, "sqlite-based index images are no longer supported"},
		{"missing image", 0, host + "/nothing:1", "image not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Renderer{Allowed: tt.allowed, Images: image.Options{TempDir: tmp}}
			_, err := renderJSON(t, r, tt.ref)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.ref) {
				t.Fatalf("error %v, want one naming %s and containing %q", err, tt.ref, tt.want)
			}
			if strings.HasSuffix(tt.want, "not allowed") && !errors.Is(err, ErrNotAllowed) {
				t.Errorf("error %v is not ErrNotAllowed", err)
			}
		})
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("extracted images were left behind after errors: %v", entries)
	}
}

// BenchmarkRenderCatalogImage pulls the medium synthetic catalog as an
// image from a loopback registry, extracts it and renders it.
func BenchmarkRenderCatalogImage(b *testing.B) {
	dir := declcfgtest.BenchmarkCatalog(b)
	host := imagetest.Registry(b, "", "")
	ref := host + "/catalog:v1"
	imagetest.Push(b, ref, imagetest.Image(b, map[string]string{labels.Configs: "/configs"}, nil, imagetest.DirLayer(b, dir, "configs")))
	r := &Renderer{Images: image.Options{TempDir: b.TempDir()}}
	for b.Loop() {
		w := declcfg.NewOrderedWriter(declcfg.FormatJSON)
		if err := r.RenderTo(context.Background(), w, ref); err != nil {
			b.Fatal(err)
		}
		if _, err := w.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
}

// BenchmarkRenderBundleImages renders the testdata bundles as images from
// a loopback registry, all in one call.
func BenchmarkRenderBundleImages(b *testing.B) {
	host := imagetest.Registry(b, "", "")
	dirs, _ := filepath.Glob("../testdata/bundles/*")
	var refs []string
	for i, dir := range dirs {
		ref := fmt.Sprintf("%s/bundle%d:v1", host, i)
		imagetest.Push(b, ref, imagetest.Image(b, map[string]string{labels.Package: "x"}, nil, imagetest.DirLayer(b, dir, "")))
		refs = append(refs, ref)
	}
	r := &Renderer{Images: image.Options{TempDir: b.TempDir()}}
	for b.Loop() {
		if _, err := r.Run(context.Background(), refs...); err != nil {
			b.Fatal(err)
		}
	}
}
