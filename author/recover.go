package author

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Recovery is what Recover did with the runs of Plan.Apply that were
// killed.
type Recovery struct {
	// Finished lists the files of interrupted runs that had been committed:
	// all of them are now written (Moved of them by Recover).
	Finished []string
	Moved    int
	// Discarded counts the runs killed before they had written anything:
	// their staged files were removed and the repository is as before.
	Discarded int
	// Conflicts lists files of committed runs that have changed since and
	// were left as they are.
	Conflicts []string
	// Leftovers lists the temporary files of older opm releases
	// (".catalog.yaml.opm-123456") that Recover removed.
	Leftovers []string
}

// Notes says in sentences what Recover did; none when there was nothing
// to recover.
func (r Recovery) Notes() []string {
	var notes []string
	if len(r.Finished) > 0 {
		notes = append(notes, fmt.Sprintf("an interrupted opm run is now complete: it had written %d of its %s, the rest are written now (%s)",
			len(r.Finished)-r.Moved, Plural(len(r.Finished), "file"), strings.Join(r.Finished, ", ")))
	}
	switch {
	case r.Discarded == 1:
		notes = append(notes, "an opm run was interrupted before writing anything: the repository is as it was; its staged files are removed")
	case r.Discarded > 1:
		notes = append(notes, fmt.Sprintf("%d opm runs were interrupted before writing anything: the repository is as it was; their staged files are removed", r.Discarded))
	}
	if len(r.Conflicts) > 0 {
		notes = append(notes, "an interrupted opm run did not write these files, which have changed since: "+strings.Join(r.Conflicts, ", "))
	}
	if len(r.Leftovers) > 0 {
		notes = append(notes, "removed temporary files an interrupted run of an older opm left beside the catalogs and templates: "+strings.Join(r.Leftovers, ", "))
	}
	return notes
}

// Recover finishes or discards what runs of Plan.Apply that were killed
// left in StagingDir: a run killed after committing is finished (its
// remaining files moved into place), one killed before is discarded (the
// repository never saw it). Runs still alive are left alone. The
// temporary files older opm releases wrote beside catalogs and templates
// (".catalog.yaml.opm-123456"), which a killed run of theirs left, are
// removed.
func (r *Repo) Recover() (Recovery, error) {
	var rec Recovery
	var errs []error
	var err error
	if rec.Leftovers, err = r.removeLeftovers(); err != nil {
		errs = append(errs, err)
	}
	base := r.path(StagingDir)
	entries, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, errors.Join(errs...)
	}
	if err != nil {
		return rec, errors.Join(append(errs, fmt.Errorf("reading %s: %w", StagingDir, err))...)
	}
	for _, e := range entries {
		if err := r.recoverRun(filepath.Join(base, e.Name()), &rec); err != nil {
			errs = append(errs, fmt.Errorf("recovering %s/%s: %w", StagingDir, e.Name(), err))
		}
	}
	os.Remove(base) // only if empty
	return rec, errors.Join(errs...)
}

// recoverRun finishes or discards one run's directory, unless its run is
// alive.
func (r *Repo) recoverRun(dir string, rec *Recovery) error {
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if st, err := os.Stat(dir); err != nil || time.Since(st.ModTime()) < staleAge {
			return nil // just made, or gone
		}
	case err != nil:
		return err
	default:
		defer lock.Close()
		if free, err := tryLock(lock); err != nil || !free {
			return err // alive
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, journalFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		rec.Discarded++
	case err != nil:
		return err
	default:
		var entries []journalEntry
		if err := json.Unmarshal(data, &entries); err != nil {
			return fmt.Errorf("reading its journal: %w", err)
		}
		run := &stagingRun{root: r.Root, dir: dir, entries: entries}
		if err := run.rollForward(rec); err != nil {
			return err
		}
	}
	os.Remove(filepath.Join(dir, journalFile))
	return os.RemoveAll(dir)
}

// rollForward moves every staged file still in the run's directory into
// place, unless its target has changed since the run read it.
func (run *stagingRun) rollForward(rec *Recovery) error {
	for _, e := range run.entries {
		if _, err := os.Stat(filepath.Join(run.dir, e.Staged)); errors.Is(err, fs.ErrNotExist) {
			rec.Finished = append(rec.Finished, e.Path) // moved before the run was killed
			continue
		}
		target := run.target(e.Path)
		if same, err := sameFile(target, filepath.Join(run.dir, e.Staged)); err != nil {
			return err
		} else if same {
			rec.Finished = append(rec.Finished, e.Path)
			continue
		}
		if same, err := sameDigest(target, e.Old); err != nil {
			return err
		} else if !same {
			rec.Conflicts = append(rec.Conflicts, e.Path)
			continue
		}
		if err := e.moveIntoPlace(run); err != nil {
			return fmt.Errorf("writing %s: %w", e.Path, err)
		}
		rec.Finished = append(rec.Finished, e.Path)
		rec.Moved++
	}
	return nil
}
