package declcfg

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// spillCatalog is a catalog whose output is several times memBudget, in
// objects of many sizes (one larger than the read-back buffer), loaded in
// an order unlike the output's.
func spillCatalog(t *testing.T) *DeclarativeConfig {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 34))
	cfg := &DeclarativeConfig{}
	add := func(pkg string, size int) {
		blob, err := json.Marshal(map[string]string{
			"schema": "test.blob", "package": pkg, "data": strings.Repeat(string(rune('a'+rng.IntN(26))), size),
		})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Others = append(cfg.Others, Meta{Schema: "test.blob", Package: pkg, Blob: blob})
	}
	for i := range 400 {
		add(string(rune('z'-i%26)), 1+rng.IntN(24<<10))
	}
	for range 60 { // next to each other in the file and in the output
		add("q", 1+rng.IntN(8<<10))
	}
	add("m", 400<<10) // larger than the read-back buffer
	add("", 10)
	return cfg
}

// TestOrderedWriterSpill checks that output going through the temporary
// file, in batches, is byte for byte the objects in WriteOrder, and the
// same with objects added concurrently and when no temporary file can be
// made.
func TestOrderedWriterSpill(t *testing.T) {
	cfg := spillCatalog(t)
	var want []byte
	for _, obj := range cfg.WriteOrder() {
		want = obj.AppendJSON(want)
	}
	if len(want) < 4*memBudget {
		t.Fatalf("test catalog writes %d bytes, want several times memBudget", len(want))
	}
	check := func(what string, spilled, concurrent bool) {
		t.Helper()
		w := NewOrderedWriter(FormatJSON)
		defer w.Close()
		if concurrent {
			if err := w.AddAll(cfg, 0); err != nil {
				t.Fatal(err)
			}
		} else {
			for i, obj := range cfg.encodables() {
				if err := w.Add(obj, Order{Seq: Seq{Index: i}}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got := w.spool.Spilled(); got != spilled {
			t.Errorf("%s: temporary file used %v, want %v", what, got, spilled)
		}
		var got bytes.Buffer
		n, err := w.WriteTo(&got)
		if err != nil {
			t.Fatal(err)
		}
		if n != int64(got.Len()) || !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: output (%d bytes, %d reported) differs from the objects in WriteOrder (%d bytes)", what, got.Len(), n, len(want))
		}
	}
	check("temporary file", true, false)
	check("temporary file, objects added concurrently", true, true)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	check("no temporary file", false, true)
}
