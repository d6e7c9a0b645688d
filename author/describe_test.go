package author

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSemverPackageDescribedOffline: a semver catalog committed without
// the package's description (as opm before v1.65 rendered it) still
// matches its template, and the next release describes the package from
// the CSV of the default channel's head, as upstream does: read from the
// head's bundle directory, or, without one, from its olm.csv.metadata.
func TestSemverPackageDescribedOffline(t *testing.T) {
	for _, withDir := range []bool{true, false} {
		ctx := context.Background()
		r := testRepo(t)
		cat := "catalogs/v4.18/gadget/catalog.yaml"
		const desc = "description: |\n  Runs gadgets on Kubernetes.\n"
		if !strings.Contains(read(t, r, cat), desc) {
			t.Fatal("testdata: the gadget catalog has no description")
		}
		writeFile(t, r, cat, strings.Replace(read(t, r, cat), desc, "", 1))
		if !withDir {
			if err := os.RemoveAll(filepath.Join(r.Root, "operators/gadget/1.0.1")); err != nil {
				t.Fatal(err)
			}
		}
		check, err := open(t, r, "gadget").Expand(ctx, Options{})
		if err != nil || len(check.Changes) != 0 {
			t.Fatalf("an undescribed package is no drift: %v %v", err, check)
		}
		must(t, r)(release(ctx, r, ReleaseRequest{BundleDir: "operators/gadget/1.1.0-rc.1", Image: "quay.io/example/g:rc1"}, Options{}))
		if !strings.Contains(read(t, r, cat), "defaultChannel: stable-v1.0\n"+desc) {
			t.Errorf("bundle directory %v: the release does not describe the package:\n%.300s", withDir, read(t, r, cat))
		}
	}
}
