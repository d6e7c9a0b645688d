package layout

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/fbcat/opm/registryv1/openshift"
)

// repo is the small catalog repository of testdata.
const repo = "../../testdata/repo"

func TestDirectories(t *testing.T) {
	at := func(p string) string { return filepath.Join(repo, p) }
	if !IsCatalogsRoot(at("catalogs")) || IsCatalogsRoot(at("catalogs/v4.17")) || IsCatalogsRoot(at("nope")) || IsCatalogsRoot(at("operators")) {
		t.Error("IsCatalogsRoot")
	}
	if !IsOperatorDir(at("operators/widget")) || IsOperatorDir(at("operators")) || IsOperatorDir(at("operators/widget/1.1.1")) {
		t.Error("IsOperatorDir")
	}
	got := OperatorDirsIn(at("operators"))
	if want := []string{at("operators/gadget"), at("operators/widget")}; !slices.Equal(got, want) {
		t.Errorf("OperatorDirsIn: %v, want %v", got, want)
	}
	if got := OperatorDirsIn(at("catalogs")); got != nil {
		t.Errorf("OperatorDirsIn(catalogs): %v", got)
	}
}

// Catalog names need the v and OpenShift 4; a catalog directory has the
// version of the catalogs/v4.N it is in.
func TestCatalogVersion(t *testing.T) {
	for name, want := range map[string]bool{"v4.17": true, "v4.9": true, "4.17": false, "v5.0": false, "v4.17.1": false, "widget": false} {
		v, ok := CatalogVersion(name)
		if ok != want || ok && v.String() != name[1:] || IsCatalogName(name) != want {
			t.Errorf("%q: %v %v, want %v", name, v, ok, want)
		}
	}
	if v, ok := CatalogVersionOf(filepath.Join(repo, "catalogs/v4.17/widget")); !ok || v != (openshift.Version{Major: 4, Minor: 17}) {
		t.Errorf("CatalogVersionOf(catalogs/v4.17/widget) = %v %v", v, ok)
	}
	if _, ok := CatalogVersionOf(filepath.Join(repo, "operators/widget")); ok {
		t.Error("CatalogVersionOf(operators/widget)")
	}
}
