package catalogrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
	"github.com/fbcat/opm/catalogrepo/stage"
)

// testRepo copies testdata/repo (widget: a basic template with comments,
// catalogs v4.16 and v4.17; gadget: a semver template, catalog v4.18).
func testRepo(t *testing.T) *Repo {
	t.Helper()
	return &Repo{Root: catalogrepotest.Copy(t, "../testdata/repo")}
}

func open(t *testing.T, r *Repo, name string) *Package {
	t.Helper()
	p, err := r.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRepoLookups(t *testing.T) {
	r := testRepo(t)
	if got := FindRoot(filepath.Join(r.Root, "operators", "widget", "1.0.0")); got != r.Root {
		t.Errorf("FindRoot from below = %s, want %s", got, r.Root)
	}
	if got := FindRoot(t.TempDir()); got == r.Root {
		t.Error("FindRoot found a root outside the repository")
	}
	ctx := context.Background()
	for name, want := range map[string]string{
		"widgets":           "did you mean widget?",
		"widget-operator":   "did you mean widget? (commands take the operator's directory name",
		"../x":              "invalid operator name",
		"totally-unrelated": "operators/totally-unrelated does not exist (operators: ",
	} {
		if _, err := r.Open(ctx, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%q): %v, want %q", name, err, want)
		}
	}
	os.MkdirAll(filepath.Join(r.Root, "operators", "bare"), 0o755)
	if _, err := r.Open(ctx, "bare"); err == nil || !strings.Contains(err.Error(), "has no ci.yaml") {
		t.Errorf("an operator without ci.yaml: %v", err)
	}
	p := open(t, r, "widget")
	if _, err := p.Template("nope.yaml"); err == nil || !strings.Contains(err.Error(), "operators/widget/ci.yaml maps no template \"nope.yaml\" in fbc.catalog_mapping (templates: basic.yaml)") {
		t.Errorf("Template: %v", err)
	}
	if b := p.BundleByImage("quay.io/example/widget-operator-bundle:v1.1.0"); b == nil || b.Name != "widget-operator.v1.1.0" {
		t.Errorf("BundleByImage: %v", b)
	}
	// Suggestions follow version order, not spelling: the nearest versions
	// below and above, or the bundle of that very version when the rest of
	// the name was mistyped.
	for name, want := range map[string]string{
		"widget-operator.v1.1.3":  ": did you mean widget-operator.v1.1.1?",
		"widget-operator.v1.0.5":  ": did you mean widget-operator.v1.0.0 or widget-operator.v1.1.0?",
		"widget-operator.v0.9":    ": did you mean widget-operator.v1.0.0?",
		"widget-operater.v1.1.0":  ": did you mean widget-operator.v1.1.0?",
		"widget-operator.v10.0.0": ": did you mean widget-operator.v1.1.1?",
		"nothing":                 " (bundles: widget-operator.v1.0.0, widget-operator.v1.1.0, widget-operator.v1.1.1)", // none is close: what there is
	} {
		_, err := p.FindBundle(name)
		if err == nil || !strings.HasSuffix(err.Error(), fmt.Sprintf("bundle named %q%s", name, want)) {
			t.Errorf("FindBundle(%s): %v, want the hint %q", name, err, want)
		}
	}
}

// TestPackagesNoOperatorsDir: a repository without operators/ is told
// where to run from.
func TestPackagesNoOperatorsDir(t *testing.T) {
	root := t.TempDir()
	_, err := (&Repo{Root: root}).Packages()
	if err == nil || !strings.Contains(err.Error(), "has no operators/ directory") {
		t.Fatalf("got %v", err)
	}
}

// TestPackagesUnreadableOperators: an operators/ that exists but cannot
// be listed is reported with the real error, not as a missing directory.
func TestPackagesUnreadableOperators(t *testing.T) {
	t.Run("a file", func(t *testing.T) {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "operators"), []byte("not a directory\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		checkUnreadable(t, root)
	})
	t.Run("no permission", func(t *testing.T) {
		root := t.TempDir()
		dir := filepath.Join(root, "operators")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		if _, err := os.ReadDir(dir); err == nil {
			t.Skip("mode 0 does not stop this user from reading a directory (root, or a file system without permissions)")
		}
		checkUnreadable(t, root)
	})
}

func checkUnreadable(t *testing.T, root string) {
	t.Helper()
	_, err := (&Repo{Root: root}).Packages()
	var pathErr *fs.PathError
	if err == nil || strings.Contains(err.Error(), "has no operators/ directory") || !errors.As(err, &pathErr) {
		t.Fatalf("want the error listing operators/, got %v", err)
	}
	if !strings.Contains(err.Error(), root) {
		t.Errorf("the error does not name the repository: %v", err)
	}
}

func TestBundleDirHint(t *testing.T) {
	r := testRepo(t)
	for given, want := range map[string]string{
		"operators/widget/1.2.O":  ": did you mean operators/widget/1.2.0?",
		"operators/widget/1.1.5":  ": did you mean operators/widget/1.1.1 or operators/widget/1.2.0?",
		"operators/wigdet/1.2.0":  ": did you mean operators/widget/1.2.0?",
		"operators/zzzzzzz/1.2.0": "",
		"elsewhere/1.2.0":         "",
	} {
		if got := r.bundleDirHint(given); got != want {
			t.Errorf("bundleDirHint(%s) = %q, want %q", given, got, want)
		}
	}
}

// TestOpenRefusesInterruptedRun plants what a run of stage.Write killed after
// committing leaves, and what one killed while undoing a failed rename
// leaves: Open refuses the repository, naming the run's directory, until
// stage.Recover has finished or undone the run.
func TestOpenRefusesInterruptedRun(t *testing.T) {
	for _, tc := range []struct {
		state, says, notes string
	}{
		{"committed", "moving its files into place", "now complete"},
		{"aborting", "putting back the files it had replaced", "now undone"},
	} {
		r := testRepo(t)
		catalog := "catalogs/v4.16/widget/catalog.yaml"
		data, err := os.ReadFile(r.Path(catalog))
		if err != nil {
			t.Fatal(err)
		}
		run := filepath.Join(r.Root, stage.Dir, "run-1")
		os.MkdirAll(run, 0o755)
		os.WriteFile(filepath.Join(run, "lock"), nil, 0o644)
		journal := fmt.Sprintf(`{"state":%q,"files":[{"path":%q,"staged":"0","old":%q,"new":"crc64:0:1","mode":420}]}`, tc.state, catalog, stage.Digest(data))
		os.WriteFile(filepath.Join(run, "journal"), []byte(journal), 0o644)

		_, err = r.Open(context.Background(), "widget")
		var ie *stage.InterruptedError
		if !errors.As(err, &ie) || ie.Dir != stage.Dir+"/run-1" || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), stage.Dir+"/run-1") {
			t.Errorf("%s: Open: %v", tc.state, err)
		}
		rec, err := stage.Recover(r.Root)
		if err != nil || !strings.Contains(strings.Join(rec.Notes(), "\n"), tc.notes) {
			t.Errorf("%s: Recover: %v, %q", tc.state, err, rec.Notes())
		}
		open(t, r, "widget")
	}
}
