package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Lint with a baseline carries the changes of each changed catalog, named
// by its directory and OpenShift version; without one, none.
func TestLintChanges(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "base")
	linttest.WriteFiles(t, filepath.Join(base, "v4.17"), map[string]string{"catalog.yaml": linttest.Chain3})
	linttest.WriteFiles(t, filepath.Join(base, "v4.18"), map[string]string{"catalog.yaml": linttest.Chain3})
	now := filepath.Join(root, "catalogs")
	linttest.WriteFiles(t, filepath.Join(now, "v4.17"), map[string]string{"catalog.yaml": linttest.ChangedChain})
	linttest.WriteFiles(t, filepath.Join(now, "v4.18"), map[string]string{"catalog.yaml": linttest.Chain3})
	res := run(t, []string{now}, Options{Baseline: base})
	if len(res.Changes) != 1 {
		t.Fatalf("changes %+v", res.Changes)
	}
	c := res.Changes[0]
	if c.Catalog != filepath.ToSlash(filepath.Join(now, "v4.17")) || c.OpenShift != "v4.17" || c.New || len(c.Packages) != 1 {
		t.Fatalf("change %+v", c)
	}
	if res := run(t, []string{now}, Options{}); res.Changes != nil {
		t.Fatalf("changes without a baseline: %+v", res.Changes)
	}
	data, err := json.Marshal(c)
	if err != nil || !strings.Contains(string(data), `"headAfter":"etcdoperator.v0.9.5"`) {
		t.Fatalf("JSON %s %v", data, err)
	}
}
