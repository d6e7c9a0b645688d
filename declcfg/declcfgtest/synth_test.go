package declcfgtest_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// TestWrite checks that a catalog is a function of its options, loads, and
// has the mix it promises: JSON and YAML files, bundle objects and CSV
// metadata.
func TestWrite(t *testing.T) {
	o := declcfgtest.Options{Packages: 12, Bundles: 120, Seed: 7}
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := declcfgtest.Write(dir, o); err != nil {
			t.Fatal(err)
		}
	}
	exts := map[string]int{}
	var all bytes.Buffer
	err := filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		got, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		want, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs between two runs with the same options (%v)", rel, err)
		}
		exts[filepath.Ext(path)]++
		all.Write(got)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if exts[".json"] == 0 || exts[".yaml"] == 0 {
		t.Errorf("files by extension: %v; want JSON and YAML", exts)
	}
	for _, s := range []string{"olm.bundle.object", "olm.csv.metadata", "olm.deprecations"} {
		if !strings.Contains(all.String(), s) {
			t.Errorf("no %s in the catalog", s)
		}
	}
	// That the catalog is also valid is checked by validate's tests
	// (TestSyntheticCatalogIsValid): validate is above declcfg.
	cfg, err := declcfg.LoadFS(context.Background(), os.DirFS(a))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Packages) != o.Packages {
		t.Errorf("loaded %d packages, want %d", len(cfg.Packages), o.Packages)
	}
}

func TestName(t *testing.T) {
	if declcfgtest.Large.Name() == declcfgtest.Medium.Name() {
		t.Error("Large and Medium share a name")
	}
}
