package synth_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/bench/synth"
	"github.com/fbcat/opm/validate"
)

// TestWrite checks that a catalog is a function of its options, valid, and
// has the mix it promises: JSON and YAML files, bundle objects and CSV
// metadata.
func TestWrite(t *testing.T) {
	o := synth.Options{Packages: 12, Bundles: 120, Seed: 7}
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := synth.Write(dir, o); err != nil {
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
	res, err := validate.Validate(context.Background(), os.DirFS(a), validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Errorf("the catalog is not valid:\n%v", res.Problems)
	}
}

func TestName(t *testing.T) {
	if synth.Large.Name() == synth.Medium.Name() {
		t.Error("Large and Medium share a name")
	}
}
