package declcfg_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// TestWriteOrder checks that encoding the objects WriteOrder lists, one
// after another, gives Write's bytes: on a synthetic catalog loaded
// shuffled (several packages, bundles out of order), with other blobs
// with and without a package and objects Write drops.
func TestWriteOrder(t *testing.T) {
	dir := t.TempDir()
	if err := declcfgtest.Write(dir, declcfgtest.Options{Packages: 4, Bundles: 12, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	cfg, err := declcfg.LoadFS(context.Background(), os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	// Reverse the bundles and add what only the order rules place.
	for i, j := 0, len(cfg.Bundles)-1; i < j; i, j = i+1, j-1 {
		cfg.Bundles[i], cfg.Bundles[j] = cfg.Bundles[j], cfg.Bundles[i]
	}
	meta := func(schema, pkg string) declcfg.Meta {
		blob, _ := json.Marshal(map[string]string{"schema": schema, "package": pkg})
		return declcfg.Meta{Schema: schema, Package: pkg, Blob: blob}
	}
	cfg.Others = append(cfg.Others, meta("z.root", ""), meta("a.other", cfg.Packages[0].Name), meta("a.root", ""))
	cfg.Bundles = append(cfg.Bundles, declcfg.Bundle{Schema: declcfg.SchemaBundle, Name: "dropped", Image: "x"})
	cfg.Channels = append(cfg.Channels, declcfg.Channel{Schema: declcfg.SchemaChannel, Name: "dropped"})
	for _, f := range []declcfg.Format{declcfg.FormatYAML, declcfg.FormatJSON} {
		var want bytes.Buffer
		if err := declcfg.Write(cfg, &want, f); err != nil {
			t.Fatal(err)
		}
		var got []byte
		for _, obj := range cfg.WriteOrder() {
			if f == declcfg.FormatYAML {
				if got, err = obj.AppendYAML(got); err != nil {
					t.Fatal(err)
				}
			} else {
				got = obj.AppendJSON(got)
			}
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("format %v: objects in WriteOrder, encoded, differ from Write's output (%d bytes against %d)", f, len(got), want.Len())
		}
	}
}
