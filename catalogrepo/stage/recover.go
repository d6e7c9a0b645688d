package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Recovery is what Recover did with the runs of Write that were killed.
type Recovery struct {
	// Finished lists the files of interrupted runs that had been committed:
	// all of them are now written (Moved of them by Recover).
	Finished []string
	Moved    int
	// Undone lists the files of interrupted runs that had failed and were
	// putting back what they had replaced: all of them are now as they
	// were before the run (PutBack of them put back by Recover).
	Undone  []string
	PutBack int
	// Discarded counts the runs killed before they had written anything:
	// their staged files were removed and the repository is as before.
	Discarded int
	// Written counts the runs killed after they had written every file,
	// while removing their staging directories; WrittenFiles lists their
	// files where their journals were still there to say. Putback counts
	// the runs killed likewise after a failed run had put back every
	// file it had replaced.
	Written      int
	WrittenFiles []string
	Putback      int
	// Conflicts lists files of committed runs that have changed since and
	// were left as they are; NotPutBack, those of runs being undone.
	Conflicts  []string
	NotPutBack []string
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
			len(r.Finished)-r.Moved, files(len(r.Finished)), strings.Join(r.Finished, ", ")))
	}
	if len(r.Undone) > 0 {
		notes = append(notes, fmt.Sprintf("an interrupted opm run that had failed is now undone: the repository is as it was before it (%d of its %s put back now: %s)",
			r.PutBack, files(len(r.Undone)), strings.Join(r.Undone, ", ")))
	}
	if r.Written > 0 {
		list := ""
		if len(r.WrittenFiles) > 0 {
			list = " (" + strings.Join(r.WrittenFiles, ", ") + ")"
		}
		notes = append(notes, fmt.Sprintf("%s killed after writing every file%s, before %s staging files were removed: the repository is fully written; the staging files are removed now",
			runs(r.Written, "an opm run was", "opm runs were"), list, runs(r.Written, "its", "their")))
	}
	if r.Putback > 0 {
		notes = append(notes, fmt.Sprintf("%s that had failed %s killed after putting back every file %s had replaced, before %s staging files were removed: the repository is as it was before; the staging files are removed now",
			runs(r.Putback, "an opm run", "opm runs"), runs(r.Putback, "was", "were"), runs(r.Putback, "it", "they"), runs(r.Putback, "its", "their")))
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
	if len(r.NotPutBack) > 0 {
		notes = append(notes, "an interrupted opm run that had failed did not put back these files, which have changed since it wrote them: "+strings.Join(r.NotPutBack, ", "))
	}
	if len(r.Leftovers) > 0 {
		notes = append(notes, "removed temporary files an interrupted run of an older opm left beside the catalogs and templates: "+strings.Join(r.Leftovers, ", "))
	}
	return notes
}

