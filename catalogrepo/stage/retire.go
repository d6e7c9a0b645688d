package stage

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// How a run ended, as the name of its directory says once it has: the
// directory of a run is renamed from "run-<id>" to "<outcome>-<id>" in one
// atomic step when the run has ended, before anything in it is removed,
// so that a process killed while removing it leaves a name that says
// truthfully what the run did. A "run-" directory without a journal is a
// run that never committed: it changed nothing.
const (
	runPrefix = "run-"
	// done: every file of a committed run is in place.
	done = "done"
	// undone: a run that had failed put back every file it had replaced;
	// the repository is as it was before it.
	undone = "undone"
	// resolved: Recover finished or undid a run but for files changed by
	// hand since, which it named and left as they are.
	resolved = "resolved"
)

// outcomeOf is the outcome a staging directory's name records ("" for a
// run that has not ended).
func outcomeOf(name string) string {
	for _, o := range []string{done, undone, resolved} {
		if strings.HasPrefix(name, o+"-") {
			return o
		}
	}
	return ""
}

// retire records that the run ended with outcome (renaming its
// directory), then removes the directory: the kept texts first, then the
// journal (which names the run's files for a note, if the process is
// killed before), then the lock, then the directory itself. step is
// called after the rename (with the outcome) and after each removal
// ("removed <name>"). A directory that cannot be renamed is kept: its
// journal still says what Recover must do.
func (r *run) retire(outcome string, step func(string)) {
	to := filepath.Join(filepath.Dir(r.dir), outcome+"-"+strings.TrimPrefix(filepath.Base(r.dir), runPrefix))
	if outcomeOf(filepath.Base(r.dir)) == "" {
		if err := os.Rename(r.dir, to); err != nil {
			r.keep = true
			return
		}
		r.dir = to
	}
	r.retired = true
	step(outcome)
	names, _ := os.ReadDir(r.dir)
	rank := func(name string) int {
		switch name {
		case journalFile:
			return 1
		case lockFile:
			return 2
		}
		return 0
	}
	slices.SortStableFunc(names, func(a, b fs.DirEntry) int { return rank(a.Name()) - rank(b.Name()) })
	for _, e := range names {
		if err := os.RemoveAll(filepath.Join(r.dir, e.Name())); err == nil {
			step("removed " + e.Name())
		}
	}
	if err := os.Remove(r.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		os.RemoveAll(r.dir)
	}
}
