package baseline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/linttest"
)

// A directory baseline maps a catalog directory to it, and an operator
// directory to its place under it (the repository root as it was).
func TestDirBaseline(t *testing.T) {
	root := t.TempDir()
	linttest.WriteFiles(t, root, map[string]string{
		"now/catalog/catalog.yaml":        linttest.Chain3,
		"was/catalog.yaml":                linttest.Chain3,
		"repo/operators/etcd/ci.yaml":     "fbc:\n  enabled: true\n",
		"old/operators/etcd/ci.yaml":      "fbc:\n  enabled: true\n",
		"old/catalogs/v4.17/etcd/c.yaml":  linttest.Chain3,
		"repo/catalogs/v4.17/etcd/c.yaml": linttest.Chain3,
	})
	cat := filepath.Join(root, "now", "catalog")
	bl, err := New(context.Background(), filepath.Join(root, "was"), []string{cat})
	if err != nil {
		t.Fatal(err)
	}
	defer bl.Close()
	if bl.Given() != filepath.Join(root, "was") || bl.Ready() != nil || !bl.Holds(cat) || bl.Unchanged(cat) {
		t.Errorf("catalog directory baseline: %q ready %v holds %v unchanged %v", bl.Given(), bl.Ready(), bl.Holds(cat), bl.Unchanged(cat))
	}
	if got := bl.CatalogName(cat); !strings.HasSuffix(got, filepath.Join("was")) {
		t.Errorf("catalog name %q", got)
	}
	if bl.Holds(filepath.Join(root, "elsewhere")) || bl.Real(filepath.Join(root, "elsewhere")) != "" {
		t.Error("a path outside the linted ones is held")
	}
	op := filepath.Join(root, "repo", "operators", "etcd")
	bl, err = New(context.Background(), filepath.Join(root, "old"), []string{op, "quay.io/example/image:v1"})
	if err != nil {
		t.Fatal(err)
	}
	if !bl.Holds(op) || !bl.Holds(filepath.Join(root, "repo", "catalogs", "v4.17", "etcd")) {
		t.Errorf("operator directory baseline: %q", bl.Real(op))
	}
}

// What a directory baseline refuses: a file, and several catalog
// directories (each would need its own); a ref that is no commit.
func TestBaselineRefused(t *testing.T) {
	root := t.TempDir()
	linttest.WriteFiles(t, root, map[string]string{"a/catalog.yaml": linttest.Chain3, "b/catalog.yaml": linttest.Chain3, "file": "x"})
	if _, err := New(context.Background(), filepath.Join(root, "file"), []string{filepath.Join(root, "a")}); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("a file: %v", err)
	}
	if _, err := New(context.Background(), filepath.Join(root, "a"), []string{filepath.Join(root, "a"), filepath.Join(root, "b")}); err == nil || !strings.Contains(err.Error(), "2 catalog directories") {
		t.Errorf("two catalogs: %v", err)
	}
	if _, err := New(context.Background(), "no-such-ref", []string{filepath.Join(root, "a")}); err == nil || !strings.Contains(err.Error(), "neither a directory nor a commit") {
		t.Errorf("no such ref: %v", err)
	}
}

// A git baseline whose extraction fails says why when it is waited for,
// and holds nothing.
func TestGitExtractionFails(t *testing.T) {
	root, commit := gitRepo(t)
	edit(t, root, "catalogs/v4.16/widget/catalog.yaml", "schema: olm.package", "schema: olm.package\n# edited")
	commit("after")
	bl := parentBaseline(t, root, "operators/widget")
	if err := bl.Ready(); err != nil {
		t.Fatal(err)
	}
	// a copy whose extraction failed
	failed := &Baseline{given: "HEAD~1", ref: "HEAD~1", repo: &gitCopy{done: make(chan struct{}), err: os.ErrPermission}, maps: bl.maps}
	close(failed.repo.done)
	if failed.Ready() == nil || failed.Holds(filepath.Join(root, "operators/widget")) {
		t.Error("a failed extraction is held")
	}
}

// The findings made of a bundle directory knowing its operator's others
// are kept apart from the bundle's own.
func TestMemoInOperator(t *testing.T) {
	m := NewMemo[string]()
	fs := []finding.Finding{{Rule: "operator-name"}}
	m.RecordInOperator("operators/etcd/1.0.0/", fs)
	if got, ok := m.InOperator("operators/etcd/1.0.0"); !ok || len(got) != 1 {
		t.Errorf("in operator: %v %v", got, ok)
	}
	if _, ok := m.InOperator("operators/etcd/2.0.0"); ok {
		t.Error("a directory never recorded")
	}
}