// runs is one or many, as n is 1 or more (many with n in front when
// it has a %d).
func runs(n int, one, many string) string {
	if n == 1 {
		return one
	}
	if strings.Contains(many, "%d") {
		return fmt.Sprintf(many, n)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// files is "1 file", "2 files".
func files(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

// Recover finishes, undoes or discards what runs of Write that were
// killed left under root in Dir: a run killed after committing is
// finished (its remaining files moved into place), one killed while
// undoing a failed rename is undone (every file as before the run), one
// killed before committing is discarded (the repository never saw it).
// Runs still alive are left alone. The temporary files older opm releases
// wrote beside catalogs and templates (".catalog.yaml.opm-123456"), which
// a killed run of theirs left, are removed.
func Recover(root string) (Recovery, error) {
	var rec Recovery
	var errs []error
	var err error
	if rec.Leftovers, err = removeLeftovers(root); err != nil {
		errs = append(errs, err)
	}
	base := filepath.Join(root, Dir)
	entries, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, errors.Join(errs...)
	}
	if err != nil {
		return rec, errors.Join(append(errs, fmt.Errorf("reading %s: %w", Dir, err))...)
	}
	for _, e := range entries {
		r := &run{root: root, dir: filepath.Join(base, e.Name())}
		resolve := r.resolve
		if outcome := outcomeOf(e.Name()); outcome != "" {
			resolve = func(rec *Recovery) error { return r.resolveEnded(outcome, rec) }
		}
		if err := resolve(&rec); err != nil {
			errs = append(errs, fmt.Errorf("recovering %s/%s: %w", Dir, e.Name(), err))
		}
	}
	os.Remove(base) // only if empty
	return rec, errors.Join(errs...)
}

// staleAge is how old a staging directory without a lock must be before
// Recover removes it (one being made has no lock for an instant).
const staleAge = time.Minute

// resolve finishes, undoes or discards a killed run, unless it is alive.
func (r *run) resolve(rec *Recovery) error {
	leftBefore := len(rec.Conflicts) + len(rec.NotPutBack) // files left as they are
	lock, err := os.OpenFile(filepath.Join(r.dir, lockFile), os.O_RDWR, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if st, err := os.Stat(r.dir); err != nil || time.Since(st.ModTime()) < staleAge {
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
	j, err := readJournal(r.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		rec.Discarded++
		err = nil
	case err != nil:
		return err
	case j.State == aborting:
		r.entries = j.Files
		err = r.undo(rec)
	default:
		r.entries = j.Files
		err = r.rollForward(rec)
	}
	if err != nil {
		return err
	}
	switch {
	case j.State == "":
		os.RemoveAll(r.dir) // never committed: its name says so
	case len(rec.Conflicts)+len(rec.NotPutBack) > leftBefore:
		r.retire(resolved, func(string) {})
	case j.State == aborting:
		r.retire(undone, func(string) {})
	default:
		r.retire(done, func(string) {})
	}
	if r.keep {
		return fmt.Errorf("could not remove %s", r.dir)
	}
	return nil
}

// resolveEnded removes the directory of a run that had ended (done or
// undone, as its name says) when it was killed removing it, and records
// what the run did; one still alive is left alone.
func (r *run) resolveEnded(outcome string, rec *Recovery) error {
	lock, err := os.OpenFile(filepath.Join(r.dir, lockFile), os.O_RDWR, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist): // removed last: the directory is empty
	case err != nil:
		return err
	default:
		defer lock.Close()
		if free, err := tryLock(lock); err != nil || !free {
			return err // alive, removing it now
		}
	}
	switch outcome {
	case done:
		rec.Written++
		if j, err := readJournal(r.dir); err == nil {
			for _, e := range j.Files {
				rec.WrittenFiles = append(rec.WrittenFiles, e.Path)
			}
		}
	case undone:
		rec.Putback++
	}
	r.retire(outcome, func(string) {})
	return nil
}

// rollForward moves every staged file still in the run's directory into
// place, unless its target has changed since the run read it.
func (r *run) rollForward(rec *Recovery) error {
	for _, e := range r.entries {
		if _, err := os.Stat(r.stagedPath(e)); errors.Is(err, fs.ErrNotExist) {
			rec.Finished = append(rec.Finished, e.Path) // moved before the run was killed
			continue
		}
		target := r.target(e.Path)
		if same, err := sameFile(target, r.stagedPath(e)); err != nil {
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
		if err := r.moveIntoPlace(e); err != nil {
			return fmt.Errorf("writing %s: %w", e.Path, err)
		}
		rec.Finished = append(rec.Finished, e.Path)
		rec.Moved++
	}
	return nil
}

// undo puts back every file of a run killed while it was undoing itself;
// a file changed since the run wrote it is left as it is.
func (r *run) undo(rec *Recovery) error {
	var errs []error
	for _, e := range r.entries {
		res, err := r.putBack(e)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("putting back %s: %w", e.Path, err))
		case res == handEdited:
			rec.NotPutBack = append(rec.NotPutBack, e.Path)
		default:
			rec.Undone = append(rec.Undone, e.Path)
			if res == nowBack {
				rec.PutBack++
			}
		}
	}
	return errors.Join(errs...)
}
