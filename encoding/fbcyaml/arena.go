// Arenas: memory handed out slice by slice and taken back all at once,
// for what decoding makes of one document and drops with it.

package fbcyaml

import "github.com/fbcat/opm/encoding/value"

// Arena keeps what decoding makes of one document, for a caller that is
// done with the document before it decodes the next: the members and
// items of its collections, and with Values the compact JSON of its
// property values (DecodeCompactingPropertiesIn). Reset gives the memory
// to the next document: nothing may use the tree of a document decoded
// before, nor (with Values) anything made of its property values, such as
// the RawMessages typing made of them. Strings are not kept in an Arena:
// they may outlive their document. The zero Arena is ready to use; an
// Arena is for one goroutine at a time.
type Arena struct {
	// Values keeps property values' compact JSON in the arena too, for a
	// caller that keeps nothing made of them past Reset.
	Values bool

	fields arena[value.Field]
	items  arena[value.Value]
	raw    arena[byte]
}

// Reset empties the arena for the next document.
func (a *Arena) Reset() {
	a.fields.reset()
	a.items.reset()
	a.raw.reset()
}

// An arena's chunks hold arenaChunk elements, or byteChunk bytes (texts
// and compact JSON: a document's property values are a few kilobytes to a
// few megabytes), unless one slice needs more.
const (
	arenaChunk = 1024
	byteChunk  = 256 << 10
)

// arena hands out slices of chunks it keeps, until reset. A slice it
// handed out stays valid until then: chunks are never grown, only added.
type arena[T any] struct {
	chunks [][]T
	cur    int // the chunk being filled
}

// take copies src into the arena and returns the copy.
func (a *arena[T]) take(src []T) []T {
	if len(src) == 0 {
		return nil
	}
	for ; a.cur < len(a.chunks); a.cur++ {
		c := a.chunks[a.cur]
		if cap(c)-len(c) >= len(src) {
			n := len(c)
			c = append(c, src...)
			a.chunks[a.cur] = c
			return c[n:len(c):len(c)]
		}
	}
	c := make([]T, 0, max(a.chunkLen(), len(src)))
	c = append(c, src...)
	a.chunks = append(a.chunks, c)
	a.cur = len(a.chunks) - 1
	return c[:len(c):len(c)]
}

// reset empties the arena, keeping its chunks for what comes next; what
// they held is cleared, so that nothing stays reachable through them
// (bytes reach nothing, and are left as they are).
func (a *arena[T]) reset() {
	_, bytes := any(a).(*arena[byte])
	for i := range a.chunks {
		if !bytes {
			clear(a.chunks[i])
		}
		a.chunks[i] = a.chunks[i][:0]
	}
	a.cur = 0
}

// chunkLen is the length of a's chunks.
func (a *arena[T]) chunkLen() int {
	if _, bytes := any(a).(*arena[byte]); bytes {
		return byteChunk
	}
	return arenaChunk
}
