package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/finding"
)

func TestOpenShiftRangeBundle(t *testing.T) {
	maxOCP := func(v string) string { return `[{"type": "olm.maxOpenShiftVersion", "value": ` + v + `}]` }
	tests := []struct {
		name, versions, properties string
		above                      string // lines above the annotation
		want                       []finding.Severity
		msg                        string
	}{
		{name: "v4.12", versions: "v4.12"},
		{name: "range", versions: "v4.12-v4.14", properties: maxOCP(`"4.14"`)},
		{name: "commas", versions: "v4.12,v4.13", want: []finding.Severity{finding.Error}, msg: "commas are not allowed"},
		// A comment indented deeper than the keys does not lose the
		// annotation's line (the finding was at line 1).
		{name: "below a deep comment", versions: "v4.12,v4.13", above: "\n      # OpenShift annotations.\n", want: []finding.Severity{finding.Error}, msg: "commas are not allowed"},
		{name: "legacy", versions: "v4.5,v4.6", want: []finding.Severity{finding.Warning}, msg: "legacy form"},
		{name: "no v", versions: "4.12", want: []finding.Severity{finding.Warning}, msg: "letter v"},
		{name: "max before the range", versions: "v4.14", properties: maxOCP(`"4.12"`), want: []finding.Severity{finding.Error}, msg: "before the first version"},
		{name: "max a number", properties: maxOCP("4.10"), want: []finding.Severity{finding.Warning}, msg: `reads as 4.1: write it as a string, "4.10"`},
		{name: "max twice", properties: `[{"type": "olm.maxOpenShiftVersion", "value": "4.12"},{"type": "olm.maxOpenShiftVersion", "value": "4.13"}]`, want: []finding.Severity{finding.Error}, msg: "twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ann := ""
			if tt.versions != "" {
				ann = tt.above + "  com.redhat.openshift.versions: " + tt.versions + "\n"
			}
			dir := bundleDir(t, t.TempDir(), testCSV(csvOpts{properties: tt.properties}), annotationsYAML(ann), nil)
			got := run(t, []string{dir}, Options{Rules: []string{ruleOpenShiftRange}}).Findings
			if len(got) != len(tt.want) {
				t.Fatalf("want %v, got:%s", tt.want, dump(got))
			}
			for i, f := range got {
				if f.Severity != tt.want[i] || !strings.Contains(f.Message, tt.msg) {
					t.Errorf("finding %+v, want %s with %q", f, tt.want[i], tt.msg)
				}
			}
			if len(got) > 0 && tt.versions != "" && got[0].File == filepath.Join(dir, "metadata", "annotations.yaml") &&
				got[0].Line != lineOf(t, got[0].File, "com.redhat.openshift.versions") {
				t.Errorf("finding at line %d, want the annotation's", got[0].Line)
			}
		})
	}
}

// copyRepo copies testdata/repo (operators widget, in the v4.16 and v4.17
// catalogs, and gadget, in v4.18) into a temporary directory.
func copyRepo(t *testing.T) string {
	t.Helper()
	return catalogrepotest.Copy(t, "../testdata/repo")
}

