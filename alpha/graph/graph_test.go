package graph_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/graph"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

const testdata = "../../testdata/graph"

// testCase is a line of testdata/graph/cases: the references and the
// options of one drawing, and the golden files it is compared with.
type testCase struct {
	name string
	refs []string
	opts graph.Options
}

// readCases parses testdata/graph/cases, whose lines hold a golden name
// and the arguments of `opm alpha render-graph`.
func readCases(t *testing.T) []testCase {
	t.Helper()
	f, err := os.Open(filepath.Join(testdata, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []testCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		words := strings.Fields(sc.Text())
		if len(words) == 0 || strings.HasPrefix(words[0], "#") {
			continue
		}
		c := testCase{name: words[0]}
		args := words[1:]
		for i := 0; i < len(args); i++ {
			switch args[i] {
			case "--draw-v0-semantics":
				c.opts.V0Semantics = true
			case "--minimum-edge":
				i++
				c.opts.MinimumEdge = args[i]
			case "-p":
				i++
				c.opts.Package = args[i]
			default:
				c.refs = append(c.refs, filepath.Join(testdata, args[i]))
			}
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// load renders catalog directories as the command does.
func load(t *testing.T, refs ...string) *declcfg.DeclarativeConfig {
	t.Helper()
	migrations, err := render.MigrationsFor(render.AllMigrations)
	if err != nil {
		t.Fatal(err)
	}
	r := render.Renderer{Allowed: render.CatalogDir, Migrations: migrations}
	cfg, err := r.Run(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestGoldens draws every case of testdata/graph/cases and compares the
// drawing and the warnings with the goldens made by upstream opm.
func TestGoldens(t *testing.T) {
	for _, c := range readCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := load(t, c.refs...)
			var out bytes.Buffer
			warnings, err := graph.WriteMermaid(&out, cfg, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			for _, w := range warnings {
				stderr.WriteString("warning: " + w.String() + "\n")
			}
			compare(t, c.name+".mmd", out.String())
			compare(t, c.name+".stderr", stderr.String())
		})
	}
}

// compare checks text against a golden file; a missing file stands for
// empty text.
func compare(t *testing.T, golden, text string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(testdata, "golden", golden))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if text != string(want) {
		t.Errorf("%s differs:\n%s", golden, lineDiff(string(want), text))
	}
}

// lineDiff shows the first line where got departs from want.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant: %q\ngot:  %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}

// TestErrors checks that drawing fails, writing nothing, on what upstream
// refuses, and that the errors name the bundle and where it is.
func TestErrors(t *testing.T) {
	bundle := func(props ...string) *declcfg.DeclarativeConfig {
		cfg := &declcfg.DeclarativeConfig{
			Channels: []declcfg.Channel{{Name: "stable", Package: "p", Entries: []declcfg.ChannelEntry{{Name: "b"}}}},
			Bundles:  []declcfg.Bundle{{Name: "b", Package: "p", Pos: declcfg.Pos{File: "cat/p.yaml", Line: 7}}},
		}
		for i := 0; i < len(props); i += 2 {
			p := declcfg.Property{Type: props[i], Line: 10 + i}
			if props[i+1] != "" {
				p.Value = []byte(props[i+1])
			}
			cfg.Bundles[0].Properties = append(cfg.Bundles[0].Properties, p)
		}
		return cfg
	}
	pkg := `{"packageName":"p","version":"1.0.0"}`
	for _, c := range []struct {
		name string
		cfg  *declcfg.DeclarativeConfig
		opts graph.Options
		want string
	}{
		{"no package property", bundle(), graph.Options{},
			`cat/p.yaml:7: bundle "b" (package "p"): has no "olm.package" property: exactly 1 is needed, for the bundle's version`},
		{"two package properties", bundle("olm.package", pkg, "olm.package", pkg), graph.Options{},
			`cat/p.yaml:7: bundle "b" (package "p"): has 2 "olm.package" properties: exactly 1 is needed, for the bundle's version`},
		{"invalid version", bundle("olm.package", `{"packageName":"p","version":"v1"}`), graph.Options{},
			`cat/p.yaml:10: bundle "b" (package "p"): invalid version "v1" in its "olm.package" property: No Major.Minor.Patch elements found`},
		{"unreadable gvk", bundle("olm.package", pkg, "olm.gvk", `"x"`), graph.Options{},
			`cat/p.yaml:12: bundle "b" (package "p"): cannot read properties[1] (olm.gvk): value must be an object, not a string`},
		{"unreadable csv metadata", bundle("olm.package", pkg, "olm.csv.metadata", `{"installModes":[{"supported":"yes"}]}`), graph.Options{},
			`cat/p.yaml:12: bundle "b" (package "p"): cannot read properties[1] (olm.csv.metadata): value.installModes.supported must be a boolean, not a string`},
		{"missing value", bundle("olm.package", pkg, "example.com/x", ""), graph.Options{},
			`cat/p.yaml:12: bundle "b" (package "p"): cannot read properties[1] (example.com/x): value is missing`},
		{"unknown minimum edge", bundle("olm.package", pkg), graph.Options{MinimumEdge: "nope"},
			`unknown minimum edge name: "nope": no bundle has that name`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := graph.WriteMermaid(&out, c.cfg, c.opts)
			if err == nil || err.Error() != c.want {
				t.Errorf("got error %v, want %s", err, c.want)
			}
			if out.Len() > 0 {
				t.Errorf("wrote %q on error", out.String())
			}
		})
	}
}

// TestSameNameCheckedOnce checks that, as upstream, only the first
// bundle of a name is read: a later one of the same name may be broken.
func TestSameNameCheckedOnce(t *testing.T) {
	cfg := &declcfg.DeclarativeConfig{Bundles: []declcfg.Bundle{
		{Name: "b", Package: "p", Properties: []declcfg.Property{{Type: "olm.package", Value: []byte(`{"packageName":"p","version":"1.0.0"}`)}}},
		{Name: "b", Package: "q"},
	}}
	if _, err := graph.WriteMermaid(&bytes.Buffer{}, cfg, graph.Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestInputUnchanged checks that drawing leaves the catalog as it was
// (upstream sorts the caller's channels).
func TestInputUnchanged(t *testing.T) {
	cfg := load(t, filepath.Join(testdata, "channels"))
	var before bytes.Buffer
	for _, c := range cfg.Channels {
		before.WriteString(c.Package + "/" + c.Name + "\n")
	}
	if _, err := graph.WriteMermaid(&bytes.Buffer{}, cfg, graph.Options{V0Semantics: true}); err != nil {
		t.Fatal(err)
	}
	var after bytes.Buffer
	for _, c := range cfg.Channels {
		after.WriteString(c.Package + "/" + c.Name + "\n")
	}
	if before.String() != after.String() {
		t.Error("WriteMermaid reordered the catalog's channels")
	}
}
