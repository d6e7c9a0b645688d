package lint

import (
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/blang/semver/v4"
)

// Comparing the CRDs of bundle directories while they are read: see
// lintBundleDirs.

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

// precompare holds the bundles read, in reading order, until their CRDs
// were compared with both neighbours'; then their trees are released.
type precompare struct {
	on      bool
	bundles []*bundle
	ready   []chan struct{}
	uses    []atomic.Int32
}

// newPrecompare is the state for n bundles; off, each bundle's trees are
// released as soon as its rules ran.
func newPrecompare(n int, on bool) *precompare {
	p := &precompare{on: on, bundles: make([]*bundle, n), ready: make([]chan struct{}, n), uses: make([]atomic.Int32, n)}
	for k := range n {
		p.ready[k] = make(chan struct{})
		p.uses[k].Store(1)
		if on && k > 0 {
			p.uses[k].Add(1)
		}
		if on && k < n-1 {
			p.uses[k].Add(1)
		}
	}
	return p
}

// read records the k-th bundle read (nil when it could not be) once its
// rules ran.
func (p *precompare) read(k int, b *bundle) {
	p.bundles[k] = b
	close(p.ready[k])
	p.done(k)
}

// compare waits for the bundle before the k-th and compares their CRDs,
// which fills the run's cache of CRD pairs.
func (p *precompare) compare(k int, pairs *crdPairs) {
	if !p.on {
		return
	}
	<-p.ready[k-1]
	if from, to := p.bundles[k-1], p.bundles[k]; from != nil && to != nil {
		upgradeFindings(from, to, "", pairs)
	}
	p.done(k - 1)
	p.done(k)
}

// done releases the k-th bundle's trees once nothing needs them.
func (p *precompare) done(k int) {
	if p.uses[k].Add(-1) == 0 && p.bundles[k] != nil {
		p.bundles[k].releaseTrees()
	}
}
