package crdcompat

import "sync/atomic"

// Precompare compares the CRDs of neighbours in a list of items (the
// bundles of consecutive versions) while both are in memory, and has each
// item released once it was compared with both neighbours: the items are
// read a few at a time, in the list's order, and their CRDs need not
// stay alive all at once. Compare fills a Pairs cache that later
// comparisons of the same pairs read.
type Precompare[T any] struct {
	on      bool
	items   []*T
	ready   []chan struct{}
	uses    []atomic.Int32
	compare func(from, to *T)
	release func(*T)
}

// NewPrecompare is the state for n items. On, the k-th item is compared
// with the one before it (compare); off, nothing is compared and each
// item is released as soon as it was read.
func NewPrecompare[T any](n int, on bool, compare func(from, to *T), release func(*T)) *Precompare[T] {
	p := &Precompare[T]{on: on, items: make([]*T, n), ready: make([]chan struct{}, n), uses: make([]atomic.Int32, n), compare: compare, release: release}
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

// Read records the k-th item once it was read and used (nil when it
// could not be read).
func (p *Precompare[T]) Read(k int, item *T) {
	p.items[k] = item
	close(p.ready[k])
	p.done(k)
}

// Compare waits for the item before the k-th (k > 0), which must have
// been started before it, and compares the two.
func (p *Precompare[T]) Compare(k int) {
	if !p.on || k == 0 {
		return
	}
	<-p.ready[k-1]
	if from, to := p.items[k-1], p.items[k]; from != nil && to != nil {
		p.compare(from, to)
	}
	p.done(k - 1)
	p.done(k)
}

// done releases the k-th item once nothing needs it.
func (p *Precompare[T]) done(k int) {
	if p.uses[k].Add(-1) == 0 && p.items[k] != nil {
		p.release(p.items[k])
	}
}
