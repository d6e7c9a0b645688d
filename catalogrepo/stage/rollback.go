package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
)

// What putting a file back found.
type putBackResult int

const (
	alreadyBack putBackResult = iota // the file already held its old text (or did not exist)
	nowBack                          // the run's text was replaced by the old one (or removed)
	handEdited                       // the file holds neither: changed by hand, left as it is
)

// abort undoes the run after a rename failed. The journal says so first,
// durably, so that a run killed while putting files back is undone by
// Recover, not finished; if it cannot, the run stays committed, its
// directory kept for Recover to finish.
func (w writer) abort(r *run) error {
	if err := r.setState(aborting); err != nil {
		r.keep = true
		return fmt.Errorf("could not undo the files already written (the next recovery finishes the run): %w", err)
	}
	w.hook("aborting")
	var errs []error
	for i, e := range r.entries {
		res, err := r.putBack(e)
		switch {
		case err != nil:
			r.keep = true // the journal says what is left to put back
			errs = append(errs, fmt.Errorf("could not restore %s: %w", e.Path, err))
		case res == handEdited:
			errs = append(errs, fmt.Errorf("could not restore %s: it has changed since opm wrote it, and is left as it is", e.Path))
		case res == nowBack:
			w.hook("restored " + strconv.Itoa(i))
		}
	}
	if !r.keep {
		w.hook("restored")
		r.retire(undone, w.hook) // a file changed by hand is the user's
	}
	return errors.Join(errs...)
}

// putBack makes an entry's target what it was before the run: the kept
// text renamed back over the one the run wrote, or the new file the run
// made removed, with the directories made for it. A target that holds
// neither its old text nor the run's is left alone. Putting back twice
// is putting back once, so Recover can undo a run killed midway.
func (r *run) putBack(e entry) (putBackResult, error) {
	target := r.target(e.Path)
	if same, err := sameDigest(target, e.Old); err != nil {
		return 0, err
	} else if same {
		if e.Old == "" {
			r.removeMade(e) // killed between the file and its directories
		}
		return alreadyBack, nil
	}
	if same, err := sameDigest(target, e.New); err != nil {
		return 0, err
	} else if !same {
		return handEdited, nil
	}
	if e.Old != "" {
		return nowBack, os.Rename(r.oldPath(e), target)
	}
	if err := os.Remove(target); err != nil {
		return 0, err
	}
	r.removeMade(e)
	return nowBack, nil
}

// removeMade removes, innermost first, the directories the run made for
// a new file, each only if it is empty.
func (r *run) removeMade(e entry) {
	if e.Made == "" {
		return
	}
	for d := path.Dir(e.Path); d != "."; d = path.Dir(d) {
		if err := os.Remove(r.target(d)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return // not empty: something else is there now
		}
		if d == e.Made {
			return
		}
	}
}
