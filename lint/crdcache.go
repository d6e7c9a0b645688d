package lint

import (
	"crypto/sha256"
	"maps"
	"sync"
)

// crdPairs remembers the unsafe changes of each pair of CRDs compared,
// by the content of the old and the new CRD, for one run of Lint: the
// same upgrade edge is in the operator directory's bundle directories
// and in each of its catalogs (where the same bundles may also be
// objects of their own), and is compared once. The changes carry lines,
// not trees, so that the CRDs' trees need not stay alive.
type crdPairs struct {
	mu sync.Mutex
	m  map[[2][sha256.Size]byte]*crdPair
}

// crdPair is the changes of one pair, computed once.
type crdPair struct {
	once     sync.Once
	problems []crdProblem
}

// problems returns the unsafe changes from the old CRD object oo of from
// to the new one no of to, comparing them the first time they are asked
// for. A nil cache compares every time.
func (c *crdPairs) problems(from *bundle, oo *object, to *bundle, no *object) []crdProblem {
	compare := func() []crdProblem {
		o, n := from.crd(oo), to.crd(no)
		problems := compareCRDs(o, n)
		if no.multiServed {
			problems = append(problems, newServedProblems(o, n)...)
		}
		return problems
	}
	if c == nil {
		return compare()
	}
	key := [2][sha256.Size]byte{oo.sum, no.sum}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[[2][sha256.Size]byte]*crdPair{}
	}
	p := c.m[key]
	if p == nil {
		p = &crdPair{}
		c.m[key] = p
	}
	c.mu.Unlock()
	p.once.Do(func() { p.problems = compare() })
	return p.problems
}

// seed starts the cache with the pairs another run compared (the run over
// the baseline starts with those of the run over the change): a pair's
// changes are those of the two CRDs' content, with the lines of that
// content, whichever run compares them.
func (c *crdPairs) seed(from *crdPairs) {
	from.mu.Lock()
	defer from.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[[2][sha256.Size]byte]*crdPair, len(from.m))
	}
	maps.Copy(c.m, from.m)
}
