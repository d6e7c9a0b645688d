package filter_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/alpha/filter"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/validate"
)

const testCatalog = "../../testdata/filter/catalog"

// conformanceCatalogs is the shared conformance data, when it is there.
const conformanceCatalogs = "../../../shared/conformance/catalogs"

func load(t *testing.T, refs ...string) *declcfg.DeclarativeConfig {
	t.Helper()
	cfg, err := (&render.Renderer{}).Run(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func config(t *testing.T, yaml string) filter.Filter {
	t.Helper()
	c, err := filter.ParseConfig("imageset.yaml", []byte("apiVersion: mirror.openshift.io/v2alpha1\nkind: ImageSetConfiguration\nmirror:\n  operators:\n  - catalog: example.com/catalog:v1\n"+yaml))
	if err != nil {
		t.Fatal(err)
	}
	return c.Catalogs[0].Filter
}

// write renders cfg as render writes catalogs.
func write(t *testing.T, cfg *declcfg.DeclarativeConfig) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := declcfg.Write(cfg, &buf, declcfg.FormatJSON); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// mustBeValid checks the filtered catalog with the validate library.
func mustBeValid(t *testing.T, out []byte) {
	t.Helper()
	res, err := validate.Validate(context.Background(), fstest.MapFS{"catalog.json": {Data: out}}, validate.Options{RootName: "filtered"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Fatalf("the filtered catalog is not valid:\n%v", res.Problems)
	}
}

// mustKeepOriginals checks that every bundle and channel entry kept is
// byte for byte the original.
func mustKeepOriginals(t *testing.T, orig, out *declcfg.DeclarativeConfig) {
	t.Helper()
	bundles := map[string][]byte{}
	for i := range orig.Bundles {
		bundles[orig.Bundles[i].Package+"/"+orig.Bundles[i].Name] = orig.Bundles[i].AppendJSON(nil)
	}
	for i := range out.Bundles {
		b := &out.Bundles[i]
		if want := bundles[b.Package+"/"+b.Name]; !bytes.Equal(b.AppendJSON(nil), want) {
			t.Errorf("bundle %s differs from the original", b.Name)
		}
	}
	m, _ := model.New(orig, model.Options{})
	for _, ch := range out.Channels {
		och := m.Packages[ch.Package].Channels[ch.Name]
		for _, e := range ch.Entries {
			o := och.Entry(e.Name)
			if o == nil || o.Replaces != e.Replaces || !slices.Equal(o.Skips, e.Skips) || o.SkipRange != e.SkipRange {
				t.Errorf("channel %s: entry %s differs from the original", ch.Name, e.Name)
			}
		}
	}
}

// kept lists "package/channel: entries" for every channel kept, and the
// bundles kept.
func kept(cfg *declcfg.DeclarativeConfig) []string {
	var out []string
	for _, ch := range cfg.Channels {
		var names []string
		for _, e := range ch.Entries {
			names = append(names, e.Name)
		}
		slices.Sort(names)
		out = append(out, ch.Package+"/"+ch.Name+": "+strings.Join(names, " "))
	}
	var bundles []string
	for _, b := range cfg.Bundles {
		bundles = append(bundles, b.Name)
	}
	slices.Sort(bundles)
	out = append(out, "bundles: "+strings.Join(bundles, " "))
	slices.Sort(out)
	return out
}

func TestApply(t *testing.T) {
	orig := load(t, testCatalog)
	for _, tc := range []struct {
		name, config string
		want         []string
		defaults     map[string]string // package -> default channel, when checked
	}{{
		name:   "package heads only",
		config: "    packages:\n    - name: widget\n",
		want:   []string{"bundles: widget.v1.3.0 widget.v2.0.0", "widget/fast: widget.v2.0.0", "widget/stable: widget.v1.3.0"},
	}, {
		name:   "full package",
		config: "    full: true\n    packages:\n    - name: cat-facts-operator\n",
		want: []string{"bundles: cat-facts-operator.v1.0.0 cat-facts-operator.v1.1.0 cat-facts-operator.v1.1.1 cat-facts-operator.v1.1.2",
			"cat-facts-operator/stable: cat-facts-operator.v1.0.0 cat-facts-operator.v1.1.0 cat-facts-operator.v1.1.1 cat-facts-operator.v1.1.2"},
	}, {
		name:   "a listed channel only, with its head",
		config: "    packages:\n    - name: widget\n      channels:\n      - name: stable\n",
		want:   []string{"bundles: widget.v1.3.0", "widget/stable: widget.v1.3.0"},
	}, {
		name:   "min version keeps up to the head",
		config: "    packages:\n    - name: widget\n      channels:\n      - name: stable\n        minVersion: 1.2.0\n",
		want:   []string{"bundles: widget.v1.2.0 widget.v1.2.1 widget.v1.3.0", "widget/stable: widget.v1.2.0 widget.v1.2.1 widget.v1.3.0"},
	}, {
		name:   "max version moves the head",
		config: "    packages:\n    - name: widget\n      channels:\n      - name: stable\n        maxVersion: 1.1.0\n",
		want:   []string{"bundles: widget.v1.0.0 widget.v1.1.0", "widget/stable: widget.v1.0.0 widget.v1.1.0"},
	}, {
		name: "a skipped bundle in range keeps the bundle that skips it",
		// 1.2.0 is reached only through 1.2.1's skips: 1.2.1 is kept
		// although it is outside the range.
		config: "    packages:\n    - name: widget\n      channels:\n      - name: stable\n        minVersion: 1.2.0\n        maxVersion: 1.2.0\n",
		want:   []string{"bundles: widget.v1.2.0 widget.v1.2.1", "widget/stable: widget.v1.2.0 widget.v1.2.1"},
	}, {
		name:     "a package range leaves out channels with nothing in it",
		config:   "    packages:\n    - name: widget\n      minVersion: 1.0.0\n      maxVersion: 1.1.0\n",
		want:     []string{"bundles: widget.v1.0.0 widget.v1.1.0", "widget/stable: widget.v1.0.0 widget.v1.1.0"},
		defaults: map[string]string{"widget": "stable"},
	}, {
		name:     "default channel replaced",
		config:   "    packages:\n    - name: widget\n      defaultChannel: fast\n      channels:\n      - name: fast\n",
		want:     []string{"bundles: widget.v2.0.0", "widget/fast: widget.v2.0.0"},
		defaults: map[string]string{"widget": "fast"},
	}, {
		name:   "every package, heads only",
		config: "",
		want: []string{"bundles: cat-facts-operator.v1.1.2 clusterpulse.v0.3.0 clusterpulse.v1.0.2 widget.v1.3.0 widget.v2.0.0",
			"cat-facts-operator/stable: cat-facts-operator.v1.1.2", "clusterpulse/fast-v0: clusterpulse.v0.3.0",
			"clusterpulse/fast-v1: clusterpulse.v1.0.2", "widget/fast: widget.v2.0.0", "widget/stable: widget.v1.3.0"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := filter.Apply(orig, config(t, tc.config))
			if err != nil {
				t.Fatal(err)
			}
			if got := kept(out); !slices.Equal(got, tc.want) {
				t.Errorf("kept\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, p := range out.Packages {
				if want, ok := tc.defaults[p.Name]; ok && p.DefaultChannel != want {
					t.Errorf("package %s: default channel %q, want %q", p.Name, p.DefaultChannel, want)
				}
			}
			mustKeepOriginals(t, orig, out)
			mustBeValid(t, write(t, out))
		})
	}
}

func TestApplyDeprecationsAndOthers(t *testing.T) {
	orig := load(t, testCatalog)
	out, err := filter.Apply(orig, config(t, "    packages:\n    - name: widget\n      channels:\n      - name: stable\n        maxVersion: 1.2.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	// 1.0.0 and 1.2.0 are kept; the fast channel is not.
	if len(out.Deprecations) != 1 {
		t.Fatalf("deprecations: %+v", out.Deprecations)
	}
	var refs []string
	for _, e := range out.Deprecations[0].Entries {
		refs = append(refs, e.Reference.Schema+" "+e.Reference.Name)
	}
	if want := []string{"olm.bundle widget.v1.0.0", "olm.bundle widget.v1.2.0"}; !slices.Equal(refs, want) {
		t.Errorf("deprecation entries %v, want %v", refs, want)
	}
	if len(out.Others) != 1 || out.Others[0].Name != "release-notes" {
		t.Errorf("other blobs: %+v", out.Others)
	}
	mustBeValid(t, write(t, out))

	// Deprecations that refer only to removed things go.
	out, err = filter.Apply(orig, config(t, "    packages:\n    - name: widget\n      channels:\n      - name: stable\n        minVersion: 1.3.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Deprecations) != 0 {
		t.Errorf("deprecations kept: %+v", out.Deprecations)
	}
	if len(out.Others) != 1 {
		t.Errorf("other blobs: %+v", out.Others)
	}
}

func TestApplyErrors(t *testing.T) {
	orig := load(t, testCatalog)
	for _, tc := range []struct{ name, config, want string }{
		{"unknown package", "    packages:\n    - name: gadget\n", `imageset.yaml:7: package "gadget" is not in the catalog (packages: cat-facts-operator, clusterpulse, widget)`},
		{"unknown channel", "    packages:\n    - name: widget\n      channels:\n      - name: beta\n", `imageset.yaml:9: package "widget": channel "beta" is not in the catalog (channels: fast, stable)`},
		{"empty range", "    packages:\n    - name: widget\n      channels:\n      - name: stable\n        minVersion: 3.0.0\n", `imageset.yaml:9: package "widget", channel "stable": no bundle is within >=3.0.0 (the channel has 1.0.0 to 1.3.0)`},
		{"empty package range", "    packages:\n    - name: widget\n      minVersion: 5.0.0\n", `package "widget": no bundle of any channel is within >=5.0.0`},
		{"default channel left out", "    packages:\n    - name: widget\n      channels:\n      - name: fast\n", `package "widget": its default channel "stable" is not kept; set defaultChannel to one of the channels kept (fast)`},
		{"default channel not kept", "    packages:\n    - name: widget\n      defaultChannel: beta\n", `package "widget": defaultChannel "beta" is not among the channels kept (fast, stable)`},
		{"package range drops the default channel", "    packages:\n    - name: widget\n      minVersion: 2.0.0\n", `package "widget": its default channel "stable" is not kept`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := filter.Apply(orig, config(t, tc.config))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestShortForm(t *testing.T) {
	orig := load(t, testCatalog)
	f, err := filter.FromPackageArgs([]string{"widget:fast", "cat-facts-operator"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := filter.Apply(orig, f)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"bundles: cat-facts-operator.v1.1.2 widget.v2.0.0", "cat-facts-operator/stable: cat-facts-operator.v1.1.2", "widget/fast: widget.v2.0.0"}
	if got := kept(out); !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	// widget's default channel, stable, is not kept: the first channel
	// named takes its place.
	for _, p := range out.Packages {
		if p.Name == "widget" && p.DefaultChannel != "fast" {
			t.Errorf("default channel %q", p.DefaultChannel)
		}
	}
	mustBeValid(t, write(t, out))
	for _, bad := range [][]string{{"widget:"}, {":fast"}, {"widget", "widget:fast"}, {"widget:fast", "widget:fast"}} {
		if _, err := filter.FromPackageArgs(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestFullIsRender checks that keeping everything writes what render
// writes.
func TestFullIsRender(t *testing.T) {
	orig := load(t, testCatalog)
	out, err := filter.Apply(orig, filter.Filter{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(write(t, out), write(t, load(t, testCatalog))) {
		t.Error("a full filter does not write what render writes")
	}
}

// TestConformanceCatalogs filters the real catalogs: heads only, and
// every channel of every package by ranges made from the channel's own
// versions (its middle version as minimum, as maximum and as both).
// Every result must validate and keep originals.
func TestConformanceCatalogs(t *testing.T) {
	if _, err := os.Stat(conformanceCatalogs); err != nil {
		t.Skip("no conformance catalogs:", err)
	}
	orig := load(t, conformanceCatalogs)
	m, problems := model.New(orig, model.Options{})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	// ranges makes a channel's range from its sorted versions.
	ranges := map[string]func(v []model.Version) filter.Range{
		"min": func(v []model.Version) filter.Range { return filter.Range{Min: &v[len(v)/2].Version} },
		"max": func(v []model.Version) filter.Range { return filter.Range{Max: &v[len(v)/2].Version} },
		"one": func(v []model.Version) filter.Range {
			return filter.Range{Min: &v[len(v)/2].Version, Max: &v[len(v)/2].Version}
		},
	}
	check := func(t *testing.T, f filter.Filter) {
		t.Helper()
		out, err := filter.Apply(orig, f)
		if err != nil {
			t.Fatal(err)
		}
		mustKeepOriginals(t, orig, out)
		mustBeValid(t, write(t, out))
	}
	t.Run("heads", func(t *testing.T) { check(t, filter.Filter{}) })
	for name, mk := range ranges {
		t.Run(name, func(t *testing.T) {
			var f filter.Filter
			for _, pname := range m.PackageNames() {
				p := m.Packages[pname]
				pf := filter.Package{Name: pname}
				for _, cname := range p.ChannelNames() {
					ch := p.Channels[cname]
					var versions []model.Version
					for _, e := range ch.Decl.Entries {
						if v, err := p.Bundles[e.Name].Version(); err == nil {
							versions = append(versions, v)
						}
					}
					if len(versions) == 0 {
						continue
					}
					slices.SortFunc(versions, model.Version.Compare)
					pf.Channels = append(pf.Channels, filter.Channel{Name: cname, Range: mk(versions)})
				}
				if len(pf.Channels) > 0 {
					pf.DefaultChannel = pf.Channels[0].Name
					f.Packages = append(f.Packages, pf)
				}
			}
			check(t, f)
		})
	}
}

func TestRunCombinesReferences(t *testing.T) {
	dir := t.TempDir()
	for _, pkg := range []string{"widget", "cat-facts-operator"} {
		if err := os.CopyFS(filepath.Join(dir, pkg), os.DirFS(filepath.Join(testCatalog, pkg))); err != nil {
			t.Fatal(err)
		}
	}
	c, err := filter.ParseConfig("imageset.yaml", []byte(`apiVersion: mirror.openshift.io/v1alpha2
kind: ImageSetConfiguration
mirror:
  operators:
  - catalog: `+filepath.Join(dir, "widget")+`
    packages:
    - name: widget
  - catalog: `+filepath.Join(dir, "cat-facts-operator")+`/
    full: true
`))
	if err != nil {
		t.Fatal(err)
	}
	sel := func(ref string) (*filter.Filter, error) {
		cat, err := c.ForRef(ref)
		if err != nil {
			return nil, err
		}
		return &cat.Filter, nil
	}
	out, err := filter.Run(context.Background(), &render.Renderer{}, []string{filepath.Join(dir, "widget"), filepath.Join(dir, "cat-facts-operator")}, sel)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(out.Bundles); got != 2+4 {
		t.Errorf("%d bundles kept, want 6", got)
	}
	mustBeValid(t, write(t, out))
	if _, err := c.ForRef("quay.io/org/other:v1"); err == nil || !strings.Contains(err.Error(), "imageset.yaml: no mirror.operators entry has catalog") {
		t.Errorf("unmatched reference: %v", err)
	}
}
