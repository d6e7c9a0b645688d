package declcfg

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// largeCatalog returns a JSON catalog file of n bundles, over mapMin
// bytes for n of a few hundred.
func largeCatalog(n int) []byte {
	object := base64.StdEncoding.EncodeToString([]byte(`{"kind":"ConfigMap","data":{"x":"` + strings.Repeat("y", 800) + `"}}`))
	var b strings.Builder
	b.WriteString(`{"schema":"olm.package","name":"p"}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"schema":"olm.bundle","package":"p","name":"p.v%d","image":"quay.io/p:%d","properties":[{"type":"olm.package","value":{"packageName":"p","version":"%d.0.0"}},{"type":"olm.bundle.object","value":{"data":"%s"}}]}`+"\n",
			i, i, i, object)
	}
	return []byte(b.String())
}

// TestLoadMappedFile checks that a file large enough to be mapped loads
// as one that is read does: read into huge pages (where they can be had)
// or populated at once, and (over readMax) populated and given back as it
// is decoded.
func TestLoadMappedFile(t *testing.T) {
	for _, n := range []int{300, 8000} {
		data := largeCatalog(n)
		if len(data) < mapMin || n > 300 && len(data) < 2*max(mapWindow, readMax) {
			t.Fatalf("the catalog of %d bundles is %d bytes, too small", n, len(data))
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "catalog.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		mapped, err := LoadFS(context.Background(), os.DirFS(dir))
		if err != nil {
			t.Fatal(err)
		}
		mem, err := NewMemFS(map[string][]byte{"catalog.json": data})
		if err != nil {
			t.Fatal(err)
		}
		read, err := LoadFS(context.Background(), mem)
		if err != nil {
			t.Fatal(err)
		}
		if len(mapped.Bundles) != n || len(read.Bundles) != n {
			t.Fatalf("%d bundles mapped, %d read, want %d", len(mapped.Bundles), len(read.Bundles), n)
		}
		for i := range mapped.Bundles {
			if m, r := mapped.Bundles[i], read.Bundles[i]; m.Name != r.Name || string(m.Properties[1].Value) != string(r.Properties[1].Value) {
				t.Fatalf("bundle %d: mapped %s, read %s", i, m.Name, r.Name)
			}
		}
	}
}

// TestMappingConsumed checks the window of a large mapped file: pages
// asked for ahead of the decoder, given back behind it, and read again
// from the file when they are read after all.
func TestMappingConsumed(t *testing.T) {
	data := largeCatalog(8000)
	name := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, ok := mapFile(f, int64(len(data)))
	if !ok {
		t.Fatal("not mapped")
	}
	defer m.close()
	if m.released != 0 || m.populated < mapWindow || m.populated >= len(data) {
		t.Fatalf("at the start: released %d, populated %d of %d", m.released, m.populated, len(data))
	}
	off := 3*mapRelease + 17
	m.consumed(off)
	if m.released == 0 || m.released > off || m.released%os.Getpagesize() != 0 || m.populated < off+mapWindow/2 {
		t.Fatalf("at %d: released %d, populated %d", off, m.released, m.populated)
	}
	m.consumed(len(data))
	if m.populated != len(data) {
		t.Fatalf("at the end: populated %d of %d", m.populated, len(data))
	}
	if string(m.data) != string(data) {
		t.Fatal("the pages given back read otherwise than the file")
	}
}

// TestLoadMappedFileTruncated checks that a mapped file made shorter
// while it is read is a problem with that file, not a crash.
func TestLoadMappedFileTruncated(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "catalog.json")
	data := largeCatalog(3500) // mapped whatever the huge pages: past readMax
	if len(data) <= readMax {
		t.Fatalf("the catalog is %d bytes, not past readMax", len(data))
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	truncated := false
	errs, err := WalkFS(context.Background(), os.DirFS(dir), func(Item) error {
		if !truncated {
			truncated = true
			if err := os.Truncate(name, 0); err != nil {
				t.Error(err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "catalog.json") || !strings.Contains(errs[0].Error(), "made shorter while opm read it") {
		t.Errorf("problems %v, want that catalog.json was made shorter", errs)
	}
}

// TestLoadIntoOneBuffer loads, with one worker, files that are read into
// the same buffer outside the heap where huge pages can be had: the
// largest first, then smaller ones that reuse it. Each file's bundles
// must be its own, whatever the one before left in the buffer.
func TestLoadIntoOneBuffer(t *testing.T) {
	dir := t.TempDir()
	sizes := map[string]int{"a.json": 900, "b.json": 400, "c.json": 250}
	for name, n := range sizes {
		data := bytes.ReplaceAll(largeCatalog(n), []byte(`"p"`), []byte(`"`+name[:1]+`"`))
		data = bytes.ReplaceAll(data, []byte(`"p.v`), []byte(`"`+name[:1]+`.v`))
		if len(data) < mapMin || len(data) >= readMax {
			t.Fatalf("%s is %d bytes, not between mapMin and readMax", name, len(data))
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := LoadFS(context.Background(), os.DirFS(dir), WithConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, b := range cfg.Bundles {
		if !strings.HasPrefix(b.Name, b.Package+".v") || len(b.Properties) != 2 || !bytes.Contains(b.Properties[1].Value, []byte(`"data":"`)) {
			t.Fatalf("bundle %s of package %s: %d properties", b.Name, b.Package, len(b.Properties))
		}
		count[b.Package]++
	}
	for name, n := range sizes {
		if count[name[:1]] != n {
			t.Errorf("package %s: %d bundles, want %d", name[:1], count[name[:1]], n)
		}
	}
}
