package stage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// endedRun writes a file into a new repository and leaves the run's
// directory as a process killed at step would: renamed to say how the
// run ended, with what was not yet removed.
func endedRun(t *testing.T, step string) (root, dir string) {
	t.Helper()
	root = writeFiles(t, map[string]string{"a.yaml": "a old\n"})
	var kept string
	w := writer{step: func(s string) {
		if s == step {
			ds, _ := filepath.Glob(filepath.Join(root, Dir, "*-*"))
			kept = filepath.Join(t.TempDir(), "kept")
			if err := os.CopyFS(kept, os.DirFS(ds[0])); err != nil {
				t.Fatal(err)
			}
			dir = ds[0]
		}
	}}
	if err := w.write(context.Background(), root, []File{replace("a.yaml", "a old\n", "a new\n")}); err != nil {
		t.Fatal(err)
	}
	if dir == "" {
		t.Fatalf("no step %q", step)
	}
	// Put back what the run removed after the step, as if it had died there.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(kept)); err != nil {
		t.Fatal(err)
	}
	return root, dir
}

// TestRecoverEndedRuns: a run killed after it ended, while its staging
// directory was being removed, is said to be written (naming its files
// while its journal is there), Check does not call the repository
// half-written, and nothing is left.
func TestRecoverEndedRuns(t *testing.T) {
	for step, want := range map[string]string{
		"done":            "killed after writing every file (a.yaml), before its staging files were removed: the repository is fully written",
		"removed 0.old":   "killed after writing every file (a.yaml)",
		"removed journal": "an opm run was killed after writing every file, before its staging files were removed",
	} {
		root, dir := endedRun(t, step)
		if !strings.HasPrefix(filepath.Base(dir), done+"-") {
			t.Fatalf("%s: the run's directory is %s", step, dir)
		}
		if err := Check(root); err != nil {
			t.Errorf("%s: Check: %v", step, err)
		}
		rec, err := Recover(root)
		if err != nil {
			t.Fatal(err)
		}
		if notes := strings.Join(rec.Notes(), "\n"); !strings.Contains(notes, want) || strings.Contains(notes, "as it was") {
			t.Errorf("%s: Recover says %q, want %q", step, notes, want)
		}
		checkFiles(t, root, map[string]string{"a.yaml": "a new\n"})
		if _, err := os.Stat(filepath.Join(root, Dir)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %s left: %v", step, Dir, err)
		}
	}
}

// TestRecoverLeavesEndingRun: a run still removing its directory (its lock
// held) is left to finish.
func TestRecoverLeavesEndingRun(t *testing.T) {
	root, dir := endedRun(t, "done")
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if ok, err := tryLock(lock); !ok || err != nil {
		t.Fatal(ok, err)
	}
	rec, err := Recover(root)
	if err != nil || len(rec.Notes()) > 0 {
		t.Errorf("Recover of a live run: %v %q", err, rec.Notes())
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("the live run's directory: %v", err)
	}
}

// TestRetireOrder: retire renames the directory first, then removes the
// kept texts, the journal and, last, the lock, so that whenever it is
// killed the name says how the run ended and, as long as the lock is
// there, the journal names the files if it still can. Recover retires
// the runs it finishes the same way.
func TestRetireOrder(t *testing.T) {
	root, dir := endedRun(t, "done")
	committed := filepath.Join(filepath.Dir(dir), runPrefix+"1")
	if err := os.Rename(dir, committed); err != nil {
		t.Fatal(err)
	}
	var steps []string
	r := &run{root: root, dir: committed}
	r.retire(done, func(s string) { steps = append(steps, s) })
	want := []string{done, "removed 0.old", "removed " + journalFile, "removed " + lockFile}
	if strings.Join(steps, ",") != strings.Join(want, ",") {
		t.Errorf("retire's steps: %v, want %v", steps, want)
	}
	if _, err := os.Stat(r.dir); err == nil || filepath.Base(r.dir) != done+"-1" {
		t.Errorf("the run's directory %s is left: %v", r.dir, err)
	}
}
