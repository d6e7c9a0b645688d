package author

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/fbcat/opm/declcfg"
)

// encoder writes the rendered catalogs of a package, encoding each bundle
// once however many catalogs hold it: the per-version catalogs of a
// package repeat the same bundles, and encoding them is most of the cost
// of writing. An encoded bundle is kept as a slice of the first catalog
// text that holds it, so the cache costs no memory of its own.
type encoder struct {
	seed maphash.Seed
	mu   sync.Mutex
	done map[encodedKey][]encodedBundle
}

// encodedKey is a bundle's content hash in one format.
type encodedKey struct {
	hash   uint64
	format declcfg.Format
}

// encodedBundle is a bundle and its encoded text.
type encodedBundle struct {
	b    *declcfg.Bundle
	data []byte
}

func newEncoder() *encoder {
	return &encoder{seed: maphash.MakeSeed(), done: map[encodedKey][]encodedBundle{}}
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

// lookup returns the encoding of a bundle equal to b, if one was kept.
func (e *encoder) lookup(k encodedKey, b *declcfg.Bundle) []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, x := range e.done[k] {
		if sameBundle(x.b, b) {
			return x.data
		}
	}
	return nil
}

// keep remembers the encoding of b.
func (e *encoder) keep(k encodedKey, b *declcfg.Bundle, data []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.done[k] = append(e.done[k], encodedBundle{b, data})
}

// write encodes cfg as declcfg.Write does, taking the encodings of
// bundles from the cache, and keeps those it encodes.
func (e *encoder) write(cfg *declcfg.DeclarativeConfig, f declcfg.Format) ([]byte, error) {
	objs := cfg.WriteOrder()
	parts := make([][]byte, len(objs))
	keys := make([]encodedKey, len(objs))
	fresh := make([]bool, len(objs))
	size := 0
	var err error
	for i, obj := range objs {
		b, isBundle := obj.(*declcfg.Bundle)
		if isBundle {
			keys[i] = encodedKey{e.bundleHash(b), f}
			parts[i] = e.lookup(keys[i], b)
		}
		if parts[i] == nil {
			if parts[i], err = encodeOne(obj, f); err != nil {
				return nil, err
			}
			fresh[i] = isBundle
		}
		size += len(parts[i])
	}
	out := make([]byte, 0, size)
	for i, part := range parts {
		start := len(out)
		out = append(out, part...)
		if fresh[i] {
			// Kept as a slice of out, which is never grown again.
			e.keep(keys[i], objs[i].(*declcfg.Bundle), out[start:len(out):len(out)])
		}
	}
	return out, nil
}

// encodeOne encodes one object in format f.
func encodeOne(obj declcfg.Encodable, f declcfg.Format) ([]byte, error) {
	if f == declcfg.FormatYAML {
		return obj.AppendYAML(nil)
	}
	return obj.AppendJSON(nil), nil
}
