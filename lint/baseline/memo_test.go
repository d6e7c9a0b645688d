package baseline

import (
	"slices"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

func TestMemo(t *testing.T) {
	m := NewMemo[*string]()
	b := "bundle"
	m.KeepBundle("ops/p/1.0.0/", &b)
	m.RecordBundle("ops/p/1.0.0", []finding.Finding{{Rule: "r"}})
	m.RecordCatalog("catalogs/v4.17", []finding.Finding{{Rule: "s"}})
	m.RecordCatalog("catalogs/v4.16", nil)
	if got, ok := m.Bundle("ops/p/1.0.0"); !ok || got != &b {
		t.Errorf("Bundle: %v %v", got, ok)
	}
	if fs, ok := m.BundleFindings("ops/p/1.0.0"); !ok || len(fs) != 1 {
		t.Errorf("BundleFindings: %v %v", fs, ok)
	}
	if _, ok := m.Bundle("ops/p/2.0.0"); ok {
		t.Error("a bundle never kept")
	}
	fs, _ := m.Catalog("catalogs/v4.17")
	fs[0].Rule = "changed"
	if again, _ := m.Catalog("catalogs/v4.17"); again[0].Rule != "s" {
		t.Error("Catalog hands out what it keeps")
	}
	if got := m.BundleDirsIn("ops/p"); !slices.Equal(got, []string{"1.0.0"}) {
		t.Errorf("BundleDirsIn: %v", got)
	}
	if got := m.CatalogsIn("catalogs/"); !slices.Equal(got, []string{"v4.16", "v4.17"}) {
		t.Errorf("CatalogsIn: %v", got)
	}
}
