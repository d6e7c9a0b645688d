package declcfg

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/fbcat/opm/internal/parallel"
)

// Encodable is any catalog object that can be written.
type Encodable interface {
	AppendJSON([]byte) []byte
	AppendYAML([]byte) ([]byte, error)
	orderKey() orderKey
}

// orderKey places an object in upstream's output order: grouped by
// package (in byte order), within a package the olm.package blobs, the
// channels by name, the bundles by name, the other blobs by schema, then
// the deprecations; ties keep load order. Other blobs without a package
// come last, in load order. Channels, bundles and deprecations without a
// package are not written at all, as upstream drops them.
type orderKey struct {
	root  bool // an other blob without a package
	group string
	rank  int
	name  string
	drop  bool
}

func (p *Package) orderKey() orderKey { return orderKey{group: p.Name, drop: p.Name == ""} }
func (c *Channel) orderKey() orderKey {
	return orderKey{group: c.Package, rank: 1, name: c.Name, drop: c.Package == ""}
}
func (b *Bundle) orderKey() orderKey {
	return orderKey{group: b.Package, rank: 2, name: b.Name, drop: b.Package == ""}
}
func (m *Meta) orderKey() orderKey {
	return orderKey{group: m.Package, rank: 3, name: m.Schema, root: m.Package == ""}
}
func (d *Deprecation) orderKey() orderKey {
	return orderKey{group: d.Package, rank: 4, drop: d.Package == ""}
}

// compare orders two objects by their keys alone: other blobs without a
// package after everything else (among themselves, only load order
// tells), the rest by package, rank and name.
func (k orderKey) compare(o orderKey) int {
	switch {
	case k.root != o.root:
		if k.root {
			return 1
		}
		return -1
	case k.root:
		return 0
	}
	return cmp.Or(cmp.Compare(k.group, o.group), cmp.Compare(k.rank, o.rank), cmp.Compare(k.name, o.name))
}

// Order is a position in load order across several sources: the source's
// index, then the object's place within it.
type Order struct {
	Source int
	Seq    Seq
}

func (o Order) compare(p Order) int {
	return cmp.Or(cmp.Compare(o.Source, p.Source), o.Seq.Compare(p.Seq))
}

type orderedEntry struct {
	key    orderKey
	order  Order
	chunk  int   // index of the memory chunk, or -1 if on disk
	off    int64 // offset in the chunk or file
	len    int
	onDisk bool
}

const (
	// memBudget is how much encoded output an OrderedWriter keeps in
	// memory before it sends the rest to a temporary file. The memory
	// stays live for the whole render, and the garbage collector lets
	// the heap grow in proportion to what is live: 8 MiB cost 17 MB of
	// peak RSS on the 111 MiB benchmark catalog, 1 MiB no time.
	memBudget = 1 << 20
	// Memory chunks start at firstChunk and double up to chunkSize, so
	// that a small output does not cost a large allocation.
	firstChunk = 64 << 10
	chunkSize  = 4 << 20
)

// OrderedWriter collects encoded objects from any number of goroutines and
// writes them in upstream's output order at the end. Beyond a memory
// budget, encoded objects go to an unlinked temporary file (see spill), so
// memory does not grow with the size of the catalog. If no temporary file
// can be made, everything stays in memory.
type OrderedWriter struct {
	format Format

	mu      sync.Mutex
	entries []orderedEntry
	chunks  [][]byte
	memUsed int
	spill   spill
	err     error
	// encoded holds the buffers objects are encoded into before they are
	// filed.
	encoded *buffers
}

// NewOrderedWriter returns a writer for format f. Close releases its
// temporary file.
func NewOrderedWriter(f Format) *OrderedWriter {
	return &OrderedWriter{format: f, encoded: newBuffers(encodeBuffers, 64<<10, encodeBufferMax)}
}

// Up to encodeBuffers buffers of at most encodeBufferMax bytes are kept
// for encoding objects: enough for the goroutines that add at once, and
// for the largest objects of a real catalog (a bundle's CSV metadata of
// over a megabyte).
const (
	encodeBuffers   = 8
	encodeBufferMax = 8 << 20
)

// Add encodes obj and files it at order. It is safe for concurrent use.
func (w *OrderedWriter) Add(obj Encodable, order Order) error {
	key := obj.orderKey()
	if key.drop {
		return nil
	}
	bp := w.encoded.get()
	defer w.encoded.put(bp)
	buf := (*bp)[:0]
	var err error
	if w.format == FormatYAML {
		buf, err = obj.AppendYAML(buf)
		if err != nil {
			return fmt.Errorf("writing YAML: %w", err)
		}
	} else {
		buf = obj.AppendJSON(buf)
	}
	*bp = buf

	w.mu.Lock()
	if w.err != nil {
		w.mu.Unlock()
		return w.err
	}
	e := orderedEntry{key: key, order: order, len: len(buf), chunk: -1}
	if w.memUsed+len(buf) > memBudget && w.spill.open() {
		e.onDisk = true
		var full, large spillBatch
		e.off, full, large = w.spill.add(buf)
		w.entries = append(w.entries, e)
		w.mu.Unlock()
		// The batches are written without holding the lock.
		err := full.write()
		if err == nil {
			err = large.write()
		}
		if err != nil {
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
			return err
		}
		return nil
	}
	w.addToMemory(e, buf)
	w.mu.Unlock()
	return nil
}

