package baseline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbcat/opm/lint/layout"
	"github.com/fbcat/opm/render"
)

// Baseline is what the linted paths were before the change: a directory,
// or a git ref whose paths are extracted into a temporary directory (see
// git.go). Errors start with the baseline given, which lint follows the
// name of its option with.
type Baseline struct {
	given string
	// maps send absolute paths (their prefix from) to the baseline's copy
	// (to), the longest prefix first.
	maps []pathMap
	// ref is the git ref; repo what was read of it (nil for a directory).
	ref  string
	repo *gitCopy
}

// pathMap sends the paths under from to the same paths under to.
type pathMap struct{ from, to string }

// New reads the baseline given: an existing directory (the catalog
// directory, catalogs directory or bundle directory as it was, or the
// repository root as it was for operator directories), else a git ref of
// the repository the paths are in. Close removes what it extracted.
func New(ctx context.Context, given string, paths []string) (*Baseline, error) {
	if st, err := os.Stat(given); err == nil {
		if !st.IsDir() {
			return nil, fmt.Errorf("%s is a file: give the catalog directory as it was, the repository root as it was, or a git ref", given)
		}
		return dirBaseline(given, paths)
	}
	dir := "."
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dir = p
			break
		}
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", given+"^{commit}"); err != nil {
		return nil, fmt.Errorf("%s is neither a directory nor a commit of the git repository at %s: give a path, or a branch, tag or commit (%v)", given, dir, err)
	}
	repo, err := readGitCopy(ctx, dir, given, paths)
	if err != nil {
		return nil, err
	}
	bl := &Baseline{given: given, ref: given, repo: repo}
	if repo.tmp != "" {
		bl.maps = []pathMap{{from: repo.top, to: repo.tmp}}
	}
	return bl, nil
}

// dirBaseline maps each path to the baseline directory: a catalog
// directory, a catalogs directory or a bundle directory to it; an operator
// directory or operators/ to their place under it (the repository root as
// it was).
func dirBaseline(dir string, paths []string) (*Baseline, error) {
	to, err := canonical(dir)
	if err != nil {
		return nil, err
	}
	bl := &Baseline{given: dir}
	catalogs := 0
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			continue // an image: no baseline
		}
		from := p
		switch {
		case layout.IsOperatorDir(p):
			from = filepath.Join(p, "..", "..")
		case len(layout.OperatorDirsIn(p)) > 0:
			from = filepath.Join(p, "..")
		case !render.IsBundleDir(p):
			catalogs++
		}
		abs, err := canonical(from)
		if err != nil {
			return nil, err
		}
		bl.maps = append(bl.maps, pathMap{from: abs, to: to})
	}
	if catalogs > 1 {
		return nil, fmt.Errorf("%s is a directory, which is the baseline of one catalog, but %d catalog directories are linted: lint them one at a time, or give a git ref", dir, catalogs)
	}
	slices.SortFunc(bl.maps, func(a, b pathMap) int { return len(b.from) - len(a.from) })
	return bl, nil
}

// Given is the baseline as given: the directory or the git ref.
func (bl *Baseline) Given() string { return bl.given }

// Real is where the baseline holds the path p of the work tree, "" when
// it holds none (an image, a path outside the repository).
func (bl *Baseline) Real(p string) string {
	abs, err := canonical(p)
	if err != nil {
		return ""
	}
	for _, m := range bl.maps {
		if abs == m.from {
			return m.to
		}
		if rest, ok := strings.CutPrefix(abs, m.from+string(filepath.Separator)); ok {
			return filepath.Join(m.to, rest)
		}
	}
	return ""
}

// Ready waits until the baseline's copy is written (a git ref's is
// extracted in the background) and returns what stopped it, if anything.
func (bl *Baseline) Ready() error {
	if bl.repo == nil {
		return nil
	}
	return bl.repo.wait()
}

// Holds reports whether the baseline has the path p (false when its copy
// could not be written: Ready says why).
func (bl *Baseline) Holds(p string) bool {
	r := bl.Real(p)
	if r == "" || bl.Ready() != nil {
		return false
	}
	_, err := os.Stat(r)
	return err == nil
}

// CatalogName is the name the baseline's copy of the catalog directory
// dir is loaded under, for positions: dir@ref for a git ref, the copy's
// path for a directory.
func (bl *Baseline) CatalogName(dir string) string {
	if bl.ref != "" {
		return dir + "@" + bl.ref
	}
	return bl.Real(dir)
}

// Unchanged reports whether the baseline is a git ref and the work tree
// has the catalog or bundle directory dir as the ref has it (see
// gitCopy.keep: the ref's copy may leave it out).
func (bl *Baseline) Unchanged(dir string) bool {
	return bl.repo != nil && bl.repo.unchanged(dir)
}

// Close removes what was extracted.
func (bl *Baseline) Close() {
	if bl != nil && bl.repo != nil {
		bl.repo.close()
	}
}
