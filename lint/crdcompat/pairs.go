package crdcompat

import (
	"crypto/sha256"
	"maps"
	"sync"
)

// Sum identifies a CRD's content: the SHA-256 of its manifest.
type Sum = [sha256.Size]byte

// Pairs remembers the changes of each pair of CRDs compared, by the sums
// of the old and the new CRD's content: the same upgrade edge can be met
// many times (in the bundle directories of an operator and in each of its
// catalogs) and is compared once. The changes carry lines, not trees, so
// that the CRDs' trees need not stay alive. The zero Pairs is empty and
// ready to use, by several goroutines at once.
type Pairs struct {
	mu sync.Mutex
	m  map[[2]Sum]*pair
}

// pair is the changes of one pair, computed once.
type pair struct {
	once    sync.Once
	changes []Change
}

// Changes returns the unsafe changes from the CRD of content oldSum to
// the one of newSum, comparing the CRDs read gives the first time the
// pair is asked for. A nil Pairs compares every time.
func (p *Pairs) Changes(oldSum, newSum Sum, read func() (old, new *CRD)) []Change {
	compare := func() []Change { return Compare(read()) }
	if p == nil {
		return compare()
	}
	key := [2]Sum{oldSum, newSum}
	p.mu.Lock()
	if p.m == nil {
		p.m = map[[2]Sum]*pair{}
	}
	c := p.m[key]
	if c == nil {
		c = &pair{}
		p.m[key] = c
	}
	p.mu.Unlock()
	c.once.Do(func() { c.changes = compare() })
	return c.changes
}

// Len is how many pairs have been asked for.
func (p *Pairs) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.m)
}

// Seed starts p with the pairs from compared: a pair's changes are
// those of the two CRDs' content, with the lines of that content,
// whoever compares them (lint's run over a baseline starts with those of
// the run over the change).
func (p *Pairs) Seed(from *Pairs) {
	from.mu.Lock()
	defer from.mu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = make(map[[2]Sum]*pair, len(from.m))
	}
	maps.Copy(p.m, from.m)
}
