package complete

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/author/authortest"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// repo is the project's small test repository: operator widget (a basic
// template) and gadget (a semver template).
func repo(t *testing.T) *author.Repo {
	t.Helper()
	return &author.Repo{Root: filepath.Join("..", "..", "testdata", "repo")}
}

func TestLists(t *testing.T) {
	r := repo(t)
	for _, tt := range []struct {
		what string
		got  []string
		want []string
	}{
		{"operators", Operators(r), []string{"gadget", "widget"}},
		{"versions", Versions(r, "widget"), []string{"1.0.0", "1.1.0", "1.1.1", "1.2.0"}},
		{"channels", Channels(r, "widget"), []string{"fast", "stable"}},
		{"streams", Channels(r, "gadget"), []string{"Candidate", "Fast", "Stable"}},
		{"templates", Templates(r, "widget"), []string{"basic.yaml"}},
		{"bundles of a basic template", Bundles(r, "widget"), []string{"widget-operator.v1.0.0", "widget-operator.v1.1.0", "widget-operator.v1.1.1"}},
		{"bundles of a semver template", Bundles(r, "gadget"), []string{"gadget-operator.v0.9.0", "gadget-operator.v1.0.0", "gadget-operator.v1.0.1"}},
		{"image repositories", ImageRepositories(r, "widget"), []string{"quay.io/example/widget-operator-bundle:"}},
		{"operator directories", BundleDirs(r, "op"), []string{"operators/gadget/", "operators/widget/"}},
		{"bundle directories", BundleDirs(r, "operators/gadget/1"), []string{"operators/gadget/0.9.0", "operators/gadget/1.0.0", "operators/gadget/1.0.1", "operators/gadget/1.1.0-rc.1"}},
		{"catalogs", Catalogs(r), []string{"catalogs/v4.16", "catalogs/v4.17", "catalogs/v4.18"}},
		// Silent: an operator that is not there lists nothing.
		{"no operator", Channels(r, "nope"), nil},
		{"no operator's bundles", Bundles(r, ""), nil},
		{"no operator's templates", Templates(r, "../x"), nil},
		{"no operator's images", ImageRepositories(r, "nope"), nil},
		{"no repository", Operators(&author.Repo{Root: t.TempDir()}), nil},
	} {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.what, tt.got, tt.want)
		}
	}
}

func TestOperatorOf(t *testing.T) {
	for arg, want := range map[string]string{"operators/widget/1.2.0": "widget", "operators/widget/1.2.0/": "widget", "./operators/w/1": "w", "elsewhere/x/1": "", "": ""} {
		if got := OperatorOf(arg); got != want {
			t.Errorf("OperatorOf(%q) = %q, want %q", arg, got, want)
		}
	}
}

func TestRepository(t *testing.T) {
	for ref, want := range map[string]string{
		"quay.io/org/b:v1":             "quay.io/org/b",
		"quay.io/org/b@sha256:abc":     "quay.io/org/b",
		"quay.io/org/b:v1@sha256:abc":  "quay.io/org/b",
		"localhost:5000/org/b":         "localhost:5000/org/b",
		"localhost:5000/org/b:v2":      "localhost:5000/org/b",
		"registry.example.com/plain/b": "registry.example.com/plain/b",
	} {
		if got := repository(ref); got != want {
			t.Errorf("repository(%q) = %q, want %q", ref, got, want)
		}
	}
}

func TestCatalogBundleLines(t *testing.T) {
	yamlText := "---\nschema: olm.package\nname: p\n---\nimage: x\nname: \"p.v1\"\nproperties:\n- name: not-this\nschema: olm.bundle\n---\nname: 'p.v2'\r\nschema: olm.bundle\n---\nname: c\nschema: olm.channel\n"
	if got := yamlBundles([]byte(yamlText)); !slices.Equal(got, []string{"p.v1", "p.v2"}) {
		t.Errorf("yamlBundles: %q", got)
	}
	jsonText := `{"schema":"olm.package","name":"p"}
{"schema":"olm.bundle","name":"p.v1","properties":[{"type":"x","value":{"name":"no"}}]}
{"schema":"olm.bundle","name":"p.v2"} {"broken"`
	if got := jsonBundles([]byte(jsonText)); !slices.Equal(got, []string{"p.v1", "p.v2"}) {
		t.Errorf("jsonBundles: %q", got)
	}
}

func TestSemverCatalogInJSON(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "..", "testdata", "repo"))); err != nil {
		t.Fatal(err)
	}
	y := filepath.Join(root, "catalogs", "v4.18", "gadget", "catalog.yaml")
	if err := os.Remove(y); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(y), "catalog.json"), []byte(`{"schema":"olm.bundle","name":"gadget-operator.v7.0.0"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := Bundles(&author.Repo{Root: root}, "gadget"); !slices.Equal(got, []string{"gadget-operator.v7.0.0"}) {
		t.Errorf("a catalog.json: %q", got)
	}
}

// BenchmarkComplete measures each listing on 20 templates of 500
// bundles: what a TAB costs.
func BenchmarkComplete(b *testing.B) {
	r := &author.Repo{Root: authortest.ForBenchmark(b)}
	op := declcfgtest.RepoOperator
	for name, list := range map[string]func() []string{
		"operators": func() []string { return Operators(r) },
		"bundles":   func() []string { return Bundles(r, op) },
		"channels":  func() []string { return Channels(r, op) },
		"templates": func() []string { return Templates(r, op) },
		"versions":  func() []string { return Versions(r, op) },
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if len(list()) == 0 {
					b.Fatal("nothing listed")
				}
			}
		})
	}
}
