package catalogrepo

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/catalogrepo/stage"
	"github.com/fbcat/opm/catalogrepo/yamledit"
	"github.com/fbcat/opm/declcfg"
)

// TestEveryWayInOutsideRepository: every way into a repository (but
// OpenTemplates, completion's, which fails quietly) refuses a directory
// without operators/ (or a file taken for one) with the one
// NotRepositoryError, naming the directory as an absolute path, before
// reading anything else.
func TestEveryWayInOutsideRepository(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, root := range []string{empty, file, filepath.Join(empty, "missing")} {
		r := &Repo{Root: root}
		for what, err := range map[string]error{
			"CheckRoot":     r.CheckRoot(),
			"Open":          func() error { _, err := r.Open(ctx, "widget"); return err }(),
			"Open bad name": func() error { _, err := r.Open(ctx, "../x"); return err }(),
			"BundleDir":     func() error { _, _, err := r.BundleDir("operators/widget/1.0.0"); return err }(),
			"Packages":      func() error { _, err := r.Packages(); return err }(),
		} {
			var nr *NotRepositoryError
			if !errors.As(err, &nr) || nr.Root != root || err.Error() != root+" is not a catalog repository (it has no operators/ directory)" {
				t.Errorf("%s in %s: %v, want the NotRepositoryError", what, root, err)
			}
		}
	}
	rel := &Repo{Root: "."}
	var nr *NotRepositoryError
	if err := rel.CheckRoot(); !errors.As(err, &nr) || !filepath.IsAbs(nr.Root) {
		t.Errorf("a relative root is named absolute: %v", err)
	}
}