// replaceIn replaces old with new in a file.
func replaceIn(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An operator directory: its bundle directories, and the catalogs its
// ci.yaml maps, each bundle known by its directory (lint's own rules: the
// pipeline's checks are pipeline_test.go's). A range that leaves out some
// of the catalogs a bundle is in is a warning (OLM installs by the
// catalog, not by the annotation), one that leaves out all of them an
// error; a bundle in a catalog after its olm.maxOpenShiftVersion is an
// error. Each is one finding at the template line of the bundle's image,
// naming the catalogs.
func TestOperatorDir(t *testing.T) {
	root := copyRepo(t)
	widget := filepath.Join(root, "operators", "widget")
	res := run(t, []string{widget}, Options{Disable: []string{ruleCSVFields}, Config: &config.Config{Profile: config.ProfileNone}})
	if len(res.Findings) != 0 {
		t.Fatalf("findings:%s", dump(res.Findings))
	}
	tmpl := filepath.Join(widget, "catalog-templates", "basic.yaml")
	image := lineOf(t, tmpl, "image: quay.io/example/widget-operator-bundle:v1.1.1")
	ann := filepath.Join(widget, "1.1.1", "metadata", "annotations.yaml")
	for _, tt := range []struct {
		rng      string
		sev      finding.Severity
		catalogs string
		msg      string
	}{
		{"v4.17", finding.Warning, "v4.16", "OLM installs the bundle from them all the same"},
		{"v4.16-v4.16", finding.Warning, "v4.17", "OLM installs the bundle from them all the same"},
		{"=v4.15", finding.Error, "v4.16,v4.17", "leaves out every OpenShift catalog the bundle is released into"},
		{"v4.18", finding.Error, "v4.16,v4.17", "leaves out every OpenShift catalog the bundle is released into"},
	} {
		replaceIn(t, ann, "com.redhat.openshift.versions: v4.16\n", "com.redhat.openshift.versions: "+tt.rng+"\n")
		got := run(t, []string{widget}, Options{Rules: []string{ruleOpenShiftRange}}).Findings
		if len(got) != 1 || got[0].File != filepath.ToSlash(tmpl) || got[0].Line != image || got[0].Bundle != "widget-operator.v1.1.1" ||
			got[0].Severity != tt.sev || strings.Join(got[0].Catalogs, ",") != tt.catalogs || !strings.Contains(got[0].Message, tt.msg) {
			t.Fatalf("range %s: want one %s at %s:%d in %s, got:%s", tt.rng, tt.sev, tmpl, image, tt.catalogs, dump(got))
		}
		replaceIn(t, ann, "com.redhat.openshift.versions: "+tt.rng+"\n", "com.redhat.openshift.versions: v4.16\n")
	}
	// Capped below 4.17 by olm.maxOpenShiftVersion: out of place in v4.17.
	csv := filepath.Join(widget, "1.1.1", "manifests", "widget-operator.clusterserviceversion.yaml")
	replaceIn(t, csv, "  annotations:\n", "  annotations:\n    olm.properties: '[{\"type\": \"olm.maxOpenShiftVersion\", \"value\": \"4.16\"}]'\n")
	got := run(t, []string{widget}, Options{Rules: []string{ruleOpenShiftRange}}).Findings
	if len(got) != 1 || got[0].File != filepath.ToSlash(tmpl) || got[0].Severity != finding.Error || strings.Join(got[0].Catalogs, ",") != "v4.17" ||
		!strings.Contains(got[0].Message, "olm.maxOpenShiftVersion 4.16") {
		t.Fatalf("want one error in v4.17, got:%s", dump(got))
	}
}

// A missing mapped catalog is a note; a baseline directory is the
// repository root as it was.
func TestOperatorDirBaseline(t *testing.T) {
	base, root := copyRepo(t), copyRepo(t)
	widget := filepath.Join(root, "operators", "widget")
	cat := filepath.Join(root, "catalogs", "v4.17", "widget", "catalog.yaml")
	if err := os.Remove(filepath.Join(root, "catalogs", "v4.16", "widget", "catalog.yaml")); err != nil {
		t.Fatal(err)
	}
	res := run(t, []string{widget}, Options{Rules: []string{ruleStranded}, Baseline: base})
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "does not exist") {
		t.Errorf("notes %q", res.Notes)
	}
	if len(res.Findings) != 0 {
		t.Fatalf("findings:%s", dump(res.Findings))
	}
	// Stable's 1.1.0 no longer replaces 1.0.0: 1.0.0 is stranded.
	replaceIn(t, cat, "- name: widget-operator.v1.1.0\n  replaces: widget-operator.v1.0.0\nname: stable", "- name: widget-operator.v1.1.0\nname: stable")
	// The finding is at the template's entry, which the catalog was
	// rendered from.
	got := run(t, []string{widget}, Options{Rules: []string{ruleStranded}, Baseline: base}).Findings
	tmpl := filepath.Join(widget, "catalog-templates", "basic.yaml")
	if len(got) != 1 || got[0].Bundle != "widget-operator.v1.0.0" || got[0].Channel != "stable" || got[0].File != filepath.ToSlash(tmpl) ||
		got[0].Line != lineOf(t, tmpl, "- name: widget-operator.v1.0.0") || strings.Join(got[0].Catalogs, ",") != "v4.17" {
		t.Fatalf("want 1.0.0 stranded in stable, got:%s", dump(got))
	}
	// Without the template the catalog's line is kept.
	if err := os.Remove(tmpl); err != nil {
		t.Fatal(err)
	}
	got = run(t, []string{widget}, Options{Rules: []string{ruleStranded}, Baseline: base}).Findings
	if len(got) != 1 || got[0].File != cat || got[0].Line != lineOf(t, cat, "- name: widget-operator.v1.0.0") {
		t.Fatalf("want 1.0.0 stranded in stable at the catalog's line, got:%s", dump(got))
	}
}

