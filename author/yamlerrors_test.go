package author

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// verbs runs each verb on widget as the command line would.
var verbs = map[string]func(ctx context.Context, r *Repo, opts Options) error{
	"release": func(ctx context.Context, r *Repo, opts Options) error {
		_, err := release(ctx, r, ReleaseRequest{BundleDir: filepath.Join(r.Root, "operators/widget/1.2.0"), Image: "quay.io/example/w:v1.2.0"}, opts)
		return err
	},
	"promote": func(ctx context.Context, r *Repo, opts Options) error {
		return run(ctx, r, func(p *Package) (*Plan, error) {
			return p.Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable"}, opts)
		})
	},
	"deprecate": func(ctx context.Context, r *Repo, opts Options) error {
		return run(ctx, r, func(p *Package) (*Plan, error) {
			return p.Deprecate(ctx, DeprecateRequest{Channel: "fast"}, opts)
		})
	},
	"default-channel": func(ctx context.Context, r *Repo, opts Options) error {
		return run(ctx, r, func(p *Package) (*Plan, error) {
			return p.SetDefaultChannel(ctx, DefaultChannelRequest{Channel: "fast"}, opts)
		})
	},
	"remove": func(ctx context.Context, r *Repo, opts Options) error {
		return run(ctx, r, func(p *Package) (*Plan, error) {
			return p.Remove(ctx, RemoveRequest{Bundle: "widget-operator.v1.1.0"}, opts)
		})
	},
	"render": func(ctx context.Context, r *Repo, opts Options) error {
		_, err := r.Expand(ctx, ExpandRequest{Packages: []string{"widget"}}, opts)
		return err
	},
}

// run opens widget and runs a verb on it.
func run(ctx context.Context, r *Repo, verb func(*Package) (*Plan, error)) error {
	p, err := r.Open(ctx, "widget")
	if err != nil {
		return err
	}
	_, err = verb(p)
	return err
}

// TestVerbsPlaceYAMLErrors: whichever verb reads a template, ci.yaml,
// release-config.yaml or committed catalog with a YAML mistake names the
// file and the line upstream's parser names, the same line for every verb.
func TestVerbsPlaceYAMLErrors(t *testing.T) {
	files := []struct {
		what, rel string
		line      int    // the line to replace
		text      string // its new text
		want      string // the error's start
		verbs     []string
		committed bool // a committed catalog: its load's problems follow the refusal's first line
	}{
		// Line 13 over-indented (the first entry of channel stable):
		// upstream's parser names line 13.
		{"template", "operators/widget/catalog-templates/basic.yaml", 13, "    - name: widget-operator.v1.0.0",
			"operators/widget/catalog-templates/basic.yaml:13: invalid YAML: did not find expected key", []string{"release", "promote", "deprecate", "default-channel", "remove", "render"}, false},
		{"ci.yaml", "operators/widget/ci.yaml", 8, "    - template_name: basic.yaml: x",
			"operators/widget/ci.yaml:8: invalid YAML: mapping values are not allowed in this context", []string{"release", "promote", "deprecate", "default-channel", "remove", "render"}, false},
		{"ci.yaml, an unclosed list", "operators/widget/ci.yaml", 10, `      catalog_names: ["v4.16", "v4.17"`,
			"operators/widget/ci.yaml:10: invalid YAML: did not find expected ',' or ']'", []string{"promote", "render"}, false},
		{"release-config.yaml", "operators/widget/1.2.0/release-config.yaml", 3, "  - template_name: basic.yaml: x",
			"operators/widget/1.2.0/release-config.yaml:3: invalid YAML: mapping values are not allowed in this context", []string{"release"}, false},
		{"release-config.yaml, an unclosed list", "operators/widget/1.2.0/release-config.yaml", 4, "    channels: [fast",
			"operators/widget/1.2.0/release-config.yaml:4: invalid YAML: did not find expected ',' or ']'", []string{"release"}, false},
		// Line 10, the second line of an entry, made a list item: the
		// problem is found there, and upstream's parser names the line
		// before (line 4 of the document that starts on line 6).
		{"committed catalog", "catalogs/v4.17/widget/catalog.yaml", 10, " - x",
			"catalogs/v4.17/widget/catalog.yaml:9: invalid YAML: did not find expected key", []string{"release", "promote", "deprecate", "default-channel", "remove", "render"}, true},
	}
	for _, f := range files {
		for _, name := range f.verbs {
			t.Run(f.what+"/"+name, func(t *testing.T) {
				r := testRepo(t)
				replaceLine(t, r, f.rel, f.line, f.text)
				err := verbs[name](context.Background(), r, Options{})
				if err == nil || !strings.HasPrefix(err.Error(), f.want) && !(f.committed && strings.Contains(err.Error(), "\n"+f.want)) {
					t.Errorf("%s: %v\nwant an error starting %q", name, err, f.want)
				}
			})
		}
	}
}

// replaceLine replaces line n of a file of the repository.
func replaceLine(t *testing.T, r *Repo, rel string, n int, text string) {
	t.Helper()
	file := filepath.Join(r.Root, rel)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	lines[n-1] = text
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
