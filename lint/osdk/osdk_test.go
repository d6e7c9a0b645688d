package osdk

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestAgreesWithLibraryLoader validates every real bundle both ways: as
// Validate does (the trees lint decoded, CRD verdicts from the cache)
// and through operator-framework/api's own loader, GetBundleFromDir,
// which operator-sdk calls. Both must print the same outputs, suite by
// suite, and stop on the same bundles. With -short, testdata's bundles
// only.
func TestAgreesWithLibraryLoader(t *testing.T) {
	dirs, versions := conformanceBundles(t), []string{"1.21", "1.34"}
	if testing.Short() {
		dirs, _ = filepath.Glob("../../testdata/bundles/*")
		versions = versions[1:]
	}
	if len(dirs) == 0 {
		t.Skip("no bundles")
	}
	var c Cache
	for _, dir := range dirs {
		for _, k8s := range versions {
			stopped, want := reference(t, dir, k8s)
			got := Validate(readBundle(t, dir, k8s), &c)
			if stopped != (got.Stopped != nil) {
				t.Errorf("%s: stopped %v, the library's loader stops: %v", dir, got.Stopped, stopped)
				continue
			}
			for _, s := range []Suite{OperatorHub, OperatorFramework} {
				if g := ours(got, s); !slices.Equal(g, want[s]) {
					t.Errorf("%s (k8s %s), suite %d:\n got %q\nwant %q", filepath.Base(dir), k8s, s, g, want[s])
				}
			}
		}
	}
}
