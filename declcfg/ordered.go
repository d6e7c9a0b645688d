package declcfg

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/fbcat/opm/declcfg/spool"
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
	key   orderKey
	order Order
	ref   spool.Ref
}

// memBudget is how much encoded output an OrderedWriter keeps in memory
// before it sends the rest to a temporary file. The memory stays live for
// the whole render, and the garbage collector lets the heap grow in
// proportion to what is live: 8 MiB cost 17 MB of peak RSS on the 111 MiB
// benchmark catalog, 1 MiB no time.
const memBudget = 1 << 20

// OrderedWriter collects encoded objects from any number of goroutines and
// writes them in upstream's output order at the end. Beyond a memory
// budget, encoded objects go to an unlinked temporary file (see package
// spool), so memory does not grow with the size of the catalog.
type OrderedWriter struct {
	format Format
	spool  *spool.Spool

	mu      sync.Mutex
	entries []orderedEntry
	// encoded holds the buffers objects are encoded into before they are
	// filed.
	encoded *spool.Buffers
}

// NewOrderedWriter returns a writer for format f. Close releases its
// temporary file.
func NewOrderedWriter(f Format) *OrderedWriter {
	return &OrderedWriter{format: f, spool: spool.New(memBudget), encoded: spool.NewBuffers(encodeBuffers, 64<<10, encodeBufferMax)}
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
	bp := w.encoded.Get()
	defer w.encoded.Put(bp)
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
	ref, err := w.spool.Add(buf)
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.entries = append(w.entries, orderedEntry{key: key, order: order, ref: ref})
	w.mu.Unlock()
	return nil
}

// WriteTo writes every object added, in upstream's order. It must not run
// concurrently with Add.
func (w *OrderedWriter) WriteTo(out io.Writer) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	slices.SortFunc(w.entries, func(a, b orderedEntry) int {
		return cmp.Or(a.key.compare(b.key), a.order.compare(b.order))
	})
	return w.spool.WriteTo(out, func(yield func(spool.Ref) bool) {
		for _, e := range w.entries {
			if !yield(e.ref) {
				return
			}
		}
	})
}

// Close releases the temporary file.
func (w *OrderedWriter) Close() error {
	w.mu.Lock()
	w.entries = nil
	w.mu.Unlock()
	return w.spool.Close()
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
