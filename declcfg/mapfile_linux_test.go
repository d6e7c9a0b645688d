package declcfg

import (
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
// as one that is read does.
func TestLoadMappedFile(t *testing.T) {
	data := largeCatalog(300)
	if len(data) < mapMin {
		t.Fatalf("the catalog is %d bytes, not over %d", len(data), mapMin)
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
	if len(mapped.Bundles) != 300 || len(read.Bundles) != 300 {
		t.Fatalf("%d bundles mapped, %d read, want 300", len(mapped.Bundles), len(read.Bundles))
	}
	for i := range mapped.Bundles {
		if m, r := mapped.Bundles[i], read.Bundles[i]; m.Name != r.Name || string(m.Properties[1].Value) != string(r.Properties[1].Value) {
			t.Fatalf("bundle %d: mapped %s, read %s", i, m.Name, r.Name)
		}
	}
}

// TestLoadMappedFileTruncated checks that a mapped file made shorter
// while it is read is a problem with that file, not a crash.
func TestLoadMappedFileTruncated(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "catalog.json")
	if err := os.WriteFile(name, largeCatalog(300), 0o644); err != nil {
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
