package validate_test

import (
	"context"
	"os"
	"testing"

	"github.com/fbcat/opm/declcfg/declcfgtest"
	"github.com/fbcat/opm/validate"
)

// TestSyntheticCatalogIsValid checks that the synthetic catalogs the
// benchmarks measure (declcfgtest) pass validation, so that what the
// benchmarks time is a catalog users could ship.
func TestSyntheticCatalogIsValid(t *testing.T) {
	dir := t.TempDir()
	if err := declcfgtest.Write(dir, declcfgtest.Options{Packages: 12, Bundles: 120, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	res, err := validate.Validate(context.Background(), os.DirFS(dir), validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Errorf("the synthetic catalog is not valid:\n%v", res.Problems)
	}
}
