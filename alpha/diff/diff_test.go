package diff_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/diff"
	"github.com/fbcat/opm/alpha/filter"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

const (
	oldCatalog          = "../../testdata/filter/catalog"
	newCatalog          = "../../testdata/diff/new"
	conformanceCatalogs = "../../../shared/conformance/catalogs"
)

func load(t testing.TB, refs ...string) *declcfg.DeclarativeConfig {
	t.Helper()
	cfg, err := (&render.Renderer{}).Run(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestCompare(t *testing.T) {
	res := diff.Compare(load(t, oldCatalog), load(t, newCatalog))
	got, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"added":[{"schema":"olm.bundle","package":"widget","name":"widget.v1.4.0"}]`,
		`{"schema":"olm.package","package":"","name":"cat-facts-operator"}`,
		`{"schema":"olm.bundle","package":"widget","name":"widget.v1.0.0"}`,
		`{"schema":"olm.package","package":"","name":"widget","fields":["defaultChannel"]}`,
		`{"schema":"olm.bundle","package":"widget","name":"widget.v1.2.1","fields":["image"]}`,
		`{"schema":"olm.deprecations","package":"widget","name":"","fields":["entries"]}`,
		`{"schema":"example.com/widget-notes","package":"widget","name":"release-notes","fields":["notes"]}`,
	} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("result lacks %s:\n%s", want, got)
		}
	}
	// cat-facts-operator: package, channel, 4 bundles; clusterpulse:
	// package, 2 channels, 9 bundles; widget.v1.0.0.
	if len(res.Removed) != 6+12+1 {
		t.Errorf("removed: %+v", res.Removed)
	}
	if res.Empty() {
		t.Error("Empty() on differing catalogs")
	}

	var text bytes.Buffer
	if err := diff.WriteText(&text, res); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "text.golden")
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, text.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(text.Bytes(), want) {
		t.Errorf("text output:\n%s\nwant:\n%s", text.Bytes(), want)
	}
}

// The same catalog, written as YAML or JSON, is no difference.
func TestCompareSameCatalog(t *testing.T) {
	dir := t.TempDir()
	cfg := load(t, oldCatalog)
	f, err := os.Create(filepath.Join(dir, "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := declcfg.Write(cfg, f, declcfg.FormatJSON); err != nil {
		t.Fatal(err)
	}
	f.Close()
	res := diff.Compare(cfg, load(t, dir))
	if !res.Empty() {
		t.Errorf("differences: %+v", res)
	}
	var text bytes.Buffer
	if err := diff.WriteText(&text, res); err != nil || text.Len() != 0 {
		t.Errorf("text output %q, %v", text.String(), err)
	}
	if got, _ := json.Marshal(res); string(got) != `{"added":[],"removed":[],"changed":[]}` {
		t.Errorf("json: %s", got)
	}
}

// Blobs that share an identity (no name) pair up by content first.
func TestCompareSharedIdentity(t *testing.T) {
	blob := func(s string) declcfg.Meta {
		return declcfg.Meta{Schema: "example.com/note", Package: "p", Blob: json.RawMessage(`{"package":"p","schema":"example.com/note","text":"` + s + `"}`)}
	}
	old := &declcfg.DeclarativeConfig{Others: []declcfg.Meta{blob("a"), blob("b"), blob("c")}}
	new := &declcfg.DeclarativeConfig{Others: []declcfg.Meta{blob("c"), blob("a"), blob("d"), blob("e")}}
	res := diff.Compare(old, new)
	if len(res.Changed) != 1 || strings.Join(res.Changed[0].Fields, ",") != "text" || len(res.Added) != 1 || len(res.Removed) != 0 {
		t.Errorf("result: %+v", res)
	}
}

// Diffing a real catalog against its filtered self finds exactly what the
// filter removed.
func TestCompareFiltered(t *testing.T) {
	if _, err := os.Stat(conformanceCatalogs); err != nil {
		t.Skip("no conformance catalogs:", err)
	}
	full := load(t, conformanceCatalogs)
	heads, err := filter.Apply(full, filter.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	res := diff.Compare(full, heads)
	if len(res.Added) != 0 || len(res.Removed) != len(full.Bundles)-len(heads.Bundles) {
		t.Errorf("%d added, %d removed, want 0 and %d", len(res.Added), len(res.Removed), len(full.Bundles)-len(heads.Bundles))
	}
	for _, c := range res.Changed {
		if c.Schema != declcfg.SchemaChannel || strings.Join(c.Fields, ",") != "entries" {
			t.Errorf("changed: %+v", c)
		}
	}
	var text bytes.Buffer
	if err := diff.WriteText(&text, res); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "channel head") {
		t.Errorf("heads moved:\n%s", text.String())
	}
}
