package graph_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
// drawing and the warnings with the goldens (see testdata/graph/cases
// for which of them upstream opm draws the same).
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
				// Warnings name files as the test reaches them;
				// the goldens, as golden.sh does, from testdata/graph.
				stderr.WriteString("warning: " + strings.ReplaceAll(w.Error(), testdata+"/", "") + "\n")
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
// refuses, and that the errors name every bundle at fault and where it is.
func TestErrors(t *testing.T) {
	catalog := func(props ...string) *declcfg.DeclarativeConfig {
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
	twoBroken := catalog()
	twoBroken.Bundles = append(twoBroken.Bundles, declcfg.Bundle{Name: "a", Package: "q", Pos: declcfg.Pos{File: "cat/q.yaml", Line: 3},
		Properties: []declcfg.Property{{Type: "olm.package", Value: []byte(`{"packageName":"q","version":1}`), Line: 5}}})
	for _, c := range []struct {
		name string
		cfg  *declcfg.DeclarativeConfig
		opts graph.Options
		want string
	}{
		{"no package property", catalog(), graph.Options{},
			`cat/p.yaml:7: bundle "b" (package "p"): has no "olm.package" property; add {type: olm.package, value: {packageName: p, version: ...}}`},
		{"two package properties", catalog("olm.package", pkg, "olm.package", pkg), graph.Options{},
			`cat/p.yaml:12: bundle "b" (package "p"): has 2 "olm.package" properties; keep one`},
		{"invalid version", catalog("olm.package", `{"packageName":"p","version":"v1"}`), graph.Options{},
			`cat/p.yaml:10: bundle "b" (package "p"): invalid version "v1" in its "olm.package" property: No Major.Minor.Patch elements found (write MAJOR.MINOR.PATCH, without a leading "v")`},
		{"every broken bundle", twoBroken, graph.Options{},
			`cat/p.yaml:7: bundle "b" (package "p"): has no "olm.package" property; add {type: olm.package, value: {packageName: p, version: ...}}` + "\n" +
				`cat/q.yaml:5: bundle "a" (package "q"): cannot read its "olm.package" property: json: cannot unmarshal number into Go struct field PackageProperty.version of type string`},
		{"unknown minimum edge", catalog("olm.package", pkg), graph.Options{MinimumEdge: "nope"},
			`unknown minimum edge name: "nope": no bundle has that name`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := graph.WriteMermaid(&out, c.cfg, c.opts)
			if err == nil || err.Error() != c.want {
				t.Errorf("got error:\n%v\nwant:\n%s", err, c.want)
			}
			if out.Len() > 0 {
				t.Errorf("wrote %q on error", out.String())
			}
		})
	}
}

// TestOtherPropertiesNotRead checks that only the olm.package property
// matters: upstream refuses bundles with any malformed property of a type
// it knows; the graph has no use for them (opm validate reports them).
func TestOtherPropertiesNotRead(t *testing.T) {
	cfg := &declcfg.DeclarativeConfig{
		Channels: []declcfg.Channel{{Name: "stable", Package: "p", Entries: []declcfg.ChannelEntry{{Name: "b"}}}},
		Bundles: []declcfg.Bundle{{Name: "b", Package: "p", Properties: []declcfg.Property{
			{Type: "olm.package", Value: []byte(`{"packageName":"p","version":"1.0.0"}`)},
			{Type: "olm.gvk", Value: []byte(`"x"`)},
			{Type: "olm.csv.metadata", Value: []byte(`{"installModes":[{"supported":"yes"}]}`)},
			{Type: "example.com/x"},
		}}},
	}
	var out bytes.Buffer
	if _, err := graph.WriteMermaid(&out, cfg, graph.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `p-stable-b["b"]`) {
		t.Errorf("bundle not drawn:\n%s", out.String())
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

// drawn is a drawing taken apart: the flowchart lines, the style and
// class lines, and the edges the linkStyle line styles.
type drawn struct {
	body    []string
	styles  []string // style lines and "id class" pairs
	redEdge []string // the edge lines linkStyle points at
}

func parseDrawing(t *testing.T, text string) drawn {
	t.Helper()
	var d drawn
	var edges []string
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n")[4:] {
		switch f := strings.Fields(line); {
		case f[0] == "style":
			d.styles = append(d.styles, line)
		case f[0] == "class":
			for _, id := range strings.Split(f[1], ",") {
				d.styles = append(d.styles, id+" "+f[2])
			}
		case f[0] == "linkStyle":
			for _, n := range strings.Split(f[1], ",") {
				i, err := strconv.Atoi(n)
				if err != nil || i >= len(edges) {
					t.Fatalf("linkStyle %s: no such link among %d", n, len(edges))
				}
				d.redEdge = append(d.redEdge, edges[i])
			}
		default:
			d.body = append(d.body, line)
			if strings.Contains(line, " --> ") {
				edges = append(edges, line)
			}
		}
	}
	return d
}

// TestPackagesDrawnAsAlone checks that a catalog is drawn as its packages
// are drawn one by one (as upstream draws a single package): the same
// lines in package order, the same styles and classes, and linkStyle
// pointing at the same edges, counted in the order mermaid counts them.
// (Not testdata/graph/names: -p leaves out channels without entries.)
func TestPackagesDrawnAsAlone(t *testing.T) {
	for _, dir := range []string{"linkorder", "deprecations", "channels", "minedge", "skips", "skipranges", "versions", "../serve/catalog"} {
		for _, v0 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/v0=%v", dir, v0), func(t *testing.T) {
				cfg := load(t, filepath.Join(testdata, dir))
				var all bytes.Buffer
				if _, err := graph.WriteMermaid(&all, cfg, graph.Options{V0Semantics: v0}); err != nil {
					t.Fatal(err)
				}
				got := parseDrawing(t, all.String())
				var want drawn
				pkgs := map[string]bool{}
				for _, c := range cfg.Channels {
					pkgs[c.Package] = true
				}
				for _, p := range slices.Sorted(maps.Keys(pkgs)) {
					var one bytes.Buffer
					if _, err := graph.WriteMermaid(&one, cfg, graph.Options{V0Semantics: v0, Package: p}); err != nil {
						t.Fatal(err)
					}
					d := parseDrawing(t, one.String())
					want.body = append(want.body, d.body...)
					want.styles = append(want.styles, d.styles...)
					want.redEdge = append(want.redEdge, d.redEdge...)
				}
				for _, l := range [][]string{got.styles, want.styles} {
					slices.Sort(l)
				}
				if !slices.Equal(got.body, want.body) {
					t.Errorf("flowchart differs from the packages drawn one by one:\n%s", lineDiff(strings.Join(want.body, "\n"), strings.Join(got.body, "\n")))
				}
				if !slices.Equal(got.styles, want.styles) {
					t.Errorf("styles %q, drawn one by one %q", got.styles, want.styles)
				}
				if !slices.Equal(got.redEdge, want.redEdge) {
					t.Errorf("linkStyle styles\n%s\ndrawn one by one\n%s", strings.Join(got.redEdge, "\n"), strings.Join(want.redEdge, "\n"))
				}
			})
		}
	}
}
