package osdk

import (
	"crypto/rand"
	"encoding/base64"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/osdk/suites"
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
			for _, s := range []suites.Suite{suites.OperatorHub, suites.OperatorFramework} {
				if g := ours(got, s); !slices.Equal(g, want[s]) {
					t.Errorf("%s (k8s %s), suite %d:\n got %q\nwant %q", filepath.Base(dir), k8s, s, g, want[s])
				}
			}
		}
	}
}

// Bundles that reach what testdata's real ones do not: a manifest large
// enough to be compressed to measure the bundle, a v1beta1 CRD, and a
// CRD the CSV does not own (its problem placed at the CRD and caused by
// its versions). Validate agrees with the library's own loader on each.
func TestAgreesOnSeeded(t *testing.T) {
	random := make([]byte, 450_000)
	if _, err := rand.Read(random); err != nil {
		t.Fatal(err)
	}
	big := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\nbinaryData:\n  blob: " + base64.StdEncoding.EncodeToString(random) + "\n"
	beta := "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: gadgets.example.com\nspec:\n  group: example.com\n" +
		"  names:\n    kind: Gadget\n    plural: gadgets\n  scope: Namespaced\n  version: v1\n  versions:\n  - name: v1\n    served: true\n    storage: true\n"
	for name, edit := range map[string][3]string{
		"compressed":   {"manifests/big.yaml", "", big},
		"v1beta1 CRD":  {"manifests/gadgets.yaml", "", beta},
		"not owned v1": {"manifests/gadgets.yaml", "", strings.Replace(strings.Replace(beta, "v1beta1", "v1", 1), "  version: v1\n", "", 1)},
	} {
		t.Run(name, func(t *testing.T) {
			dir := seeded(t, node, edit)
			stopped, want := reference(t, dir, "1.34")
			got := Validate(readBundle(t, dir, "1.34"), &Cache{})
			if stopped != (got.Stopped != nil) {
				t.Fatalf("stopped %v, the library's loader stops: %v", got.Stopped, stopped)
			}
			for _, s := range []suites.Suite{suites.OperatorHub, suites.OperatorFramework} {
				if g := ours(got, s); !slices.Equal(g, want[s]) {
					t.Errorf("suite %d:\n got %q\nwant %q", s, g, want[s])
				}
			}
			placed := false
			for _, o := range got.Outputs(suites.OperatorHub) {
				if strings.Contains(o.Message, "Gadget") {
					placed = o.File == edit[0] && o.Line == 12 && slices.Equal(o.Causes, []string{"crd-versions:gadgets.example.com"})
				}
			}
			if name == "not owned v1" && !placed {
				t.Errorf("the CRD the CSV does not own is not placed at its version, caused by its versions: %+v", got.Outputs(suites.OperatorHub))
			}
		})
	}
}
