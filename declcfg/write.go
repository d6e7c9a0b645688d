package declcfg

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Format is an output format.
type Format string

// The output formats.
const (
	FormatJSON Format = "json"
	FormatYAML Format = "yaml"
)

// ParseFormat checks a user-given format name.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case FormatJSON, FormatYAML:
		return Format(s), nil
	}
	return "", fmt.Errorf("invalid --output value %q, expected (json|yaml)", s)
}

// Ext is the file extension for the format.
func (f Format) Ext() string { return "." + string(f) }

// encodable is any catalog object.
type encodable interface {
	AppendJSON([]byte) []byte
	AppendYAML([]byte) ([]byte, error)
}

// PackageGroup is one package's share of a catalog in output order.
type PackageGroup struct {
	Name    string
	objects []encodable
}

// Order arranges cfg as upstream writes it: one group per package, in byte
// order of package name, holding the olm.package blobs (in load order), the
// channels and then the bundles sorted by name, the other blobs sorted by
// schema (stably), then the deprecations. Objects with an empty package are
// dropped, except other blobs, which form a last group with an empty Name.
func Order(cfg *DeclarativeConfig) []PackageGroup {
	groups := map[string]*PackageGroup{}
	var names []string
	group := func(name string) *PackageGroup {
		g, ok := groups[name]
		if !ok {
			g = &PackageGroup{Name: name}
			groups[name] = g
			names = append(names, name)
		}
		return g
	}
	for i := range cfg.Packages {
		if p := &cfg.Packages[i]; p.Name != "" {
			g := group(p.Name)
			g.objects = append(g.objects, p)
		}
	}
	channels := sortedBy(cfg.Channels, func(c *Channel) string { return c.Name })
	for _, c := range channels {
		if c.Package != "" {
			g := group(c.Package)
			g.objects = append(g.objects, c)
		}
	}
	bundles := sortedBy(cfg.Bundles, func(b *Bundle) string { return b.Name })
	for _, b := range bundles {
		if b.Package != "" {
			g := group(b.Package)
			g.objects = append(g.objects, b)
		}
	}
	others := sortedBy(cfg.Others, func(m *Meta) string { return m.Schema })
	var root PackageGroup
	for i := range cfg.Others {
		// Root blobs keep load order; packaged ones follow the schema sort.
		if m := &cfg.Others[i]; m.Package == "" {
			root.objects = append(root.objects, m)
		}
	}
	for _, m := range others {
		if m.Package != "" {
			g := group(m.Package)
			g.objects = append(g.objects, m)
		}
	}
	for i := range cfg.Deprecations {
		if d := &cfg.Deprecations[i]; d.Package != "" {
			g := group(d.Package)
			g.objects = append(g.objects, d)
		}
	}
	slices.Sort(names)
	out := make([]PackageGroup, 0, len(names)+1)
	for _, n := range names {
		out = append(out, *groups[n])
	}
	if len(root.objects) > 0 {
		out = append(out, root)
	}
	return out
}

func sortedBy[T any](items []T, key func(*T) string) []*T {
	ptrs := make([]*T, len(items))
	for i := range items {
		ptrs[i] = &items[i]
	}
	slices.SortStableFunc(ptrs, func(a, b *T) int { return cmp.Compare(key(a), key(b)) })
	return ptrs
}

// Write writes cfg in format f exactly as upstream's `opm render` does:
// JSON objects indented by four spaces, one after another, or YAML
// documents each introduced by "---".
func Write(cfg *DeclarativeConfig, w io.Writer, f Format) error {
	var objs []encodable
	for _, g := range Order(cfg) {
		objs = append(objs, g.objects...)
	}
	return writeObjects(objs, w, f)
}

// WriteJSON writes cfg as `opm render -o json` does.
func WriteJSON(cfg *DeclarativeConfig, w io.Writer) error { return Write(cfg, w, FormatJSON) }

// WriteYAML writes cfg as `opm render -o yaml` does.
func WriteYAML(cfg *DeclarativeConfig, w io.Writer) error { return Write(cfg, w, FormatYAML) }

// writeObjects encodes objects on all CPUs, in batches, and writes the
// batches in order.
func writeObjects(objs []encodable, w io.Writer, f Format) error {
	const batchSize = 64
	type batch struct {
		buf  []byte
		err  error
		done chan struct{}
	}
	nb := (len(objs) + batchSize - 1) / batchSize
	batches := make([]*batch, nb)
	for i := range batches {
		batches[i] = &batch{done: make(chan struct{})}
	}
	work := make(chan int)
	workers := min(runtime.GOMAXPROCS(0), max(nb, 1))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				bt := batches[i]
				for _, o := range objs[i*batchSize : min(len(objs), (i+1)*batchSize)] {
					if f == FormatYAML {
						bt.buf, bt.err = o.AppendYAML(bt.buf)
						if bt.err != nil {
							break
						}
					} else {
						bt.buf = o.AppendJSON(bt.buf)
					}
				}
				close(bt.done)
			}
		}()
	}
	go func() {
		defer close(work)
		for i := range nb {
			// Stay at most a few batches ahead of the writer.
			if i >= 4*workers {
				select {
				case <-batches[i-4*workers].done:
				case <-stop:
					return
				}
			}
			select {
			case work <- i:
			case <-stop:
				return
			}
		}
	}()
	bw := bufio.NewWriterSize(w, 256<<10)
	var err error
	for _, bt := range batches {
		<-bt.done
		if err == nil {
			if bt.err != nil {
				err = fmt.Errorf("writing YAML: %w", bt.err)
			} else if _, werr := bw.Write(bt.buf); werr != nil {
				err = werr
			}
		}
		bt.buf = nil
		if err != nil {
			break
		}
	}
	close(stop)
	wg.Wait()
	if err != nil {
		return err
	}
	return bw.Flush()
}

// CheckPackageDirName checks that a package name can be a directory name.
func CheckPackageDirName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.ContainsRune(name, 0) {
		return fmt.Errorf("invalid package name %q: must be a single local path element", name)
	}
	return nil
}
