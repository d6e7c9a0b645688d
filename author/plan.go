package author

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sync/errgroup"
)

// The kinds of file a plan changes.
const (
	KindTemplate = "template"
	KindCatalog  = "catalog"
)

// FileChange is one file a plan writes.
type FileChange struct {
	Path string // relative to the repository root, slash-separated
	Kind string // KindTemplate or KindCatalog
	Old  []byte // the committed text; nil for a new file
	New  []byte
}

// Plan is what a verb changes in a repository: every file is written by
// Apply, or none.
type Plan struct {
	Root    string
	Changes []FileChange
	// Summary says in one line what the verb did.
	Summary string
	// Notes are things the user should know (never problems: those are
	// errors).
	Notes []string
}

// Plural is "1 catalog", "2 catalogs".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// add records a change, unless the new text is the old one.
func (p *Plan) add(path, kind string, old, new []byte) {
	if old != nil && bytes.Equal(old, new) {
		return
	}
	p.Changes = append(p.Changes, FileChange{Path: path, Kind: kind, Old: old, New: new})
}

// Diff writes the unified diff of every change.
func (p *Plan) Diff(w io.Writer) error {
	for _, c := range p.Changes {
		if err := UnifiedDiff(w, c.Path, c.Old, c.New); err != nil {
			return err
		}
	}
	return nil
}

// Apply writes every change: each new text goes to a temporary file
// beside its target first, and only when all are written are they renamed
// into place. A target that changed on disk since it was read stops
// everything before any rename; a rename that fails puts back the files
// already replaced.
func (p *Plan) Apply() error {
	var staged []staging
	var created []string // directories made for new files, parents first
	ok := false
	defer func() {
		for _, s := range staged {
			if s.tmp != "" {
				os.Remove(s.tmp)
			}
		}
		for i := len(created) - 1; !ok && i >= 0; i-- {
			os.Remove(created[i]) // only if still empty
		}
	}()
	staged = make([]staging, len(p.Changes))
	errs := make([]error, len(p.Changes))
	dirs := make([][]string, len(p.Changes))
	var g errgroup.Group
	g.SetLimit(4)
	for i, c := range p.Changes {
		g.Go(func() error {
			staged[i], dirs[i], errs[i] = p.stage(c) // every change is staged, or cleaned up, even after a failure
			return nil
		})
	}
	_ = g.Wait()
	for _, d := range dirs {
		created = append(created, d...)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for i, s := range staged {
		if err := os.Rename(s.tmp, s.target); err != nil {
			return errors.Join(fmt.Errorf("writing %s: %w", p.Changes[i].Path, err), p.restore(staged[:i]))
		}
		staged[i].tmp = ""
	}
	ok = true
	return nil
}

// missingDirs lists the directories that MkdirAll(dir) would make,
// parents first.
func missingDirs(dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		out = append([]string{d}, out...)
	}
	return out
}

// staging is a change written to a temporary file, not yet in place.
type staging struct {
	target, tmp string
	change      FileChange
}

// stage checks that a change's target is as it was read and writes the
// new text to a temporary file beside it.
func (p *Plan) stage(c FileChange) (s staging, dirs []string, err error) {
	target := filepath.Join(p.Root, filepath.FromSlash(c.Path))
	cur, err := os.ReadFile(target)
	switch {
	case errors.Is(err, fs.ErrNotExist) && c.Old == nil:
	case err != nil:
		return s, nil, fmt.Errorf("reading %s: %w", c.Path, err)
	case c.Old == nil || !bytes.Equal(cur, c.Old):
		return s, nil, fmt.Errorf("%s changed while opm was working on it: nothing was written; run the command again", c.Path)
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	dirs = missingDirs(filepath.Dir(target))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return s, dirs, fmt.Errorf("writing %s: %w", c.Path, err)
	}
	tmp, err := writeTemp(filepath.Dir(target), "."+filepath.Base(target)+".opm-", c.New, mode)
	if err != nil {
		return s, dirs, fmt.Errorf("writing %s: %w", c.Path, err)
	}
	return staging{target: target, tmp: tmp, change: c}, dirs, nil
}

// restore puts the old text of replaced files back (and removes new
// ones), after a failed rename.
func (p *Plan) restore(done []staging) error {
	var errs []error
	for _, s := range done {
		if s.change.Old == nil {
			if err := os.Remove(s.target); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		tmp, err := writeTemp(filepath.Dir(s.target), "."+filepath.Base(s.target)+".opm-", s.change.Old, 0o644)
		if err == nil {
			err = os.Rename(tmp, s.target)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("could not restore %s: %w", s.change.Path, err))
		}
	}
	return errors.Join(errs...)
}

// writeTemp writes data to a new temporary file in dir and syncs it.
func writeTemp(dir, prefix string, data []byte, mode fs.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, prefix)
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, mode)
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}
