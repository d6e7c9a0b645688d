package author

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sync/errgroup"
)

// ErrNotWritten is returned by ApplyContext when its context ends before
// the first file is written: the repository is as it was.
var ErrNotWritten = errors.New("nothing was written")

// Apply writes every change, or none; see ApplyContext.
func (p *Plan) Apply() error { return p.ApplyContext(context.Background()) }

// ApplyContext writes every change, or none, even if the process is killed
// midway:
//
//  1. each new text is written to a staging directory of its own under
//     StagingDir (never beside the catalogs, where readers would take it
//     for one), after checking that its target is still as it was read;
//  2. a journal naming every staged file and its target is written there:
//     from then on the run is committed, and ctx is no longer consulted;
//  3. the staged files are renamed into place, one by one, and the staging
//     directory is removed.
//
// A run killed before step 2 has changed nothing; one killed after it is
// finished by the next run's Repo.Recover. A target that changed on disk
// since it was read stops everything before step 2. If ctx ends before
// step 2, nothing is written and the error wraps ErrNotWritten. A rename
// that fails puts back the files already replaced.
func (p *Plan) ApplyContext(ctx context.Context) error {
	if len(p.Changes) == 0 {
		return nil
	}
	run, err := startRun(p.Root)
	if err != nil {
		return err
	}
	defer run.close()
	if err := p.stageAll(run); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", context.Cause(ctx), ErrNotWritten)
	}
	if err := run.commit(); err != nil {
		return err
	}
	p.hook("committed")
	for i, e := range run.entries {
		if err := e.moveIntoPlace(run); err != nil {
			return errors.Join(fmt.Errorf("writing %s: %w", e.Path, err), p.restore(run, i))
		}
		p.hook("renamed " + strconv.Itoa(i))
	}
	return nil
}

// hook calls the test hook, if any.
func (p *Plan) hook(step string) {
	if p.step != nil {
		p.step(step)
	}
}

// stageAll writes every change's new text to the run's directory, four at
// a time, and records it in the run's entries, in the plan's order.
func (p *Plan) stageAll(run *stagingRun) error {
	run.entries = make([]journalEntry, len(p.Changes))
	errs := make([]error, len(p.Changes))
	var g errgroup.Group
	g.SetLimit(4)
	for i, c := range p.Changes {
		g.Go(func() error {
			run.entries[i], errs[i] = p.stage(run, i, c)
			if errs[i] == nil {
				p.hook("staged " + strconv.Itoa(i))
			}
			return nil // every change is staged, even after one fails
		})
	}
	_ = g.Wait()
	return errors.Join(errs...)
}

// stage checks that a change's target is as it was read, keeps its text
// beside the staged one (to put it back if a rename fails) and writes the
// new text to the run's directory.
func (p *Plan) stage(run *stagingRun, i int, c FileChange) (journalEntry, error) {
	e := journalEntry{Path: c.Path, Staged: strconv.Itoa(i), Mode: 0o644}
	target := run.target(c.Path)
	if c.Created {
		if _, err := os.Stat(target); err == nil {
			return e, fmt.Errorf("%s changed while opm was working on it: nothing was written; run the command again", c.Path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return e, fmt.Errorf("reading %s: %w", c.Path, err)
		}
	} else {
		mode, sum, err := keepOld(target, run.oldPath(e))
		switch {
		case errors.Is(err, fs.ErrNotExist) || (err == nil && sum != c.old):
			return e, fmt.Errorf("%s changed while opm was working on it: nothing was written; run the command again", c.Path)
		case err != nil:
			return e, fmt.Errorf("reading %s: %w", c.Path, err)
		}
		e.Old, e.Mode = c.old, mode
	}
	if err := writeText(filepath.Join(run.dir, e.Staged), c.new, e.Mode); err != nil {
		return e, fmt.Errorf("writing %s: %w", c.Path, err)
	}
	return e, nil
}

// restore puts the files the run replaced before entry n back (and
// removes new ones), after a failed rename; the run is then abandoned,
// not finished by a later Recover.
func (p *Plan) restore(run *stagingRun, n int) error {
	var errs []error
	for i, e := range run.entries[:n] {
		target := run.target(e.Path)
		if p.Changes[i].Created {
			if err := os.Remove(target); err != nil {
				errs = append(errs, fmt.Errorf("could not remove %s: %w", e.Path, err))
			}
			continue
		}
		if err := os.Rename(run.oldPath(e), target); err != nil {
			errs = append(errs, fmt.Errorf("could not restore %s: %w", e.Path, err))
		}
	}
	if err := run.uncommit(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// writeSynced writes data to a new file and syncs it.
func writeSynced(name string, data []byte, mode fs.FileMode) error {
	return writeText(name, text{data}, mode)
}