// Packages lists the operators maintained as file-based catalogs;
// Operators every directory with a ci.yaml; Versions an operator's
// bundle directories.
func TestListings(t *testing.T) {
	r := testRepo(t)
	for dir, ci := range map[string]string{
		"legacy": "---\nreviewers: [someone]\n",                    // not file-based
		"broken": "fbc: [\n",                                       // listed: opening it says why
		"bare":   "",                                               // no ci.yaml: neither
		"widget": "",                                               // already there
		"gadget": "fbc:\n  enabled: true\n  catalog_mapping: []\n", // rewritten, still file-based
	} {
		if err := os.MkdirAll(r.Path("operators/"+dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if ci != "" {
			if err := os.WriteFile(r.Path("operators/"+dir+"/ci.yaml"), []byte(ci), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(r.Path("operators/notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := r.Packages()
	if want := []string{"broken", "gadget", "widget"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Packages: %q %v, want %q", got, err, want)
	}
	if got, want := r.Operators(), []string{"broken", "gadget", "legacy", "widget"}; !slices.Equal(got, want) {
		t.Errorf("Operators: %q, want %q", got, want)
	}
	os.MkdirAll(r.Path("operators/widget/.git"), 0o755)
	if got, want := r.Versions("widget"), []string{"1.0.0", "1.1.0", "1.1.1", "1.2.0"}; !slices.Equal(got, want) {
		t.Errorf("Versions: %q, want %q", got, want)
	}
	if got := r.Versions("nope"); got != nil {
		t.Errorf("Versions of no operator: %q", got)
	}
	if _, err := r.Open(context.Background(), "broken"); err == nil || !strings.Contains(err.Error(), "operators/broken/ci.yaml") {
		t.Errorf("Open of a broken ci.yaml: %v", err)
	}
}

// BundleDir takes operators/<pkg>/<version> relative to the working
// directory or the root, and refuses anything else.
func TestBundleDir(t *testing.T) {
	r := testRepo(t)
	dir, pkg, err := r.BundleDir("operators/widget/1.2.0")
	if want, _ := filepath.Abs(r.Path("operators/widget/1.2.0")); err != nil || dir != want || pkg != "widget" {
		t.Errorf("BundleDir from the root: %s %s %v", dir, pkg, err)
	}
	if _, pkg, err := r.BundleDir(r.Path("operators/gadget/1.0.0")); err != nil || pkg != "gadget" {
		t.Errorf("BundleDir of an absolute path: %s %v", pkg, err)
	}
	other := t.TempDir()
	os.MkdirAll(filepath.Join(other, "operators", "widget", "9.0.0"), 0o755)
	for given, want := range map[string]string{
		"operators/widget/ci.yaml":                           "operators/widget/ci.yaml is not a directory",
		"operators/widget":                                   "operators/widget is not a bundle directory of this repository",
		filepath.Join(other, "operators", "widget", "9.0.0"): "is not a bundle directory of this repository",
		"operators/widget/1.2.O":                             "did you mean operators/widget/1.2.0?",
	} {
		if _, _, err := r.BundleDir(given); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("BundleDir(%s): %v, want %q", given, err, want)
		}
	}
}

// What a package's templates and catalogs name: channels, images and
// bundles, the package, and the facts a release-config.yaml is checked
// against.
func TestPackageNames(t *testing.T) {
	r := testRepo(t)
	widget, gadget := open(t, r, "widget"), open(t, r, "gadget")
	if got, want := widget.Channels(), []string{"fast", "stable"}; !slices.Equal(got, want) {
		t.Errorf("widget's channels: %q, want %q", got, want)
	}
	if got, want := gadget.Channels(), []string{"Candidate", "Fast", "Stable"}; !slices.Equal(got, want) {
		t.Errorf("gadget's channels (a semver template's streams): %q, want %q", got, want)
	}
	if got := gadget.TemplateChannels(); len(got) != 0 {
		t.Errorf("gadget has no basic template's channels: %q", got)
	}
	images, bundles := widget.TemplateImages()
	if want := []string{"quay.io/example/widget-operator-bundle:v1.0.0", "quay.io/example/widget-operator-bundle:v1.1.0", "quay.io/example/widget-operator-bundle:v1.1.1"}; !slices.Equal(images, want) {
		t.Errorf("widget's images: %q", images)
	}
	if want := []string{"widget-operator.v1.0.0", "widget-operator.v1.1.0", "widget-operator.v1.1.1"}; !slices.Equal(bundles, want) || !slices.Equal(widget.BundleNames(), want) {
		t.Errorf("widget's bundles: %q, in its catalogs %q", bundles, widget.BundleNames())
	}
	if got := widget.FBCPackage(); got != "widget-operator" {
		t.Errorf("FBCPackage: %q", got)
	}
	if got := (&Package{}).FBCPackage(); got != "" {
		t.Errorf("FBCPackage without catalogs: %q", got)
	}
	if v, ok := gadget.BundleVersion("gadget-operator.v1.0.1"); !ok || v.String() != "1.0.1" {
		t.Errorf("BundleVersion: %v %v", v, ok)
	}
	if _, ok := gadget.BundleVersion("gadget-operator.v7"); ok {
		t.Error("BundleVersion of a bundle no catalog holds")
	}
	f := widget.ReleaseFacts()
	if f.Operator != "operators/widget" || f.Package != "widget-operator" || f.CIFile != "operators/widget/ci.yaml" || len(f.Bundles) != 3 ||
		len(f.Templates) != 1 || f.Templates[0].Name != "basic.yaml" || f.Templates[0].Type != repoconfig.TypeBasic || !slices.Equal(f.Templates[0].Channels, []string{"stable", "fast"}) {
		t.Errorf("widget's release facts: %+v", f)
	}
	if f := gadget.ReleaseFacts(); len(f.Templates) != 1 || f.Templates[0].Type != repoconfig.TypeSemver || f.Templates[0].Channels != nil {
		t.Errorf("gadget's release facts: %+v", f)
	}
}

// A committed catalog is read once: its digest, whether it is valid, and
// its text as SameText compares it, whatever its line ends; catalog.json
// is found where there is no catalog.yaml; a mapped catalog not yet
// committed is not.
func TestCommittedCatalogs(t *testing.T) {
	r := testRepo(t)
	rel := "catalogs/v4.16/widget/catalog.yaml"
	data, err := os.ReadFile(r.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	if err := os.WriteFile(r.Path(rel), crlf, 0o644); err != nil {
		t.Fatal(err)
	}
	json := "catalogs/v4.17/widget/catalog.json"
	if err := os.Rename(r.Path("catalogs/v4.17/widget/catalog.yaml"), r.Path(json)); err != nil {
		t.Fatal(err)
	}
	ci := r.Path("operators/widget/ci.yaml")
	text, _ := os.ReadFile(ci)
	os.WriteFile(ci, bytes.Replace(text, []byte(`"v4.17"]`), []byte(`"v4.17", "v4.20"]`), 1), 0o644)
	p := open(t, r, "widget")
	if len(p.Catalogs) != 3 {
		t.Fatalf("%d catalogs", len(p.Catalogs))
	}
	c, j, missing := p.Catalogs[0], p.Catalogs[1], p.Catalogs[2]
	if !c.Committed() || !c.Valid() || c.Digest() != stage.Digest(crlf) || c.File() != r.Path(rel) || c.Config == nil || c.Problems != nil {
		t.Errorf("%s: committed %v, valid %v, digest %s, file %s", c.Path, c.Committed(), c.Valid(), c.Digest(), c.File())
	}
	if !c.SameText(len(data), stage.Digest(data)) || c.SameText(len(crlf), stage.Digest(crlf)) {
		t.Error("SameText does not read \\r\\n as \\n")
	}
	if j.Path != json || j.Format != declcfg.FormatJSON || !j.Committed() {
		t.Errorf("catalog.json: %s, format %v, committed %v", j.Path, j.Format, j.Committed())
	}
	if missing.Path != "catalogs/v4.20/widget/catalog.yaml" || missing.Committed() || missing.Config != nil || missing.Digest() != "" || missing.SameText(0, "") {
		t.Errorf("a catalog not committed: %s, committed %v", missing.Path, missing.Committed())
	}
	if got := missing.Template; got != p.Templates[0] || got.Kind() != p.Templates[0].Mapping.Kind() {
		t.Errorf("the catalog's template: %v", got)
	}
}

// A committed catalog that does not load is refused, naming it; one that
// loads with problems is kept with them, not valid.
func TestInvalidCommittedCatalog(t *testing.T) {
	r := testRepo(t)
	rel := "catalogs/v4.16/widget/catalog.yaml"
	os.WriteFile(r.Path(rel), []byte("schema: olm.package\nname: [\n"), 0o644)
	_, err := r.Open(context.Background(), "widget")
	var refusal *Refusal
	if !errors.As(err, &refusal) || !refusal.Refused() || !strings.Contains(err.Error(), "reading catalog "+rel) {
		t.Errorf("a catalog that does not load: %v", err)
	}
	data, _ := os.ReadFile(r.Path("catalogs/v4.17/widget/catalog.yaml"))
	os.WriteFile(r.Path(rel), bytes.Replace(data, []byte("defaultChannel: stable"), []byte("defaultChannel: nightly"), 1), 0o644)
	c := open(t, r, "widget").Catalogs[0]
	if c.Valid() || len(c.Problems) == 0 || c.Config == nil {
		t.Errorf("a catalog with problems: valid %v, problems %v", c.Valid(), c.Problems)
	}
}

// The documents of templates: what a basic template's entries name, how
// a semver template spells its keys and what its streams list, and the
// texts that are no template of their kind.
func TestTemplateDocs(t *testing.T) {
	r := testRepo(t)
	widget := open(t, r, "widget").Templates[0]
	d, err := OpenBasic(widget)
	if err != nil {
		t.Fatal(err)
	}
	if p := d.Package(); p == nil || yamledit.String(p, "name") != "widget-operator" || yamledit.String(p, "nothing") != "" {
		t.Errorf("the package entry: %v", p)
	}
	fast := d.Channel("fast")
	if fast == nil || d.Channel("beta") != nil || len(d.Objects("olm.bundle")) != 3 {
		t.Fatalf("channels and bundles: %v", fast)
	}
	if e := EntryNamed(fast, "widget-operator.v1.1.1"); e == nil || yamledit.String(e, "replaces") != "widget-operator.v1.1.0" || EntryNamed(fast, "widget-operator.v1.0.0") != nil {
		t.Errorf("the entry of v1.1.1 in fast: %v", e)
	}
	if !d.Holds("quay.io/example/widget-operator-bundle:v1.1.0") || d.Holds("quay.io/example/widget-operator-bundle:v9") || len(d.Images()) != 3 {
		t.Errorf("images: %q", d.Images())
	}
	skips := &Template{Path: "t.yaml", Data: []byte("schema: olm.template.basic\nentries:\n- schema: olm.channel\n  name: a\n  entries:\n  - name: b\n    skips: [x, y]\n")}
	if d, err := OpenBasic(skips); err != nil || !slices.Equal(yamledit.Strings(EntryNamed(d.Channel("a"), "b"), "skips"), []string{"x", "y"}) {
		t.Errorf("skips: %v", err)
	}

	gadget := open(t, r, "gadget").Templates[0]
	s, err := OpenSemver(gadget)
	if err != nil {
		t.Fatal(err)
	}
	if s.Key("Bundles") != "Bundles" || len(s.Images("Stable")) != 3 || s.Images("Fast") != nil || !s.Holds("quay.io/example/gadget-operator-bundle:v1.0.1") || s.Holds("x") {
		t.Errorf("semver: key %s, stable %q", s.Key("Bundles"), s.Images("Stable"))
	}
	lower, err := OpenSemver(&Template{Path: "s.yaml", Data: []byte("schema: olm.semver\nstable:\n  bundles:\n  - image: a\n")})
	if err != nil || lower.Key("Bundles") != "bundles" || !lower.Holds("a") {
		t.Errorf("a lower-case semver template: %v", err)
	}
	for text, want := range map[string]string{
		"- a\n": "t.yaml: a basic template is a mapping",
		"schema: olm.template.basic\nentries: x\n": "t.yaml:2: entries must be a list",
		"entries: [\n": "t.yaml",
	} {
		_, err := OpenBasic(&Template{Path: "t.yaml", Data: []byte(text)})
		var refusal *Refusal
		if !errors.As(err, &refusal) || !strings.Contains(err.Error(), want) {
			t.Errorf("OpenBasic(%q): %v, want %q", text, err, want)
		}
	}
	if _, err := OpenSemver(&Template{Path: "s.yaml", Data: []byte("- a\n")}); err == nil || !strings.Contains(err.Error(), "a semver template is a mapping") {
		t.Errorf("OpenSemver of a list: %v", err)
	}
	if _, err := OpenSemver(&Template{Path: "s.yaml", Data: []byte("a: [\n")}); err == nil || errors.Unwrap(err) == nil {
		t.Errorf("OpenSemver of broken YAML: %v, want the parser's error wrapped", err)
	}
}
