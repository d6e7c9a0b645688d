package author

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc64"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// StagingDir is the directory, relative to the repository root, under
// which Plan.Apply writes new texts before moving them into place: one
// directory per run, removed when the run ends or, if the run was killed,
// by the next run's Repo.Recover. It is outside operators/ and catalogs/,
// so no reader of templates or catalogs ever sees a staged file, and on
// the repository's file system, so moving a file into place is one atomic
// rename.
const StagingDir = ".opm-staging"

// The files of a run's staging directory besides the staged texts.
const (
	journalFile = "journal"
	lockFile    = "lock"
)

// journalEntry is one file of a committed run.
type journalEntry struct {
	Path   string      `json:"path"`          // the target, relative to the root, slash-separated
	Staged string      `json:"staged"`        // the staged text's name in the run's directory
	Old    string      `json:"old,omitempty"` // digest of the text replaced; empty for a new file
	Mode   fs.FileMode `json:"mode"`
}

// stagingRun is the staging directory of one Apply.
type stagingRun struct {
	root, dir string
	lock      *os.File // held while the run is alive, so Recover leaves it alone
	entries   []journalEntry
}

// digest identifies a text well enough to tell whether a file was edited
// since a run read it (CRC-64 and length: fast on catalogs of megabytes;
// no adversary is involved).
func digest(data []byte) string {
	return digestOf(crc64.Checksum(data, crcTable), int64(len(data)))
}

var crcTable = crc64.MakeTable(crc64.ECMA)

// startRun makes a new staging directory under root and locks it.
func startRun(root string) (*stagingRun, error) {
	base := filepath.Join(root, StagingDir)
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, fmt.Errorf("making the staging directory: %w", err)
	}
	dir, err := os.MkdirTemp(base, "run-")
	if err != nil {
		return nil, fmt.Errorf("making the staging directory: %w", err)
	}
	run := &stagingRun{root: root, dir: dir}
	run.lock, err = os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err == nil {
		_, err = tryLock(run.lock)
	}
	if err != nil {
		run.close()
		return nil, fmt.Errorf("locking the staging directory: %w", err)
	}
	return run, nil
}

// target is the path of a root-relative file.
func (run *stagingRun) target(rel string) string {
	return filepath.Join(run.root, filepath.FromSlash(rel))
}

// oldPath is where the run keeps the text an entry's target had.
func (run *stagingRun) oldPath(e journalEntry) string {
	return filepath.Join(run.dir, e.Staged+".old")
}

// commit writes the journal: from then on the run is finished by Recover
// if it is killed.
func (run *stagingRun) commit() error {
	data, err := json.Marshal(run.entries)
	if err != nil {
		return err
	}
	tmp := filepath.Join(run.dir, journalFile+".new")
	if err := writeSynced(tmp, data, 0o644); err != nil {
		return fmt.Errorf("writing the staging journal: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(run.dir, journalFile)); err != nil {
		return fmt.Errorf("writing the staging journal: %w", err)
	}
	return syncDir(run.dir)
}

// uncommit removes the journal of a run that is abandoned.
func (run *stagingRun) uncommit() error {
	if err := os.Remove(filepath.Join(run.dir, journalFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("abandoning the staged files: %w", err)
	}
	return nil
}

// close removes the run's directory (the journal first, so that a run
// killed meanwhile is not finished again), and the staging directory if
// no other run uses it.
func (run *stagingRun) close() {
	os.Remove(filepath.Join(run.dir, journalFile))
	os.RemoveAll(run.dir)
	if run.lock != nil {
		run.lock.Close()
	}
	os.Remove(filepath.Dir(run.dir)) // only if empty
}

// moveIntoPlace renames the entry's staged text over its target.
func (e journalEntry) moveIntoPlace(run *stagingRun) error {
	target := run.target(e.Path)
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	return os.Rename(filepath.Join(run.dir, e.Staged), target)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	d.Sync() // not every file system syncs directories; the rename is what matters
	return nil
}

// staleAge is how old a staging directory without a lock must be before
// Recover removes it (one being made has no lock for an instant).
const staleAge = time.Minute

// sameDigest reports whether a file holds the text of a digest ("" for a
// file that does not exist).
func sameDigest(name, want string) (bool, error) {
	_, got, err := fileDigest(name)
	if errors.Is(err, fs.ErrNotExist) {
		return want == "", nil
	}
	if err != nil {
		return false, err
	}
	return want != "" && got == want, nil
}

// sameFile reports whether file a holds the bytes of file b (false when
// a does not exist).
func sameFile(a, b string) (bool, error) {
	db, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	_, same, err := holds(a, db)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return same, err
}