// A new bundle directory's CRDs are compared with the version before it,
// before any catalog has it.
func TestOperatorDirCRDUpgrade(t *testing.T) {
	root := copyRepo(t)
	widget := filepath.Join(root, "operators", "widget")
	crd := filepath.Join(widget, "1.2.0", "manifests", "widgets.example.com.crd.yaml")
	data, err := os.ReadFile(crd)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, []string{widget}, Options{Rules: []string{ruleCRDUpgrade}}).Findings; len(got) != 0 {
		t.Fatalf("findings:%s", dump(got))
	}
	if err := os.WriteFile(crd, []byte(strings.Replace(string(data), "scope: Namespaced", "scope: Cluster", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	got := run(t, []string{widget}, Options{Rules: []string{ruleCRDUpgrade}}).Findings
	if len(got) != 1 || got[0].File != crd || !strings.Contains(got[0].Message, "upgrade from widget-operator.v1.1.1") || !strings.Contains(got[0].Message, "scope changed") {
		t.Fatalf("want the scope change of 1.2.0, got:%s", dump(got))
	}
}

// A catalogs directory: each v4.N catalog on its own, as of its version;
// a baseline directory is the catalogs directory as it was.
func TestCatalogsRoot(t *testing.T) {
	base, root := copyRepo(t), copyRepo(t)
	cat := filepath.Join(root, "catalogs", "v4.17", "widget", "catalog.yaml")
	replaceIn(t, cat, "- name: widget-operator.v1.1.0\n  replaces: widget-operator.v1.0.0\nname: stable", "- name: widget-operator.v1.1.0\nname: stable")
	got := run(t, []string{filepath.Join(root, "catalogs")}, Options{Rules: []string{ruleStranded}, Baseline: filepath.Join(base, "catalogs")}).Findings
	if len(got) != 1 || got[0].File != cat || got[0].Bundle != "widget-operator.v1.0.0" {
		t.Fatalf("want 1.0.0 stranded in v4.17, got:%s", dump(got))
	}
}

// operators/: each operator directory.
func TestOperatorsRoot(t *testing.T) {
	root := copyRepo(t)
	res := run(t, []string{filepath.Join(root, "operators")}, Options{Rules: []string{ruleCSVFields}})
	pkgs := map[string]bool{}
	for _, f := range res.Findings {
		pkgs[f.Package] = true
	}
	if !pkgs["widget-operator"] || !pkgs["gadget-operator"] {
		t.Fatalf("want findings of both operators, got:%s", dump(res.Findings))
	}
}

// An operator whose ci.yaml does not maintain it as a file-based catalog:
// its bundle directories are linted, and a note says why its catalogs
// are not.
func TestOperatorDirNotFBC(t *testing.T) {
	root := copyRepo(t)
	widget := filepath.Join(root, "operators", "widget")
	if err := os.WriteFile(filepath.Join(widget, "ci.yaml"), []byte("reviewers: [example-maintainer]\nupdateGraph: replaces-mode\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, []string{widget}, Options{Rules: []string{ruleCSVFields}})
	if len(res.Findings) == 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "not linted") {
		t.Fatalf("notes %q, findings:%s", res.Notes, dump(res.Findings))
	}
}

// TestOperatorDirOutsideRepository: a directory with a ci.yaml that is
// not operators/<pkg>/ of a catalog repository is refused as such, in the
// catalog verbs' words when no repository is around it, rather than
// linted as a catalog that does not load.
func TestOperatorDirOutsideRepository(t *testing.T) {
	root := copyRepo(t)
	for _, tc := range []struct {
		dir, says string
	}{
		{filepath.Join(t.TempDir(), "x", "widget"), "is not a catalog repository (it has no operators/ directory): lint the operator where it is in its repository"},
		{filepath.Join(root, "stash", "widget"), "move it to " + filepath.Join(root, "operators", "widget")},
	} {
		if err := os.CopyFS(tc.dir, os.DirFS(filepath.Join(root, "operators", "widget"))); err != nil {
			t.Fatal(err)
		}
		_, err := lintInProcess(context.Background(), []string{tc.dir}, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.dir+" has a ci.yaml, but an operator directory is operators/<pkg>/ of a catalog repository") || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v", tc.dir, err)
		}
	}
}
