package stage

import (
	"os"
	"path/filepath"
	"testing"
)

// lockable reports whether this system locks files (tryLock of a file
// another descriptor has locked fails), so that a run alive is told from
// one killed.
func lockable(t *testing.T) bool {
	t.Helper()
	name := filepath.Join(t.TempDir(), "lock")
	var fs [2]*os.File
	for i := range fs {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fs[i] = f
	}
	if free, err := tryLock(fs[0]); err != nil || !free {
		t.Fatalf("tryLock: %v, %v", free, err)
	}
	free, err := tryLock(fs[1])
	if err != nil {
		t.Fatal(err)
	}
	return !free
}
