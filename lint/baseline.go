package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/render"
)

// baseline is what the linted paths were before the change: a directory,
// or a git ref whose paths are extracted into a temporary directory (see
// baselinegit.go). Paths of the work tree map to where the baseline holds
// them, so that the baseline is linted under the same names and its
// findings compare with the work tree's.
type baseline struct {
	given string
	// maps send absolute paths (their prefix from) to the baseline's copy
	// (to), the longest prefix first.
	maps []pathMap
	// ref is the git ref; repo what was read of it (nil for a directory).
	ref  string
	repo *gitBaseline
}

// pathMap sends the paths under from to the same paths under to.
type pathMap struct{ from, to string }

// newBaseline reads --baseline: an existing directory, else a git ref of
// the repository the paths are in.
func newBaseline(ctx context.Context, b string, paths []string) (*baseline, error) {
	if st, err := os.Stat(b); err == nil {
		if !st.IsDir() {
			return nil, fmt.Errorf("--baseline %s is a file: give the catalog directory as it was, the repository root as it was, or a git ref", b)
		}
		return dirBaseline(b, paths)
	}
	dir := "."
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dir = p
			break
		}
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", b+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--baseline %s is neither a directory nor a commit of the git repository at %s: give a path, or a branch, tag or commit (%v)", b, dir, err)
	}
	repo, err := readGitBaseline(ctx, dir, b, paths)
	if err != nil {
		return nil, err
	}
	bl := &baseline{given: b, ref: b, repo: repo}
	if repo.tmp != "" {
		bl.maps = []pathMap{{from: repo.top, to: repo.tmp}}
	}
	return bl, nil
}

// dirBaseline maps each path to the baseline directory: a catalog
// directory, a catalogs directory or a bundle directory to it; an operator
// directory or operators/ to their place under it (the repository root as
// it was).
func dirBaseline(dir string, paths []string) (*baseline, error) {
	to, err := canonical(dir)
	if err != nil {
		return nil, err
	}
	bl := &baseline{given: dir}
	catalogs := 0
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			continue // an image: no baseline
		}
		from := p
		switch {
		case isOperatorDir(p):
			from = filepath.Join(p, "..", "..")
		case len(operatorDirsIn(p)) > 0:
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
		return nil, fmt.Errorf("--baseline %s is a directory, which is the baseline of one catalog, but %d catalog directories are linted: lint them one at a time, or give a git ref", dir, catalogs)
	}
	slices.SortFunc(bl.maps, func(a, b pathMap) int { return len(b.from) - len(a.from) })
	return bl, nil
}

// canonical is a path made absolute, its symbolic links resolved as far
// as it exists.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for d := abs; ; d = filepath.Dir(d) {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(real, rest), nil
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}

// real is where the baseline holds the path p of the work tree, "" when
// it holds none (an image, a path outside the repository).
func (bl *baseline) real(p string) string {
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

// holds reports whether the baseline has the path p.
func (bl *baseline) holds(p string) bool {
	r := bl.real(p)
	if r == "" {
		return false
	}
	_, err := os.Stat(r)
	return err == nil
}

// unchanged reports whether the baseline is a git ref and the work tree
// has the catalog or bundle directory dir as the ref has it (see
// gitBaseline.keep: the ref's copy may leave it out).
func (bl *baseline) unchanged(dir string) bool {
	return bl.repo != nil && bl.repo.unchanged(dir)
}

// close removes what was extracted.
func (bl *baseline) close() {
	if bl != nil && bl.repo != nil {
		bl.repo.close()
	}
}

// catalog is the baseline of the catalog directory dir (a path of the
// work tree), its graph only; nil when the baseline has no such directory
// (a new catalog).
func (bl *baseline) catalog(ctx context.Context, dir string) (*model.Catalog, error) {
	if !bl.holds(dir) {
		return nil, nil
	}
	r := bl.real(dir)
	name := r
	if bl.ref != "" {
		name = dir + "@" + bl.ref
	}
	cfg, err := declcfg.LoadFS(ctx, os.DirFS(r), declcfg.WithRootName(name), declcfg.WithoutBulkValues())
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", notLoaded(name, err))
	}
	m, err := indexCatalog(name, cfg)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	return m, nil
}
