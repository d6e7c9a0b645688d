package author

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/fbcat/opm/catalogrepo/stage"
	"github.com/fbcat/opm/declcfg"
)

// text is a file's text in pieces (see stage.Text).
type text = stage.Text

// encoder writes the rendered catalogs of a package, encoding each bundle
// once however many catalogs hold it: the per-version catalogs of a
// package repeat the same bundles, and encoding them is most of the cost
// of writing. Catalogs written side by side meet the same bundles at
// about the same time, so a bundle being encoded is waited for. A
// catalog's text is its objects' texts in pieces (see text): the catalogs
// hold each bundle's text once between them.
type encoder struct {
	seed maphash.Seed
	mu   sync.Mutex
	done map[encodedKey][]*encodedBundle
}

// encodedKey is a bundle's content hash in one format.
type encodedKey struct {
	hash   uint64
	format declcfg.Format
}

// encodedBundle is a bundle and its encoded text, set when ready closes
// (nil if encoding failed).
type encodedBundle struct {
	b     *declcfg.Bundle
	ready chan struct{}
	data  []byte
}

func newEncoder() *encoder {
	return &encoder{seed: maphash.MakeSeed(), done: map[encodedKey][]*encodedBundle{}}
}

// bundleHash hashes what a bundle's encoding depends on: the fields
// sameBundle compares.
func (e *encoder) bundleHash(b *declcfg.Bundle) uint64 {
	var h maphash.Hash
	h.SetSeed(e.seed)
	var n [8]byte
	field := func(s []byte) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		_, _ = h.Write(n[:])
		_, _ = h.Write(s)
	}
	str := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		_, _ = h.Write(n[:])
		_, _ = h.WriteString(s)
	}
	str(b.Schema)
	str(b.Name)
	str(b.Package)
	str(b.Image)
	for _, p := range b.Properties {
		str(p.Type)
		field(p.Value)
	}
	_ = h.WriteByte('|')
	for _, ri := range b.RelatedImages {
		str(ri.Name)
		str(ri.Image)
	}
	return h.Sum64()
}

// claim returns the encoding of a bundle equal to b, waiting while it is
// being encoded; with none, it returns an entry for the caller to fill
// (see encoded).
func (e *encoder) claim(k encodedKey, b *declcfg.Bundle) (data []byte, mine *encodedBundle) {
	e.mu.Lock()
	for _, x := range e.done[k] {
		if sameBundle(x.b, b) {
			e.mu.Unlock()
			<-x.ready
			e.mu.Lock()
			defer e.mu.Unlock()
			return x.data, nil
		}
	}
	mine = &encodedBundle{b: b, ready: make(chan struct{})}
	e.done[k] = append(e.done[k], mine)
	e.mu.Unlock()
	return nil, mine
}

// encoded fills an entry claim returned.
func (e *encoder) encoded(x *encodedBundle, data []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x.data = data
	close(x.ready)
}

// write encodes cfg as declcfg.Write does, taking the encodings of
// bundles from the cache, and keeps those it encodes.
func (e *encoder) write(cfg *declcfg.DeclarativeConfig, f declcfg.Format) (text, error) {
	objs := cfg.WriteOrder()
	parts := make(text, len(objs))
	mine := make([]*encodedBundle, len(objs))
	// Entries this call claimed are filled whatever happens.
	defer func() {
		for _, x := range mine {
			if x != nil && !isClosed(x.ready) {
				e.encoded(x, nil)
			}
		}
	}()
	var err error
	for i, obj := range objs {
		if b, ok := obj.(*declcfg.Bundle); ok {
			parts[i], mine[i] = e.claim(encodedKey{e.bundleHash(b), f}, b)
		}
		if parts[i] == nil {
			if parts[i], err = encodeOne(obj, f); err != nil {
				return nil, err
			}
			if mine[i] != nil {
				e.encoded(mine[i], parts[i])
			}
		}
	}
	return parts, nil
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// encodeOne encodes one object in format f.
func encodeOne(obj declcfg.Encodable, f declcfg.Format) ([]byte, error) {
	if f == declcfg.FormatYAML {
		return obj.AppendYAML(nil)
	}
	return obj.AppendJSON(nil), nil
}
