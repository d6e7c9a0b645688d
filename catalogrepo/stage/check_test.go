package stage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantRun makes a run's directory with a lock and, unless it is "", a
// journal.
func plantRun(t *testing.T, root, name, journal string) string {
	t.Helper()
	dir := filepath.Join(root, Dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, lockFile), nil, 0o644)
	if journal != "" {
		os.WriteFile(filepath.Join(dir, journalFile), []byte(journal), 0o644)
	}
	return dir
}

// TestCheck checks what Check says of each state a run can leave.
func TestCheck(t *testing.T) {
	root := t.TempDir()
	if err := Check(root); err != nil {
		t.Errorf("no staging directory: %v", err)
	}
	plantRun(t, root, "run-1", "")
	os.WriteFile(filepath.Join(root, Dir, "stray"), nil, 0o644)
	if err := Check(root); err != nil {
		t.Errorf("a run that never committed: %v", err)
	}
	for _, tc := range []struct {
		journal, want string
		undoing       bool
	}{
		{`[{"path":"a.yaml","staged":"0","mode":420}]`, "moving its files into place", false},
		{`{"state":"committed","files":[]}`, "moving its files into place", false},
		{`{"state":"aborting","files":[]}`, "putting back", true},
		{`{"state":"done","files":[]}`, "unknown state", false},
		{`{"state":"committed","files":[{"path":"../outside","staged":"0"}]}`, "not a path inside the repository", false},
		{`{"state":"committed","files":[{"path":"a","staged":"../../x"}]}`, "not a staged file's name", false},
		{`{"state":"aborting","files":[{"path":"a/b","staged":"0","made":"c"}]}`, "not a directory of a/b", false},
	} {
		dir := plantRun(t, root, "run-2", tc.journal)
		err := Check(root)
		var ie *InterruptedError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), Dir+"/run-2") ||
			errors.As(err, &ie) && (ie.Undoing != tc.undoing || ie.Alive) {
			t.Errorf("%s: %v", tc.journal, err)
		}
		os.RemoveAll(dir)
	}
}

// TestCheckAlive holds a committed run's lock, as its process does while
// it writes: Check says another opm is writing, and Recover leaves it.
func TestCheckAlive(t *testing.T) {
	root := t.TempDir()
	dir := plantRun(t, root, "run-1", `{"state":"committed","files":[]}`)
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if free, err := tryLock(lock); err != nil || !free {
		t.Fatalf("tryLock: %v, %v", free, err)
	}
	var ie *InterruptedError
	locks := lockable(t)
	if err := Check(root); !errors.As(err, &ie) || ie.Alive != locks {
		t.Errorf("Check of a run alive: %v", err)
	}
	if _, err := Recover(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); locks && err != nil {
		t.Errorf("Recover removed a run alive: %v", err)
	}
}

// TestRecoverRefusesOutsideRoot plants a journal naming a file outside
// the repository: Recover refuses it and touches nothing.
func TestRecoverRefusesOutsideRoot(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	os.WriteFile(filepath.Join(top, "outside"), []byte("mine\n"), 0o644)
	dir := plantRun(t, root, "run-1", `{"state":"committed","files":[{"path":"../outside","staged":"0"}]}`)
	os.WriteFile(filepath.Join(dir, "0"), []byte("theirs\n"), 0o644)
	if _, err := Recover(root); err == nil || !strings.Contains(err.Error(), "not a path inside the repository") {
		t.Errorf("Recover: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(top, "outside")); string(data) != "mine\n" {
		t.Errorf("outside: %q", data)
	}
}
