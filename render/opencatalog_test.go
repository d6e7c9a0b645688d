package render

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

// openedFiles opens ref with r and returns the name it was given and
// the files it holds.
func openedFiles(t *testing.T, r *Renderer, ref string) (string, []string, error) {
	t.Helper()
	var name string
	var files []string
	err := r.OpenCatalog(context.Background(), ref, func(fsys fs.FS, n string) error {
		name = n
		return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return err
		})
	})
	return name, files, err
}

func TestOpenCatalogDirs(t *testing.T) {
	r := &Renderer{}
	name, files, err := openedFiles(t, r, "../testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	if name != "../testdata/catalog" || strings.Join(files, " ") != "kubevirt-wol/catalog.yaml libredb-studio-operator/catalog.yaml nfs-provisioner-operator/catalog.yaml" {
		t.Errorf("opened %q holding %v", name, files)
	}
	bundle := "../testdata/bundles/pelorus-operator_0.0.2"
	_, _, err = openedFiles(t, r, bundle)
	if !errors.Is(err, ErrNotAllowed) || err.Error() != `cannot render bundle directory "`+bundle+`": not allowed` {
		t.Errorf("bundle directory: %v", err)
	}
	if _, _, err := openedFiles(t, r, "../testdata/catalog.golden.json"); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("file: %v", err)
	}
	boom := errors.New("boom")
	err = r.OpenCatalog(context.Background(), "../testdata/catalog", func(fs.FS, string) error { return boom })
	if err != boom {
		t.Errorf("use's error came back as %v", err)
	}
}

// TestOpenCatalogImages: a catalog image is extracted (its configs
// directory only) for use and removed after; bundle images are refused.
func TestOpenCatalogImages(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	catalog, bundle := host+"/catalog:v1", host+"/bundle:v1"
	imagetest.Push(t, catalog, imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.Layer(t, imagetest.Entry{Name: "etc/other", Body: "not extracted"}),
		imagetest.DirLayer(t, "../testdata/catalog/kubevirt-wol", "configs/kubevirt-wol")))
	imagetest.Push(t, bundle, bundleImage(t, "../testdata/bundles/pelorus-operator_0.0.2"))
	tmp := t.TempDir()
	r := &Renderer{Images: image.Options{TempDir: tmp}}

	var extracted string
	err := r.OpenCatalog(context.Background(), catalog, func(fsys fs.FS, name string) error {
		if name != catalog+"/configs" {
			t.Errorf("name %q, want %s/configs", name, catalog)
		}
		if _, err := fs.Stat(fsys, "kubevirt-wol/catalog.yaml"); err != nil {
			t.Error(err)
		}
		entries, _ := os.ReadDir(tmp)
		if len(entries) == 1 {
			extracted = filepath.Join(tmp, entries[0].Name())
			if _, err := os.Stat(filepath.Join(extracted, "etc")); err == nil {
				t.Error("extracted more than the configs directory")
			}
		}
		return nil
	})
	if err != nil || extracted == "" {
		t.Fatalf("%v (extracted into %q)", err, extracted)
	}
	if _, err := os.Stat(extracted); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("extracted catalog left behind: %v", err)
	}

	_, _, err = openedFiles(t, r, bundle)
	if !errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), "cannot render bundle image") {
		t.Errorf("bundle image: %v", err)
	}
	if _, _, err := openedFiles(t, r, host+"/nothing:v1"); err == nil || !strings.Contains(err.Error(), "image not found") {
		t.Errorf("missing image: %v", err)
	}
}
