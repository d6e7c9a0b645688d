package catalogrepotest

import (
	"os"
	"path/filepath"
	"testing"
)

// Copy copies the repository at dir (such as the project's
// testdata/repo) into a temporary directory of the test, which the test
// may change, and returns its root.
func Copy(t testing.TB, dir string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(root, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return root
}
