package lint

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
)

// The bundle directories of an operator directory are read and linted a
// few at a time (they are large: a few MB of CRDs each, tens of them),
// and each one's manifests are released once its bundle rules ran and
// its CRDs were compared with its neighbours' (see
// crdcompat.Precompare): the upgrade comparisons read the CRDs again
// when they need them (see crdUpgradeDirs), so that the trees of every
// bundle do not stay alive at once. Findings do not depend on the order
// bundles are linted in.

// lintBundleDirs reads the bundle directories of an operator directory
// and runs the bundle rules on each, a few at a time. It returns the
// bundles in directory order; an error is that of the first directory
// (in that order) that cannot be read.
//
// The directories are read in the order of the versions their names
// spell, and, when crd-upgrade-unsafe runs, each one's CRDs are compared
// with those of the one before it in that order while both bundles'
// trees are alive: crdUpgradeDirs then finds the pairs of consecutive
// versions compared already (when the names are the versions) instead of
// decoding the CRDs a second time.
func (l *linter) lintBundleDirs(ctx context.Context, dir string, h *history) ([]*bundle, error) {
	paths, err := l.view.bundleDirsIn(dir)
	if err != nil {
		return nil, err
	}
	bundles := make([]*bundle, len(paths))
	found := make([][]finding.Finding, len(paths))
	order := namedVersionOrder(paths)
	pre := crdcompat.NewPrecompare(len(order), l.enabled(ruleCRDUpgrade),
		func(from, to *bundle) {
			if (!l.installOnly(h) || h.isNews(to)) && !(l.leftAlone(from) && l.leftAlone(to)) {
				upgradeFindings(from, to, "", &l.pairs) // else only news's upgrades are compared whole
			}
		}, (*bundle).releaseTrees)
	err = parallel.DoAll(ctx, len(order), 0, func(k int) error {
		i := order[k]
		err := ctx.Err()
		if err == nil {
			if bundles[i], err = l.view.readBundleDir(paths[i]); err == nil {
				found[i] = l.bundleFindings(bundles[i], true, h)
			}
		}
		pre.Read(k, bundles[i])
		pre.Compare(k)
		if err != nil {
			return &dirError{i: i, err: err}
		}
		return nil
	})
	if err != nil {
		return nil, firstDirError(ctx, err)
	}
	for _, fs := range found {
		l.add(fs)
	}
	return bundles, nil
}

// dirError is the error of the i-th directory of a list.
type dirError struct {
	i   int
	err error
}

func (e *dirError) Error() string { return e.err.Error() }

func (e *dirError) Unwrap() error { return e.err }

// firstDirError is, of the errors parallel.DoAll joined, that of the
// first directory in the list's order; the context's error when ctx is
// done.
func firstDirError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var first *dirError
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			var d *dirError
			if errors.As(e, &d) && (first == nil || d.i < first.i) {
				first = d
			}
		}
	}
	if first == nil {
		return err
	}
	return first.err
}

// namedVersionOrder returns the indexes of the bundle directories in the
// order of the versions their names spell (with or without a leading v),
// those whose name is no version last, in their order: most often the
// order of their CSVs' versions, which crdUpgradeDirs compares in.
func namedVersionOrder(paths []string) []int {
	type named struct {
		i  int
		v  semver.Version
		ok bool
	}
	ns := make([]named, len(paths))
	for i, p := range paths {
		v, err := semver.Parse(strings.TrimPrefix(filepath.Base(p), "v"))
		ns[i] = named{i, v, err == nil}
	}
	slices.SortStableFunc(ns, func(a, b named) int {
		switch {
		case a.ok && b.ok:
			return a.v.Compare(b.v)
		case a.ok:
			return -1
		case b.ok:
			return 1
		}
		return 0
	})
	out := make([]int, len(ns))
	for k, n := range ns {
		out[k] = n.i
	}
	return out
}
