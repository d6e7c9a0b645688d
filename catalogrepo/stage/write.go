package stage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"

	"github.com/fbcat/opm/internal/parallel"
)

// File is one file Write writes.
type File struct {
	Path string // relative to the repository root, slash-separated
	// Old is the Digest of the text the file holds, which Write replaces;
	// "" for a file that does not exist yet.
	Old  string
	Text Text // the new text
}

// ErrNotWritten is returned by Write when its context ends before the
// first file is written: the repository is as it was.
var ErrNotWritten = errors.New("nothing was written")

// Write writes every file under root, or none, even if the process is
// killed midway:
//
//  1. each new text is written to a staging directory of its own under
//     Dir, four at a time, after checking that its target still holds
//     the text of Old (a replaced text is kept beside the new one);
//  2. a journal naming every staged file and its target is written
//     there: from then on the run is committed, and ctx is no longer
//     consulted;
//  3. the staged files are renamed into place, one by one;
//  4. the run's directory is renamed to say that the run is done, and
//     then removed (see retire).
//
// A run killed before step 2 has changed nothing; one killed after it is
// finished by the next Recover; one killed in step 4 is written, and the
// next Recover says so. A target that changed since its Old was
// read stops everything before step 2: every file is staged, and the
// errors of all that failed are joined in the files' order. If ctx ends
// before step 2, nothing is written and the error wraps ErrNotWritten.
//
// A rename that fails undoes the run: the journal is marked aborting
// (durably, before anything is put back), the kept texts are renamed back
// over the new ones and new files removed, with the directories made for
// them. A run killed meanwhile is undone by the next Recover. A file
// changed by hand since the run wrote it is left as it is and named in
// the error; a file that cannot be put back leaves the staging directory
// to Recover.
func Write(ctx context.Context, root string, files []File) error {
	return writer{}.write(ctx, root, files)
}

// writer is Write with a hook for tests.
type writer struct {
	// step, when set, is called at each step ("staged <i>", "committed",
	// "renamed <i>"; after a failed rename "aborting", "restored <i>" for
	// each file put back, "restored"): tests kill the process there.
	step func(name string)
}

// hook calls the test hook, if any.
func (w writer) hook(step string) {
	if w.step != nil {
		w.step(step)
	}
}

func (w writer) write(ctx context.Context, root string, files []File) error {
	if len(files) == 0 {
		return nil
	}
	r, err := startRun(root)
	if err != nil {
		return err
	}
	defer r.close()
	if err := w.stageAll(ctx, r, files); err != nil {
		return err
	}
	if err := r.setState(committed); err != nil {
		return err
	}
	w.hook("committed")
	for i, e := range r.entries {
		if err := r.moveIntoPlace(e); err != nil {
			return errors.Join(fmt.Errorf("writing %s: %w", e.Path, err), w.abort(r))
		}
		w.hook("renamed " + strconv.Itoa(i))
	}
	r.retire(done, w.hook)
	return nil
}

// stageAll stages every file, four at a time, and records them in the
// run's entries, in the files' order.
func (w writer) stageAll(ctx context.Context, r *run, files []File) error {
	r.entries = make([]entry, len(files))
	err := parallel.DoAll(ctx, len(files), 4, func(i int) error {
		e, err := r.stage(i, files[i])
		if err != nil {
			return err
		}
		r.entries[i] = e
		w.hook("staged " + strconv.Itoa(i))
		return nil
	})
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", context.Cause(ctx), ErrNotWritten)
	}
	return err
}

// stage checks that a file's target is as it was read, keeps its text
// beside the staged one (to put it back if a rename fails) and writes the
// new text to the run's directory.
func (r *run) stage(i int, f File) (entry, error) {
	e := entry{Path: f.Path, Staged: strconv.Itoa(i), Mode: 0o644}
	if !isLocal(f.Path) {
		return e, fmt.Errorf("writing %s: not a path inside the repository", f.Path)
	}
	changed := fmt.Errorf("%s changed while opm was working on it: nothing was written; run the command again", f.Path)
	target := r.target(f.Path)
	if f.Old == "" {
		if _, err := os.Stat(target); err == nil {
			return e, changed
		} else if !errors.Is(err, fs.ErrNotExist) {
			return e, fmt.Errorf("reading %s: %w", f.Path, err)
		}
		e.Made = r.missingDir(f.Path)
	} else {
		mode, sum, err := keepOld(target, r.oldPath(e))
		switch {
		case errors.Is(err, fs.ErrNotExist) || (err == nil && sum != f.Old):
			return e, changed
		case err != nil:
			return e, fmt.Errorf("reading %s: %w", f.Path, err)
		}
		e.Old, e.Mode = f.Old, mode
	}
	sum, err := writeText(r.stagedPath(e), f.Text, e.Mode)
	if err != nil {
		return e, fmt.Errorf("writing %s: %w", f.Path, err)
	}
	e.New = sum
	return e, nil
}

// missingDir is the outermost directory of the root-relative file rel
// that does not exist ("" when its directory does).
func (r *run) missingDir(rel string) string {
	made := ""
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		if _, err := os.Stat(r.target(d)); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = d
	}
	return made
}
