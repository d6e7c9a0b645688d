package stage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The states a journal records. A run with no journal has not committed:
// it has changed nothing.
const (
	// committed: every new text is staged and the run is moving them into
	// place; a killed run is finished by Recover.
	committed = "committed"
	// aborting: a rename failed and the run is putting back the texts it
	// replaced; a killed run is undone by Recover.
	aborting = "aborting"
)

// journalFile is the journal's name in a run's directory.
const journalFile = "journal"

// journal is what a run that has committed records, so that Recover can
// finish or undo it.
type journal struct {
	State string  `json:"state"`
	Files []entry `json:"files"`
}

// entry is one file of a run.
type entry struct {
	Path   string `json:"path"`          // the target, relative to the root, slash-separated
	Staged string `json:"staged"`        // the staged text's name in the run's directory
	Old    string `json:"old,omitempty"` // digest of the text replaced; empty for a new file
	// New is the staged text's digest (absent from the journals of older
	// releases, which never abort).
	New string `json:"new,omitempty"`
	// Made is the outermost directory, root-relative, that moving a new
	// file into place makes ("" when its directory exists): undoing the
	// run removes it again.
	Made string      `json:"made,omitempty"`
	Mode fs.FileMode `json:"mode"`
}

// writeJournal writes a run's journal in its directory, durably: a new
// file, synced, renamed over the old one.
func writeJournal(dir string, j journal) error {
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, journalFile+".new")
	os.Remove(tmp) // left by an earlier attempt
	if _, err := writeText(tmp, Text{data}, 0o644); err != nil {
		return fmt.Errorf("writing the staging journal: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, journalFile)); err != nil {
		return fmt.Errorf("writing the staging journal: %w", err)
	}
	return syncDir(dir)
}

// readJournal reads a run's journal; an error wrapping fs.ErrNotExist
// when the run never committed. The journals of older releases, a bare
// list of files, are committed runs.
func readJournal(dir string) (journal, error) {
	var j journal
	data, err := os.ReadFile(filepath.Join(dir, journalFile))
	if err != nil {
		return j, err
	}
	if bytes.HasPrefix(data, []byte("[")) {
		j.State = committed
		err = json.Unmarshal(data, &j.Files)
	} else {
		err = json.Unmarshal(data, &j)
	}
	if err != nil {
		return j, fmt.Errorf("reading its journal: %w", err)
	}
	if j.State != committed && j.State != aborting {
		return j, fmt.Errorf("reading its journal: unknown state %q", j.State)
	}
	for _, e := range j.Files {
		if err := e.check(); err != nil {
			return j, fmt.Errorf("reading its journal: %w", err)
		}
	}
	return j, nil
}

// check refuses an entry that names a file outside the repository or the
// run's directory: a journal is read from the repository, whose files
// anyone who can open a pull request writes.
func (e entry) check() error {
	if !isLocal(e.Path) {
		return fmt.Errorf("%q is not a path inside the repository", e.Path)
	}
	if e.Made != "" && (!isLocal(e.Made) || !strings.HasPrefix(e.Path, e.Made+"/")) {
		return fmt.Errorf("%q is not a directory of %s", e.Made, e.Path)
	}
	if e.Staged == "" || strings.Trim(e.Staged, "0123456789") != "" {
		return fmt.Errorf("%q is not a staged file's name", e.Staged)
	}
	return nil
}

// isLocal reports whether p is a clean slash-separated path inside the
// directory it is relative to.
func isLocal(p string) bool {
	return filepath.IsLocal(filepath.FromSlash(p)) && path.Clean(p) == p
}
