package lint

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/sarif"
)

func TestSelectRules(t *testing.T) {
	all, err := selectRules(nil, nil, nil)
	if err != nil || len(all) != len(Rules()) {
		t.Fatalf("every rule: %v %v", all, err)
	}
	some, err := selectRules([]string{ruleRemovedAPI, ruleDangling}, []string{ruleDangling}, nil)
	if err != nil || len(some) != 1 || some[0].ID != ruleRemovedAPI {
		t.Fatalf("--rule removed-api --rule dangling-reference --disable dangling-reference: %v %v", some, err)
	}
	if _, err := selectRules([]string{"removed-apis"}, nil, nil); err == nil || !strings.Contains(err.Error(), `unknown rule "removed-apis"`) {
		t.Fatalf("unknown rule: %v", err)
	}
	if _, err := selectRules([]string{ruleDangling}, []string{ruleDangling}, nil); err == nil {
		t.Fatal("no rule left: no error")
	}
	for _, r := range Rules() {
		if r.Description == "" || r.Help == "" || (r.bundle == nil && r.pkg == nil && r.ID != ruleCatalogInvalid) {
			t.Errorf("rule %s is incomplete", r.ID)
		}
	}
}

func TestSeverity(t *testing.T) {
	if s, err := ParseSeverity("warning"); err != nil || s != Warning {
		t.Fatal(s, err)
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Fatal("fatal is no severity")
	}
	fs := []Finding{{Severity: Warning}, {Severity: Warning}}
	if !Passed(fs, Error) || Passed(fs, Warning) {
		t.Error("Passed")
	}
	fs = append(fs, Finding{Severity: Error})
	if e, w := Count(fs); e != 1 || w != 2 {
		t.Errorf("Count: %d %d", e, w)
	}
}

func TestFindingString(t *testing.T) {
	f := Finding{Rule: ruleDangling, Severity: Warning, Package: "etcd", Channel: "alpha", Bundle: "etcdoperator.v0.9.2", File: "catalog.yaml", Line: 10, Message: "m"}
	want := `catalog.yaml:10: warning dangling-reference: bundle "etcdoperator.v0.9.2" (package "etcd", channel "alpha"): m`
	if f.String() != want {
		t.Errorf("got  %s\nwant %s", f.String(), want)
	}
	f = Finding{Rule: ruleStranded, Severity: Error, Package: "etcd", File: "catalog", Message: "m"}
	if got := f.String(); got != `catalog: error stranded-upgrade: package "etcd": m` {
		t.Errorf("got %s", got)
	}
	// The same finding through two channels is kept once.
	fs := sortFindings([]Finding{{File: "b", Message: "x", Channel: "stable"}, {File: "a"}, {File: "b", Message: "x", Channel: "alpha"}})
	if len(fs) != 2 || fs[1].Channel != "alpha" {
		t.Errorf("sortFindings: %+v", fs)
	}
}

func TestSARIF(t *testing.T) {
	dir := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML("  com.redhat.openshift.versions: v4.11-v4.13\n"), map[string]string{"cronjob.yaml": cronJobV1beta1, "crd.yaml": testCRD("              size: {type: integer}\n")})
	res := run(t, []string{dir}, Options{Disable: []string{ruleOLMv1}})
	log := SARIF(res, sarif.Options{ToolName: "opm", ToolVersion: "v0", BaseDir: dir})
	data, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID, HelpURI          string
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID, Level string
				RuleIndex     int
				Locations     []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if doc.Version != "2.1.0" || len(run.Tool.Driver.Rules) != len(Rules())-1 || len(run.Results) != 1 {
		t.Fatalf("log: %s", data)
	}
	r := run.Results[0]
	rule := run.Tool.Driver.Rules[r.RuleIndex]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != ruleRemovedAPI || rule.ID != ruleRemovedAPI || r.Level != "error" || rule.DefaultConfiguration.Level != "error" ||
		!strings.HasSuffix(rule.HelpURI, "#removed-api") || loc.ArtifactLocation.URI != "manifests/cronjob.yaml" || loc.Region.StartLine != 1 {
		t.Fatalf("result: %s", data)
	}
	if sarifName("olmv1-unsupported") != "Olmv1Unsupported" {
		t.Error(sarifName("olmv1-unsupported"))
	}
}

func TestLintErrors(t *testing.T) {
	ctx := context.Background()
	bundle := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML(""), nil)
	empty := t.TempDir()
	file := filepath.Join(t.TempDir(), "catalog.json")
	broken := t.TempDir()
	writeFiles(t, broken, map[string]string{"catalog.yaml": "schema: olm.package\nname: [etcd\n"})
	noMeta := t.TempDir()
	writeFiles(t, noMeta, map[string]string{"manifests/etcd.clusterserviceversion.yaml": testCSV(csvOpts{})})
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		paths []string
		opts  Options
		want  string
	}{
		{name: "no path", want: "nothing to lint"},
		{name: "missing", paths: []string{filepath.Join(empty, "nope")}, want: "no such file"},
		{name: "image without a renderer", paths: []string{"quay.io/org/catalog:v1"}, want: "no such file"},
		{name: "a file", paths: []string{file}, want: "is a file"},
		{name: "no catalog objects", paths: []string{empty}, want: "holds no catalog objects"},
		{name: "catalog that does not load", paths: []string{broken}, want: "run opm validate"},
		{name: "bundle without metadata", paths: []string{noMeta}, want: "metadata"},
		{name: "unknown rule", paths: []string{bundle}, opts: Options{Rules: []string{"nope"}}, want: "unknown rule"},
		{name: "previous not a bundle", paths: []string{bundle}, opts: Options{Previous: empty}, want: "not a registry+v1 bundle directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Lint(ctx, tt.paths, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one with %q", err, tt.want)
			}
		})
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Lint(cancelled, []string{bundle}, Options{}); err == nil {
		t.Error("cancelled: no error")
	}
}

// Asking for stranded-upgrade without a baseline says why it found nothing.
func TestStrandedWithoutBaseline(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"catalog.yaml": chain3})
	res := run(t, []string{dir}, Options{Rules: []string{ruleStranded}})
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "--baseline") {
		t.Fatalf("notes %q", res.Notes)
	}
}
