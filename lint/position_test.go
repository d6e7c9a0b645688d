package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"path/filepath"
	"strings"
	"testing"
)

// Every finding about a catalog's bundle points at the bundle's name:
// line and names the embedded object, never at an olm.bundle.object line.
func TestCatalogBundlePositions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "catalogs", "v4.16")
	csv := strings.Replace(testCSV(csvOpts{properties: `[{"type": "olm.maxOpenShiftVersion", "value": "4.12"}]`, installModes: []string{"OwnNamespace"}}),
		"categories: Database", "categories: Databases", 1)
	linttest.WriteFiles(t, dir, map[string]string{"etcd/catalog.yaml": bundleObjectCatalog(t, csv, cronJobV1beta1)})
	file := filepath.Join(dir, "etcd", "catalog.yaml")
	nameLine := lastLineOf(t, file, "name: etcdoperator.v0.9.4")
	got := run(t, []string{dir}, Options{Rules: []string{ruleRemovedAPI, ruleOpenShiftRange, ruleCSVFields, ruleOLMv1}}).Findings
	seen := map[string]bool{}
	for _, f := range got {
		seen[f.Rule] = true
		if f.File != file || f.Line != nameLine {
			t.Errorf("not at the bundle's name (line %d): %+v", nameLine, f)
		}
		want := map[string]string{ruleRemovedAPI: "CronJob etcd-backup", ruleOpenShiftRange: "ClusterServiceVersion etcdoperator.v0.9.4", ruleCSVFields: "ClusterServiceVersion etcdoperator.v0.9.4"}[f.Rule]
		if want != "" && f.Object != want {
			t.Errorf("object %q, want %q: %+v", f.Object, want, f)
		}
	}
	// (removed-api: see TestRemovedAPICatalog; here the cap leaves 4.16 no
	// target)
	for _, r := range []string{ruleOpenShiftRange, ruleCSVFields, ruleOLMv1} {
		if !seen[r] {
			t.Errorf("no %s finding:%s", r, dump(got))
		}
	}
}
