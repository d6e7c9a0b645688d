//go:build unix

package stage_test

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
	"github.com/fbcat/opm/catalogrepo/stage"
	"github.com/fbcat/opm/validate"
)

// newFile is the file the crash tests write besides the rewritten ones,
// in directories that do not exist yet, so that undoing a run removes
// both.
const newFile = "notes/new/readme.txt"

// Environment of the child process of TestWriteKilled.
const (
	killRootEnv = "OPM_TEST_KILL_ROOT"
	killStepEnv = "OPM_TEST_KILL_STEP"
	killFailEnv = "OPM_TEST_KILL_FAIL" // the file whose rename fails, if any
)

// crashFiles are what the crash tests write into root (a copy of the
// project's test repository): a new file, then every template and
// catalog replaced, as a release replaces them, by a text that is still
// valid (its own, with a comment added), in pieces as plans give them.
func crashFiles(t *testing.T, root string) []stage.File {
	t.Helper()
	files := []stage.File{{Path: newFile, Text: stage.Text{[]byte("new "), []byte("file\n")}}}
	for _, pattern := range []string{"operators/*/catalog-templates/*.yaml", "catalogs/*/*/catalog.yaml"} {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil || len(matches) == 0 {
			t.Fatalf("no %s in %s: %v", pattern, root, err)
		}
		for _, m := range matches {
			data, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, m)
			files = append(files, stage.File{Path: filepath.ToSlash(rel), Old: stage.Digest(data), Text: stage.Text{data, []byte("# rewritten\n")}})
		}
	}
	return files
}

// failRename makes the rename of file fail (its staged text removed just
// before it), called at each step of a write into root.
func failRename(root string, file int, step string) {
	before := "committed"
	if file > 0 {
		before = "renamed " + strconv.Itoa(file-1)
	}
	if step == before {
		staged, _ := filepath.Glob(filepath.Join(root, stage.Dir, "run-*", strconv.Itoa(file)))
		for _, f := range staged {
			os.Remove(f)
		}
	}
}

// TestKilledWriteChild is the child process of TestWriteKilled: it
// writes crashFiles into $OPM_TEST_KILL_ROOT, makes the rename of file
// $OPM_TEST_KILL_FAIL fail if set, and SIGKILLs itself at Write's step
// $OPM_TEST_KILL_STEP.
func TestKilledWriteChild(t *testing.T) {
	root := os.Getenv(killRootEnv)
	if root == "" {
		t.Skip("run by TestWriteKilled")
	}
	fail := -1
	if f := os.Getenv(killFailEnv); f != "" {
		fail, _ = strconv.Atoi(f)
	}
	err := stage.WriteSteps(context.Background(), root, crashFiles(t, root), func(step string) {
		if fail >= 0 {
			failRename(root, fail, step)
		}
		if step == os.Getenv(killStepEnv) {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // until the signal lands
		}
	})
	t.Fatalf("Write never reached step %q: %v", os.Getenv(killStepEnv), err)
}

// killCase is one process TestWriteKilled kills: at step, with the
// rename of file fail failing (-1: none), and the repository expected
// after Recover.
type killCase struct {
	step  string
	fail  int
	want  map[string]string
	notes string // what Recover's notes say
	// edit, when set, is a file changed by hand after the kill, which
	// Recover must leave as it is.
	edit string
}

// TestWriteKilled kills a write of crashFiles (SIGKILL, in a process of
// its own) at every step of writing it, and of undoing it after its last
// rename fails, and checks that the repository was left valid, that
// Check refuses it while a run is half-done, and that once Recover has
// run it is byte for byte the repository before the run (killed before
// committing, or while undoing) or fully written (killed after
// committing), with nothing stray; files changed by hand after the kill
// are left as they are.
func TestWriteKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per step")
	}
	base := catalogrepotest.Copy(t, "../../testdata/repo")
	before := snapshot(t, base)
	steps, after := writeSteps(t, base, -1)
	if len(steps) < 10 {
		t.Fatalf("only %d steps: %v", len(steps), steps)
	}
	var cases []killCase
	for _, step := range steps {
		c := killCase{step: step, fail: -1, want: after, notes: "now complete"}
		switch {
		case strings.HasPrefix(step, "staged"):
			c.want, c.notes = before, "interrupted before writing anything: the repository is as it was"
		case ended(step):
			// Between the last rename and the directory gone: written,
			// and said to be.
			c.notes = "killed after writing every file"
		}
		cases = append(cases, c)
	}
	if n := len(slices.DeleteFunc(slices.Clone(steps), func(s string) bool { return !ended(s) })); n < 4 {
		t.Errorf("%d steps after the last rename, want the rename of the run's directory and a removal of each file in it: %v", n, steps)
	}
	last := len(crashFiles(t, catalogrepotest.Copy(t, base))) - 1
	undoSteps, undone := writeSteps(t, base, last)
	if !maps.Equal(undone, before) {
		t.Errorf("a failed rename left the repository changed: %v", diffKeys(before, undone))
	}
	undoing := 0
	for _, step := range undoSteps {
		switch {
		case strings.HasPrefix(step, "aborting") || strings.HasPrefix(step, "restored"):
			cases = append(cases, killCase{step: step, fail: last, want: before, notes: "now undone"})
			undoing++
		case ended(step):
			cases = append(cases, killCase{step: step, fail: last, want: before, notes: "killed after putting back every file it had replaced, before its staging files were removed: the repository is as it was before"})
		}
	}
	if undoing != last+2 {
		t.Errorf("%d steps of undoing, want %d: %v", undoing, last+2, undoSteps)
	}
	// Files changed by hand after the kill: one the run had written and
	// was undoing, one it had not yet written.
	cases = append(cases,
		killCase{step: "aborting", fail: last, want: before, notes: "did not put back", edit: crashFiles(t, catalogrepotest.Copy(t, base))[1].Path},
		killCase{step: "renamed 0", fail: -1, want: after, notes: "did not write", edit: crashFiles(t, catalogrepotest.Copy(t, base))[last].Path})
	for _, c := range cases {
		name := strings.ReplaceAll(c.step, " ", "-")
		if c.fail >= 0 {
			name = "undo-" + name
		}
		if c.edit != "" {
			name += "-edited"
		}
		t.Run(name, func(t *testing.T) { killAndRecover(t, base, before, c) })
	}
}

