package author

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/declcfg"
)

// fakePull renders any image as one bundle of package widget-operator.
type fakePull struct{ calls int }

func (f *fakePull) RenderBundle(_ context.Context, ref string) (*template.Bundle, error) {
	f.calls++
	return &template.Bundle{Bundle: declcfg.Bundle{Schema: declcfg.SchemaBundle, Name: "widget-operator.v9.0.0", Package: "widget-operator", Image: ref,
		Properties: []declcfg.Property{{Type: declcfg.PropertyPackage, Value: []byte(`{"packageName":"widget-operator","version":"9.0.0"}`)}}}}, nil
}

func TestBundlesOfflineAndPulled(t *testing.T) {
	r := testRepo(t)
	p := open(t, r, "widget")
	tmpl := p.Templates[0]
	data := []byte(strings.Replace(string(tmpl.Data), "- schema: olm.bundle\n", "- schema: olm.bundle\n  image: quay.io/example/unknown:v9\n- schema: olm.bundle\n", 1))
	_, err := p.ExpandCatalog(context.Background(), p.Catalogs[0], data, p.NewBundles(), StyleToday)
	if _, ok := lifts(err, optionPull); !ok || !strings.Contains(err.Error(), "no committed catalog of operators/widget holds quay.io/example/unknown:v9") {
		t.Errorf("offline: %v", err)
	}
	src := p.NewBundles()
	pull := &fakePull{}
	src.Pull = pull
	rendered, err := p.ExpandCatalog(context.Background(), p.Catalogs[1], data, src, StyleToday)
	if err != nil || pull.calls != 1 || len(rendered.Config.Bundles) != 4 {
		t.Fatalf("pulled: %v, %d calls", err, pull.calls)
	}
}

func TestConflicts(t *testing.T) {
	r := testRepo(t)
	if c := open(t, r, "widget").Conflicts(); len(c) != 0 {
		t.Fatalf("no conflicts expected: %v", c)
	}
	path := filepath.Join(r.Root, "catalogs/v4.17/widget/catalog.yaml")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "widget-controller:v1.0.0\n", "widget-controller:v1.0.0-hotfix\n", 1)), 0o644)
	c := open(t, r, "widget").Conflicts()
	if len(c) != 1 || c[0] != "bundle widget-operator.v1.0.0: catalogs/v4.16/widget/catalog.yaml:24 and catalogs/v4.17/widget/catalog.yaml:24 hold different copies (no majority tells which is right)" {
		t.Errorf("conflicts: %q", c)
	}
	// With three catalogs, the odd copy is the one the other two disagree
	// with, named with its line.
	os.WriteFile(path, data, 0o644)
	os.MkdirAll(filepath.Join(r.Root, "catalogs/v4.18/widget"), 0o755)
	os.WriteFile(filepath.Join(r.Root, "catalogs/v4.18/widget/catalog.yaml"), []byte(strings.Replace(string(data), "widget-controller:v1.0.0\n", "widget-controller:v1.0.0-hotfix\n", 1)), 0o644)
	ci := filepath.Join(r.Root, "operators/widget/ci.yaml")
	text, _ := os.ReadFile(ci)
	os.WriteFile(ci, []byte(strings.Replace(string(text), `"v4.17"]`, `"v4.17", "v4.18"]`, 1)), 0o644)
	c = open(t, r, "widget").Conflicts()
	want := "bundle widget-operator.v1.0.0: catalogs/v4.18/widget/catalog.yaml:24 holds a copy that differs from the other 2 catalogs' (catalogs/v4.16/widget/catalog.yaml, catalogs/v4.17/widget/catalog.yaml)"
	if len(c) != 1 || c[0] != want {
		t.Errorf("conflicts: %q, want %q", c, want)
	}
}
