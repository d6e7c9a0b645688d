package lint

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// The bundle directories of an operator directory are read and linted a
// few at a time (they are large: a few MB of CRDs each, tens of them),
// and each one's manifests are released once its bundle rules ran and
// its CRDs were compared with its neighbours' (see precompare.go): the
// upgrade comparisons read the CRDs again when they need them (see
// crdUpgradeDirs), so that the trees of every bundle do not stay alive
// at once. Findings do not depend on the order bundles are linted in.

// bundleFindings runs the bundle rules on a bundle.
func (l *linter) bundleFindings(b *bundle) []Finding {
	c := &bundleCheck{b: b, previous: l.previous, opts: &l.opts, pairs: &l.crdPairs}
	var out []Finding
	for _, r := range l.rules {
		if r.bundle != nil {
			out = append(out, r.bundle(c)...)
		}
	}
	return out
}

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
func (l *linter) lintBundleDirs(ctx context.Context, dir string) ([]*bundle, error) {
	paths, err := l.bundleDirsIn(dir)
	if err != nil {
		return nil, err
	}
	bundles := make([]*bundle, len(paths))
	found := make([][]Finding, len(paths))
	errs := make([]error, len(paths))
	order := namedVersionOrder(paths)
	pre := newPrecompare(len(order), l.enabled(ruleCRDUpgrade))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for k, i := range order {
		g.Go(func() error {
			if errs[i] = ctx.Err(); errs[i] == nil {
				if bundles[i], errs[i] = l.readBundleDir(paths[i]); errs[i] == nil {
					found[i] = l.memoFindings(bundles[i])
				}
			}
			pre.read(k, bundles[i])
			if k > 0 {
				pre.compare(k, &l.crdPairs)
			}
			return nil
		})
	}
	_ = g.Wait() // errors are in errs, to report the first in order
	for i := range paths {
		if errs[i] != nil {
			return nil, errs[i]
		}
	}
	for _, fs := range found {
		l.add(fs)
	}
	return bundles, nil
}
