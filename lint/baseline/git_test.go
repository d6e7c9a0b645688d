package baseline

import (
	"github.com/fbcat/opm/lint/linttest"

	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a copy of testdata/repo a git repository with one
// commit, and returns a function that commits what changed since.
func gitRepo(t *testing.T) (root string, commit func(msg string)) {
	return linttest.GitRepo(t, "../../testdata/repo")
}

// edit replaces old with new in the file name of root.
func edit(t *testing.T, root, name, old, new string) {
	t.Helper()
	file := filepath.Join(root, name)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// parentBaseline is the baseline HEAD~1 of the directory dir of root,
// closed when the test ends.
func parentBaseline(t *testing.T, root, dir string) *Baseline {
	t.Helper()
	bl, err := New(context.Background(), "HEAD~1", []string{filepath.Join(root, dir)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bl.Close)
	return bl
}

// write writes the file name of root.
func write(t *testing.T, root, name, data string) {
	t.Helper()
	file := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The ref's copy of an operator directory leaves out the bundle
// directories the change did not touch (tracked or untracked changes
// count), and holds its catalogs.
func TestGitKeepsUnchangedDirs(t *testing.T) {
	root, commit := gitRepo(t)
	edit(t, root, "operators/widget/1.1.0/manifests/widget-operator.clusterserviceversion.yaml", "apiVersion:", "# moved down a line\napiVersion:")
	write(t, root, "operators/widget/1.1.1/manifests/zz-pdb.yaml", "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: zz-pdb\n")
	commit("after")
	write(t, root, "operators/widget/1.2.0/manifests/untracked.yaml", "kind: ConfigMap\n")
	bl := parentBaseline(t, root, "operators/widget")
	if err := bl.Ready(); err != nil {
		t.Fatal(err)
	}
	g := bl.repo
	for dir, want := range map[string]bool{"1.0.0": true, "1.1.0": false, "1.1.1": false, "1.2.0": false} {
		if got := bl.Unchanged(filepath.Join(root, "operators/widget", dir)); got != want {
			t.Errorf("%s unchanged: %v, want %v", dir, got, want)
		}
		_, err := os.Stat(filepath.Join(g.tmp, "operators/widget", dir))
		if extracted := err == nil; extracted == want {
			t.Errorf("%s extracted: %v", dir, extracted)
		}
	}
	for _, f := range []string{"operators/widget/ci.yaml", "catalogs/v4.16/widget/catalog.yaml", "catalogs/v4.17/widget/catalog.yaml"} {
		if _, err := os.Stat(filepath.Join(g.tmp, f)); err != nil {
			t.Errorf("not extracted: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(g.tmp, "catalogs/v4.18")); err == nil {
		t.Error("another package's catalog extracted")
	}
	if got, want := bl.Real(filepath.Join(root, "catalogs/v4.16/widget")), filepath.Join(g.tmp, "catalogs/v4.16/widget"); got != want {
		t.Errorf("Real: %s, want %s", got, want)
	}
	if name := bl.CatalogName("catalogs/v4.16/widget"); name != "catalogs/v4.16/widget@HEAD~1" {
		t.Errorf("CatalogName: %s", name)
	}
	tmp := g.tmp
	bl.Close()
	if _, err := os.Stat(tmp); err == nil {
		t.Error("the copy is left behind")
	}
}

// The ref's copy of a catalogs directory leaves out the catalogs the
// change left alone.
func TestGitCatalogsRoot(t *testing.T) {
	root, commit := gitRepo(t)
	edit(t, root, "catalogs/v4.17/widget/catalog.yaml", "  replaces: widget-operator.v1.1.0", "  replaces: widget-operator.v1.0.9")
	commit("after")
	bl := parentBaseline(t, root, "catalogs")
	g := bl.repo
	if !g.kept["catalogs/v4.16"] || g.kept["catalogs/v4.17"] || !g.kept["catalogs/v4.18"] {
		t.Errorf("kept: %v", g.kept)
	}
	if _, err := os.Stat(filepath.Join(g.tmp, "catalogs/v4.16")); err == nil {
		t.Error("an unchanged catalog extracted")
	}
}

func TestNewErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	write(t, filepath.Dir(file), "f", "x")
	two := t.TempDir()
	write(t, two, "a/catalog.yaml", "")
	write(t, two, "b/catalog.yaml", "")
	tests := []struct {
		given string
		paths []string
		want  string
	}{
		{file, nil, file + " is a file"},
		{t.TempDir(), []string{filepath.Join(two, "a"), filepath.Join(two, "b")}, "2 catalog directories are linted"},
		{"no-such-ref", []string{t.TempDir()}, "no-such-ref is neither a directory nor a commit"},
	}
	for _, tt := range tests {
		if _, err := New(context.Background(), tt.given, tt.paths); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.given, err, tt.want)
		}
	}
}

// A baseline closed while its copy is still being extracted ends the
// extraction and leaves nothing behind.
func TestGitCloseWhileExtracting(t *testing.T) {
	root, commit := gitRepo(t)
	edit(t, root, "catalogs/v4.16/widget/catalog.yaml", "schema: olm.package", "schema: olm.package\n# edited")
	commit("after")
	bl, err := New(context.Background(), "HEAD~1", []string{filepath.Join(root, "operators/widget")})
	if err != nil {
		t.Fatal(err)
	}
	tmp := bl.repo.tmp
	bl.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the copy is left: %v", err)
	}
}
