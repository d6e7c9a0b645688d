package author

import (
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
