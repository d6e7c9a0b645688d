package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// InterruptedError is Check's answer for a repository that a run of Write
// left half-written: some files new, some old.
type InterruptedError struct {
	Dir   string // the run's directory, root-relative (".opm-staging/run-123")
	Alive bool   // the run is still writing (another process)
	// Undoing says the run had failed and was putting back what it had
	// replaced; else it was moving its files into place.
	Undoing bool
}

func (e *InterruptedError) Error() string {
	switch {
	case e.Alive:
		return fmt.Sprintf("another opm is writing to the repository (%s): run the command again when it is done", e.Dir)
	case e.Undoing:
		return fmt.Sprintf("the repository is half-written: an opm run that had failed was killed while putting back the files it had replaced (%s): any opm alpha catalog command on the repository undoes that run first", e.Dir)
	}
	return fmt.Sprintf("the repository is half-written: an opm run was killed while moving its files into place (%s): any opm alpha catalog command on the repository finishes that run first", e.Dir)
}

// Check returns an *InterruptedError when a run of Write under root has
// committed and not ended (it is moving its files into place or putting
// them back, or was killed doing so), so that a reader does not read the
// repository half-written; Recover finishes or undoes a killed run. Runs
// that have not committed have changed nothing and are not reported. A
// journal that cannot be read is an error too.
func Check(root string) error {
	base := filepath.Join(root, Dir)
	runs, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", Dir, err)
	}
	for _, d := range runs {
		if !d.IsDir() || outcomeOf(d.Name()) != "" {
			continue // a run that ended: the repository is whole
		}
		dir := filepath.Join(base, d.Name())
		j, err := readJournal(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		rel := Dir + "/" + d.Name()
		if err != nil {
			return fmt.Errorf("%s, left by an opm run: %w", rel, err)
		}
		return &InterruptedError{Dir: rel, Alive: alive(dir), Undoing: j.State == aborting}
	}
	return nil
}

// alive reports whether the run of a staging directory holds its lock.
func alive(dir string) bool {
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer lock.Close()
	free, err := tryLock(lock)
	return err == nil && !free
}