// addToMemory copies buf into the memory chunks and files e for it. w.mu
// is held.
func (w *OrderedWriter) addToMemory(e orderedEntry, buf []byte) {
	n := len(w.chunks) - 1
	if n < 0 || len(w.chunks[n])+len(buf) > cap(w.chunks[n]) {
		size := firstChunk
		if n >= 0 {
			size = min(2*cap(w.chunks[n]), chunkSize)
		}
		w.chunks = append(w.chunks, make([]byte, 0, max(size, len(buf))))
		n++
	}
	e.chunk, e.off = n, int64(len(w.chunks[n]))
	w.chunks[n] = append(w.chunks[n], buf...)
	w.memUsed += len(buf)
	w.entries = append(w.entries, e)
}

// WriteTo writes every object added, in upstream's order. It must not run
// concurrently with Add.
func (w *OrderedWriter) WriteTo(out io.Writer) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	if err := w.spill.finish(); err != nil {
		w.err = err
		return 0, err
	}
	slices.SortFunc(w.entries, func(a, b orderedEntry) int {
		return cmp.Or(a.key.compare(b.key), a.order.compare(b.order))
	})
	ow := newOutput(out, w.spill.file)
	for _, e := range w.entries {
		var err error
		if e.onDisk {
			err = ow.fromFile(e.off, e.len)
		} else {
			err = ow.fromMemory(w.chunks[e.chunk][e.off : e.off+int64(e.len)])
		}
		if err != nil {
			return ow.total, err
		}
	}
	return ow.total, ow.flush()
}

// Close releases the temporary file.
func (w *OrderedWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.chunks = nil
	w.entries = nil
	return w.spill.close()
}

// AddAll adds every object of cfg, encoding on all CPUs; the objects of
// cfg take load order from their place in its slices. The error is that
// of the first object in that order that fails.
func (w *OrderedWriter) AddAll(cfg *DeclarativeConfig, source int) error {
	objs := cfg.encodables()
	return parallel.Do(context.Background(), len(objs), 0, func(i int) error {
		return w.Add(objs[i], Order{Source: source, Seq: Seq{Index: i}})
	})
}

// Write writes cfg in format f exactly as upstream's `opm render` does:
// JSON objects indented by four spaces, one after another, or YAML
// documents each introduced by "---".
func Write(cfg *DeclarativeConfig, out io.Writer, f Format) error {
	w := NewOrderedWriter(f)
	defer w.Close()
	if err := w.AddAll(cfg, 0); err != nil {
		return err
	}
	_, err := w.WriteTo(out)
	return err
}

// WriteOrder lists the objects of cfg in the order Write writes them,
// without those Write drops: for callers that encode the objects
// themselves (from a cache of encoded bundles, say). Concatenating each
// object's AppendYAML (or AppendJSON) in this order gives Write's bytes.
func (cfg *DeclarativeConfig) WriteOrder() []Encodable {
	objs := cfg.encodables()
	type keyed struct {
		obj Encodable
		key orderKey
	}
	list := make([]keyed, 0, len(objs))
	for _, o := range objs {
		if k := o.orderKey(); !k.drop {
			list = append(list, keyed{o, k})
		}
	}
	// Stable: ties keep the order of encodables, as Write's load order.
	slices.SortStableFunc(list, func(a, b keyed) int { return a.key.compare(b.key) })
	out := make([]Encodable, len(list))
	for i := range list {
		out[i] = list[i].obj
	}
	return out
}

// encodables lists every object of cfg: packages, channels, bundles,
// other blobs, deprecations.
func (cfg *DeclarativeConfig) encodables() []Encodable {
	var objs []Encodable
	for i := range cfg.Packages {
		objs = append(objs, &cfg.Packages[i])
	}
	for i := range cfg.Channels {
		objs = append(objs, &cfg.Channels[i])
	}
	for i := range cfg.Bundles {
		objs = append(objs, &cfg.Bundles[i])
	}
	for i := range cfg.Others {
		objs = append(objs, &cfg.Others[i])
	}
	for i := range cfg.Deprecations {
		objs = append(objs, &cfg.Deprecations[i])
	}
	return objs
}
