package declcfg

import (
	"hash/maphash"
	"slices"
	"sync"
)

// DocumentCache lets the loads of several catalogs share the bundles of
// YAML documents they hold byte for byte, such as the per-version
// catalogs of one operator, which repeat the same bundles: a document
// met again is neither decoded nor checked again, and the bundle loaded
// from it shares its property values with the first one. Only bundles
// that loaded without a problem or a warning are shared, so what a load
// reports is what it would report without the cache.
//
// A cache may be used by any number of loads at once, but only by loads
// with the same checks and options (the same WithObjectCheck,
// WithItemCheck, WithoutBulkValues and WithWarnings, or none): what passed
// one load's checks is taken to pass the others'. Loads WithLines do not
// use it.
type DocumentCache struct {
	seeds [2]maphash.Seed
	mu    sync.Mutex
	docs  map[docKey]*cachedDoc
}

// docKey identifies a document's text: two independent 64-bit hashes
// and its length.
type docKey struct {
	h1, h2 uint64
	n      int
}

// cachedDoc is the bundle first loaded from a document, and the line the
// document started at there. While the document is being loaded for the
// first time, ready is open and loads that meet it wait: catalogs loaded
// side by side meet the same documents at about the same time.
type cachedDoc struct {
	ready chan struct{}
	b     *Bundle // nil when the document did not load cleanly
	line  int32
}

// NewDocumentCache returns an empty cache.
func NewDocumentCache() *DocumentCache {
	return &DocumentCache{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, docs: map[docKey]*cachedDoc{}}
}

// WithDocumentCache shares the bundles of documents with other loads
// using the same cache (see DocumentCache).
func WithDocumentCache(c *DocumentCache) LoadOption {
	return func(cfg *loadConfig) { cfg.docs = c }
}

func (c *DocumentCache) key(text []byte) docKey {
	return docKey{maphash.Bytes(c.seeds[0], text), maphash.Bytes(c.seeds[1], text), len(text)}
}

// claim returns the bundle loaded from the document before, waiting if
// another load is loading it. With none, the caller loads the document,
// and owns it if it is the first to: it must then settle the key.
func (c *DocumentCache) claim(k docKey) (hit *cachedDoc, owner bool) {
	c.mu.Lock()
	d := c.docs[k]
	if d == nil {
		c.docs[k] = &cachedDoc{ready: make(chan struct{})}
		c.mu.Unlock()
		return nil, true
	}
	c.mu.Unlock()
	<-d.ready
	if d.b == nil {
		return nil, false
	}
	return d, false
}

// put records the bundle loaded from a document the caller owns.
func (c *DocumentCache) put(k docKey, b *Bundle, line int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := c.docs[k]; d != nil && !closed(d.ready) {
		d.b, d.line = b, line
		close(d.ready)
	}
}

// settle ends the caller's loading of a document it owns: a document
// that put did not record is loaded by every load on its own.
func (c *DocumentCache) settle(k docKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := c.docs[k]; d != nil && !closed(d.ready) {
		close(d.ready)
	}
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// at is the cached bundle as loaded from the same text at another place:
// its lines moved by the distance between the documents' first lines,
// its property values shared.
func (d *cachedDoc) at(file string, src Source) *Bundle {
	delta := int(src.Line - d.line)
	b := *d.b
	b.Pos = Pos{File: file, Line: d.b.Pos.Line + delta}
	if b.NameLine != 0 {
		b.NameLine += delta
	}
	b.Properties = slices.Clone(d.b.Properties)
	for i := range b.Properties {
		if b.Properties[i].Line != 0 {
			b.Properties[i].Line += delta
		}
	}
	b.RelatedImages = slices.Clone(d.b.RelatedImages)
	b.Src = src
	return &b
}
