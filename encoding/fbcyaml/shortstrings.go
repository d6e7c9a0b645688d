package fbcyaml

import "hash/maphash"

// shortStrings remembers, for the short strings met last, one value each
// (the string itself for the parser's interning, go-yaml's analysis of
// it for the emitter): direct-mapped, each string in the one of n places
// its hash picks, the last string met there kept. Catalogs repeat their
// keys and many values bundle after bundle, close together; a lookup
// costs less than the allocation or the analysis it saves, and less than
// a map's.
type shortStrings[V any] struct {
	seed    maphash.Seed
	entries []shortString[V]
}

type shortString[V any] struct {
	s string
	v V
}

// newShortStrings returns a table of n places, n a power of two.
func newShortStrings[V any](n int) *shortStrings[V] {
	return &shortStrings[V]{seed: maphash.MakeSeed(), entries: make([]shortString[V], n)}
}

// at returns the place of s, and whether it holds s. A caller that keeps
// s there stores a copy: s may share memory that is reused.
func (t *shortStrings[V]) at(s string) (*shortString[V], bool) {
	e := &t.entries[maphash.String(t.seed, s)&uint64(len(t.entries)-1)]
	return e, e.s == s
}
