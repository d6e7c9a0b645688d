package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

// TestLintInconsistentCatalog: a catalog that loads but has objects the
// index leaves out (here a channel of a package that is not defined) is
// refused, not linted without them.
func TestLintInconsistentCatalog(t *testing.T) {
	dir := t.TempDir()
	ghost := "---\nschema: olm.channel\npackage: ghost\nname: alpha\nentries:\n  - name: ghost.v1\n"
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": linttest.Chain3 + ghost})
	_, err := lintInProcess(context.Background(), []string{dir}, Options{})
	if err == nil || !strings.Contains(err.Error(), "is inconsistent") || !strings.Contains(err.Error(), `package "ghost" is not defined`) {
		t.Fatalf("got %v", err)
	}
}

// cancelling is a linter with one rule that cancels the run when it
// checks a package of the catalog named at, or any bundle when at is
// "bundle", and records the catalogs whose packages it checked.
type cancelling struct {
	mu      sync.Mutex
	checked []string
}

func (c *cancelling) linter(at string, cancel context.CancelFunc) *linter {
	found := []finding.Finding{{Rule: "cancels", Severity: finding.Error, Message: "m"}}
	return &linter{setup: setup{rules: []Rule{{
		ID: "cancels",
		pkg: func(p *packageCheck) []finding.Finding {
			c.mu.Lock()
			c.checked = append(c.checked, p.cat.name)
			c.mu.Unlock()
			if p.cat.name == at {
				cancel()
			}
			return found
		},
		bundle: func(*bundleCheck) []finding.Finding {
			if at == "bundle" {
				cancel()
			}
			return found
		},
	}}}}
}

// TestLintCancelled: a lint cancelled at any point, the last target
// included, returns the context's error and no findings.
func TestLintCancelled(t *testing.T) {
	first, last := t.TempDir(), t.TempDir()
	linttest.WriteFiles(t, first, map[string]string{"catalog.yaml": linttest.Chain3})
	linttest.WriteFiles(t, last, map[string]string{"catalog.yaml": linttest.Chain3})
	bundle := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML(""), nil)
	repo := t.TempDir()
	linttest.WriteFiles(t, repo, map[string]string{"v4.16/catalog.yaml": linttest.Chain3, "v4.17/catalog.yaml": linttest.Chain3})

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := lintInProcess(cancelled, []string{first}, Options{}); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled before: %v %v", res, err)
	}
	tests := []struct {
		name, at string
		paths    []string
		// checked are the catalogs whose packages were checked.
		checked []string
	}{
		{name: "during the last catalog", at: last, paths: []string{first, last}, checked: []string{first, last}},
		{name: "during the first catalog", at: first, paths: []string{first, last}, checked: []string{first}},
		{name: "during a bundle, the last target", at: "bundle", paths: []string{first, bundle}, checked: []string{first}},
		{name: "during the first of a catalogs directory", at: filepath.Join(repo, "v4.16"), paths: []string{repo}, checked: []string{filepath.Join(repo, "v4.16")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c := &cancelling{}
			res, err := c.linter(tt.at, cancel).run(ctx, tt.paths)
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Fatalf("got %v, %v; want no result and the context's error", res, err)
			}
			if strings.Join(c.checked, ",") != strings.Join(tt.checked, ",") {
				t.Errorf("checked %v, want %v", c.checked, tt.checked)
			}
		})
	}
}
