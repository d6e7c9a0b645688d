package author

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerbsRefuseHandEditedText: a comment added to a committed catalog
// by hand is drift for every verb (rendering would drop it), refused at
// its line like any other hand edit unless forced; render --check names
// it, and render writes the catalog again without it.
func TestVerbsRefuseHandEditedText(t *testing.T) {
	const cat = "catalogs/v4.17/widget/catalog.yaml"
	const want = cat + ":6 (from operators/widget/catalog-templates/basic.yaml): a comment the template does not render (\"# keep fast first\")"
	for name, verb := range verbs {
		switch name {
		case "render":
			continue
		case "remove": // one whose removal strands no install
			verb = func(ctx context.Context, r *Repo, opts Options) error {
				return run(ctx, r, func(p *Package) (*Plan, error) {
					return p.Remove(ctx, RemoveRequest{Bundle: "widget-operator.v1.0.0"}, opts)
				})
			}
		}
		t.Run(name, func(t *testing.T) {
			r := testRepo(t)
			insertLine(t, r, cat, 6, "# keep fast first")
			err := verb(context.Background(), r, Options{})
			if _, ok := lifts(err, optionForce); !IsRefusal(err) || !ok || !strings.Contains(err.Error(), "\n  "+want) {
				t.Fatalf("%s: %v\nwant a refusal naming %q", name, err, want)
			}
			if err := verb(context.Background(), r, Options{Force: true}); err != nil {
				t.Errorf("%s --force: %v", name, err)
			}
		})
	}
	r := testRepo(t)
	rendered := read(t, r, cat)
	insertLine(t, r, cat, 6, "# keep fast first")
	res, err := r.Expand(context.Background(), ExpandRequest{Check: true}, Options{})
	if err != nil || len(res.Differences) != 1 || !strings.HasPrefix(res.Differences[0].String(), want) {
		t.Fatalf("check: %v %+v", err, res)
	}
	apply(t, r, res.Plan, nil)
	if read(t, r, cat) != rendered {
		t.Errorf("render left:\n%s", read(t, r, cat))
	}
}

// TestTextDrift: what a check says of each kind of hand edit that leaves
// the objects as they were, and that line ends do not count.
func TestTextDrift(t *testing.T) {
	const cat = "catalogs/v4.16/widget/catalog.yaml"
	for _, tc := range []struct {
		name string
		edit func(string) string
		want string // the Difference's start; "" for none
	}{
		{"comment at a line's end", func(s string) string {
			return strings.Replace(s, "defaultChannel: stable\n", "defaultChannel: stable  # LTS\n", 1)
		}, cat + ":2 (from operators/widget/catalog-templates/basic.yaml): a comment the template does not render (\"# LTS\")"},
		{"trailing white space", func(s string) string {
			return strings.Replace(s, "schema: olm.package\n", "schema: olm.package \n", 1)
		}, cat + ":4 (from operators/widget/catalog-templates/basic.yaml): white space the template does not render"},
		{"blank line", func(s string) string { return strings.Replace(s, "---\nentries:", "---\n\nentries:", 1) }, cat + ":6 (from operators/widget/catalog-templates/basic.yaml): a blank line"},
		{"documents reordered", func(s string) string {
			docs := strings.SplitAfter(s, "---\n")
			docs[1], docs[2] = docs[2], docs[1]
			return strings.Join(docs, "")
		}, cat + ":2 (from operators/widget/catalog-templates/basic.yaml): the objects the template renders, written differently (reordered or reformatted): the template renders \"defaultChannel: stable\" here"},
		{"a comment after the last line", func(s string) string { return s + "# end\n" }, cat + ":"},
		{"a value changed", func(s string) string {
			return strings.Replace(s, "defaultChannel: stable\n", "defaultChannel: fast\n", 1)
		}, cat + ":2 (from operators/widget/catalog-templates/basic.yaml): the template renders \"defaultChannel: stable\" here"},
		{"CRLF line ends", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testRepo(t)
			writeFile(t, r, cat, tc.edit(read(t, r, cat)))
			res, err := r.Expand(context.Background(), ExpandRequest{Packages: []string{"widget"}, Check: true}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && (len(res.Differences) != 0 || res.Drifted()):
				t.Errorf("drift: %+v", res.Differences)
			case tc.want != "" && (len(res.Differences) != 1 || !strings.HasPrefix(res.Differences[0].String(), tc.want)):
				t.Errorf("differences %q, want one starting %q", res.Differences, tc.want)
			}
		})
	}
}

// TestTextDriftUndescribed: a semver catalog committed without the
// package's description (as opm before v1.65 wrote it) is compared with
// the text opm wrote then, so a comment is named at its own line, not at
// the description the next release adds.
func TestTextDriftUndescribed(t *testing.T) {
	r := testRepo(t)
	const cat = "catalogs/v4.18/gadget/catalog.yaml"
	const desc = "description: |\n  Runs gadgets on Kubernetes.\n"
	s := strings.Replace(read(t, r, cat), desc, "", 1)
	writeFile(t, r, cat, strings.Replace(s, "name: stable-v0\n", "name: stable-v0 # oldest\n", 1))
	res, err := r.Expand(context.Background(), ExpandRequest{Packages: []string{"gadget"}, Check: true}, Options{})
	if err != nil || len(res.Differences) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	if d := res.Differences[0]; d.Line != 8 || !strings.Contains(d.What, "# oldest") {
		t.Errorf("difference %v, want line 8's comment", d)
	}
}

// insertLine inserts a line before line n of a file of the repository.
func insertLine(t *testing.T, r *Repo, rel string, n int, text string) {
	t.Helper()
	file := filepath.Join(r.Root, rel)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines = append(lines[:n-1], append([]string{text + "\n"}, lines[n-1:]...)...)
	if err := os.WriteFile(file, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBasicDescriptionIsDrift: only a semver catalog may lack the
// package's description its template renders (opm before v1.65 did not
// write it); a basic template holds its olm.package as it is, so a
// description added to it without rendering is drift.
func TestBasicDescriptionIsDrift(t *testing.T) {
	r := testRepo(t)
	const tmpl = "operators/widget/catalog-templates/basic.yaml"
	writeFile(t, r, tmpl, strings.Replace(read(t, r, tmpl), "  defaultChannel: stable  # most users\n", "  defaultChannel: stable  # most users\n  description: Widgets on Kubernetes.\n", 1))
	res, err := r.Expand(context.Background(), ExpandRequest{Packages: []string{"widget"}, Check: true}, Options{})
	if err != nil || len(res.Differences) != 2 {
		t.Fatalf("%v: differences %q, want both catalogs", err, res.Differences)
	}
	for _, d := range res.Differences {
		if d.Line != 3 || !strings.Contains(d.What, "description: Widgets on Kubernetes.") {
			t.Errorf("difference %v, want the description at line 3", d)
		}
	}
}
