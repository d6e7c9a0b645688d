package author

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

// TestEveryVerbOutsideRepository: every way into a repository (each
// verb starts with one of them) refuses a directory without operators/
// with the one error naming Repo.Root, before reading anything else; a root that
// is a file is no repository either.
func TestEveryVerbOutsideRepository(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(empty, "elsewhere", "widget", "1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, root := range []string{empty, file, filepath.Join(empty, "missing")} {
		r := &Repo{Root: root}
		for what, err := range map[string]error{
			"Open":          func() error { _, err := r.Open(ctx, "widget"); return err }(),
			"Open bad name": func() error { _, err := r.Open(ctx, "../x"); return err }(),
			"OpenBundleDir": func() error { _, err := r.OpenBundleDir(ctx, "operators/widget/1.0.0"); return err }(),
			"OpenBundleDir !op": func() error {
				_, err := r.OpenBundleDir(ctx, filepath.Join(empty, "elsewhere", "widget", "1.0.0"))
				return err
			}(),
			"Expand": func() error { _, err := r.Expand(ctx, ExpandRequest{}, Options{}); return err }(),
			"Expand one": func() error {
				_, err := r.Expand(ctx, ExpandRequest{Packages: []string{"widget"}}, Options{})
				return err
			}(),
			"Packages": func() error { _, err := r.Packages(); return err }(),
		} {
			if ne, ok := lifts(err, optionRoot); !ok || !strings.HasSuffix(ne.Problem, " is not a catalog repository (it has no operators/ directory)") {
				t.Errorf("%s in %s: %v, want the error naming Repo.Root", what, root, err)
			}
		}
	}
}
