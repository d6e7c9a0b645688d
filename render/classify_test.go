package render

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"bundle/manifests", "bundle/metadata", "catalog"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "catalog.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref      string
		want     RefKind
		imageErr bool
	}{
		{filepath.Join(dir, "bundle"), RefBundleDir, false},
		{filepath.Join(dir, "catalog"), RefCatalogDir, false},
		{file, RefFile, false},
		{"quay.io/org/catalog:v1", RefImage, false},
		{"oci:" + filepath.Join(dir, "layout") + ":v1", RefImage, false},
		{"nothere", RefMissing, true},
		{filepath.Join(dir, "nothere"), RefMissing, false},
		{"./quay.io/org/catalog:v1", RefMissing, false},
	} {
		got := Classify(tc.ref)
		if got.Kind != tc.want || got.Name != tc.ref || (got.ImageErr != nil) != tc.imageErr {
			t.Errorf("Classify(%q) = %+v, want kind %d (image error: %v)", tc.ref, got, tc.want, tc.imageErr)
		}
		switch {
		case tc.want == RefMissing || tc.want == RefImage:
			if !errors.Is(got.PathErr, fs.ErrNotExist) {
				t.Errorf("Classify(%q): path error %v, want one that it does not exist", tc.ref, got.PathErr)
			}
		case got.PathErr != nil:
			t.Errorf("Classify(%q): path error %v on disk", tc.ref, got.PathErr)
		}
	}
	if err := Classify("nothere").Err(); err == nil || !strings.HasPrefix(err.Error(), `no such file or directory: "nothere" (nor an image reference: `) {
		t.Errorf("a missing reference: %v", err)
	}
	if err := Classify("./nothere").Err(); !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "image") {
		t.Errorf("a missing path: %v", err)
	}
	if err := Classify(file).Err(); err != nil {
		t.Errorf("a file: %v", err)
	}
}
