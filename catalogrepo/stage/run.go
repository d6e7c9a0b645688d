package stage

import (
	"fmt"
	"os"
	"path/filepath"
)

// Dir is the directory, relative to the repository root, under which
// Write stages new texts before moving them into place: one directory per
// run, removed when the run ends or, if the run was killed, by the next
// Recover. It is outside operators/ and catalogs/, so no reader of
// templates or catalogs ever sees a staged file, and on the repository's
// file system, so moving a file into place is one atomic rename.
const Dir = ".opm-staging"

// lockFile is the lock a run holds in its directory while it is alive.
const lockFile = "lock"

// run is the staging directory of one Write, or of a killed one that
// Recover finishes.
type run struct {
	root, dir string
	lock      *os.File // held while the run is alive, so Recover leaves it alone
	entries   []entry
	// keep says the run's directory must outlive it: a rename back failed,
	// and the journal says what Recover has to finish or undo.
	keep bool
	// retired says the run has ended and its directory is gone (see
	// retire).
	retired bool
}

// startRun makes a new staging directory under root and locks it.
func startRun(root string) (*run, error) {
	base := filepath.Join(root, Dir)
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, fmt.Errorf("making the staging directory: %w", err)
	}
	dir, err := os.MkdirTemp(base, runPrefix)
	if err != nil {
		return nil, fmt.Errorf("making the staging directory: %w", err)
	}
	r := &run{root: root, dir: dir}
	r.lock, err = os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err == nil {
		_, err = tryLock(r.lock)
	}
	if err != nil {
		r.close()
		return nil, fmt.Errorf("locking the staging directory: %w", err)
	}
	return r, nil
}

// target is the path of a root-relative file.
func (r *run) target(rel string) string {
	return filepath.Join(r.root, filepath.FromSlash(rel))
}

// stagedPath is where the run stages an entry's new text.
func (r *run) stagedPath(e entry) string {
	return filepath.Join(r.dir, e.Staged)
}

// oldPath is where the run keeps the text an entry's target had.
func (r *run) oldPath(e entry) string {
	return filepath.Join(r.dir, e.Staged+".old")
}

// setState writes the run's journal in state (committed, then aborting
// if a rename fails), durably.
func (r *run) setState(state string) error {
	return writeJournal(r.dir, journal{State: state, Files: r.entries})
}

// moveIntoPlace renames an entry's staged text over its target.
func (r *run) moveIntoPlace(e entry) error {
	target := r.target(e.Path)
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	return os.Rename(r.stagedPath(e), target)
}

// close removes the directory of a run that did not commit (the journal
// first, should a failed write have left one) unless it must be kept or
// is already gone (retire), and the staging directory if no other run
// uses it.
func (r *run) close() {
	if !r.keep && !r.retired {
		os.Remove(filepath.Join(r.dir, journalFile))
		os.RemoveAll(r.dir)
	}
	if r.lock != nil {
		r.lock.Close()
	}
	os.Remove(filepath.Dir(r.dir)) // only if empty
}