// ended reports whether a step of Write comes after its run ended: the
// rename of its directory to say how, and the removal of each file in it.
func ended(step string) bool {
	return step == "done" || step == "undone" || strings.HasPrefix(step, "removed ")
}

// writeSteps writes crashFiles into a copy of base, with the rename of
// file fail failing (-1: none), and returns the steps, sorted, and the
// repository it leaves.
func writeSteps(t *testing.T, base string, fail int) ([]string, map[string]string) {
	t.Helper()
	root := catalogrepotest.Copy(t, base)
	var steps []string
	var mu sync.Mutex // the staging steps run concurrently
	err := stage.WriteSteps(context.Background(), root, crashFiles(t, root), func(step string) {
		if fail >= 0 {
			failRename(root, fail, step)
		}
		mu.Lock()
		defer mu.Unlock()
		steps = append(steps, step)
	})
	if (err != nil) != (fail >= 0) {
		t.Fatalf("Write failing file %d: %v", fail, err)
	}
	slices.Sort(steps)
	return steps, snapshot(t, root)
}

// killAndRecover runs the child process on a copy of base, killed as c
// says, and checks what it left and what Recover makes of it.
func killAndRecover(t *testing.T, base string, before map[string]string, c killCase) {
	root := catalogrepotest.Copy(t, base)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriteChild$")
	cmd.Env = append(os.Environ(), killRootEnv+"="+root, killStepEnv+"="+c.step)
	if c.fail >= 0 {
		cmd.Env = append(cmd.Env, killFailEnv+"="+strconv.Itoa(c.fail))
	}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child not killed: %v\n%s", err, out)
	}
	validCatalogs(t, root)
	halfDone := !strings.HasPrefix(c.step, "staged") && !ended(c.step)
	if got := snapshot(t, root); !halfDone && !maps.Equal(got, c.want) {
		t.Errorf("killed before committing or after ending, the repository is not as the run left it: %v", diffKeys(c.want, got))
	}
	err = stage.Check(root)
	var ie *stage.InterruptedError
	if halfDone && (!errors.As(err, &ie) || ie.Undoing != (c.fail >= 0) || ie.Alive) || !halfDone && err != nil {
		t.Errorf("Check of the repository left: %v", err)
	}
	want := c.want
	if c.edit != "" {
		want = maps.Clone(want)
		want[c.edit] = "edited by hand\n"
		if err := os.WriteFile(filepath.Join(root, c.edit), []byte(want[c.edit]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := stage.Recover(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, root); !maps.Equal(got, want) {
		t.Errorf("after Recover, files differ from the expected repository: %v", diffKeys(want, got))
	}
	if _, err := os.Stat(filepath.Join(root, stage.Dir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s left after Recover: %v", stage.Dir, err)
	}
	if notes := strings.Join(rec.Notes(), "\n"); !strings.Contains(notes, c.notes) || (c.edit != "" && !strings.Contains(notes, c.edit)) {
		t.Errorf("Recover says: %q", notes)
	}
	if c.edit == "" {
		validCatalogs(t, root)
	}
	if err := stage.Check(root); err != nil {
		t.Errorf("Check after Recover: %v", err)
	}
}

// snapshot reads every file of a repository but its staging directory,
// and lists its directories (with a trailing slash).
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == stage.Dir {
				return filepath.SkipDir
			}
			files[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func diffKeys(want, got map[string]string) []string {
	var out []string
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			out = append(out, k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			out = append(out, "+"+k)
		}
	}
	slices.Sort(out)
	return out
}

// validCatalogs validates every catalogs/<version> directory as opm
// validate does.
func validCatalogs(t *testing.T, root string) {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join(root, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		res, err := validate.Validate(context.Background(), os.DirFS(filepath.Join(root, "catalogs", d.Name())), validate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Err(d.Name()); err != nil {
			t.Error(err)
		}
	}
}
