package report

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/sarif"
	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
)

// The log has every rule that ran and a result per finding, at its file
// (relative to the base directory) and line.
func TestSARIF(t *testing.T) {
	dir := t.TempDir()
	rules := slices.DeleteFunc(lint.Rules(), func(r lint.Rule) bool { return r.ID == "olmv1-unsupported" })
	res := &lint.Result{Rules: rules, Findings: []finding.Finding{{
		Rule: "removed-api", Severity: finding.Error, Package: "etcd", Bundle: "etcdoperator.v0.9.4",
		File: filepath.Join(dir, "manifests", "cronjob.yaml"), Line: 1, Message: "batch/v1beta1 CronJob: Kubernetes 1.25 stopped serving it",
	}}}
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
	if doc.Version != "2.1.0" || len(run.Tool.Driver.Rules) != len(lint.Rules())-1 || len(run.Results) != 1 {
		t.Fatalf("log: %s", data)
	}
	r := run.Results[0]
	rule := run.Tool.Driver.Rules[r.RuleIndex]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != "removed-api" || rule.ID != "removed-api" || r.Level != "error" || rule.DefaultConfiguration.Level != "error" ||
		!strings.HasSuffix(rule.HelpURI, "#removed-api") || loc.ArtifactLocation.URI != "manifests/cronjob.yaml" || loc.Region.StartLine != 1 {
		t.Fatalf("result: %s", data)
	}
	if sarifName("olmv1-unsupported") != "Olmv1Unsupported" {
		t.Error(sarifName("olmv1-unsupported"))
	}
}

// A suppressed finding is a result with its suppression, an existing one
// has its baseline state, and an info is a note.
func TestSARIFStates(t *testing.T) {
	res := &lint.Result{Rules: lint.Rules(), Findings: []finding.Finding{
		{Rule: "csv-fields", Severity: finding.Warning, Message: "a", Suppressed: "known"},
		{Rule: "csv-fields", Severity: finding.Warning, Message: "b", BaselineState: finding.BaselineUnchanged},
		{Rule: "dangling-reference", Severity: finding.Info, Message: "c"},
	}}
	log := SARIF(res, sarif.Options{ToolName: "opm"})
	got := log.Runs[0].Results
	if len(got) != 3 || len(got[0].Suppressions) != 1 || got[0].Suppressions[0].Justification != "known" ||
		got[1].BaselineState != finding.BaselineUnchanged || got[2].Level != "note" {
		t.Fatalf("results %+v", got)
	}
}

// A finding that stands for a check of the hosted pipeline names it in
// its result's properties, so that code scanning shows it.
func TestSARIFCheckProperty(t *testing.T) {
	res := &lint.Result{Rules: lint.Rules(), Findings: []finding.Finding{
		{Rule: "csv-fields", Severity: finding.Error, Message: "a", Check: "check_required_fields"},
		{Rule: "csv-fields", Severity: finding.Warning, Message: "b"},
	}}
	data, err := json.Marshal(SARIF(res, sarif.Options{ToolName: "opm"}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"properties":{"check":"check_required_fields"}`) || strings.Count(string(data), `"properties"`) != 1 {
		t.Errorf("log: %s", data)
	}
}

// A finding made in several catalogs names them in its message and its
// properties.
func TestSARIFCatalogs(t *testing.T) {
	res := &lint.Result{Rules: lint.Rules(), Findings: []finding.Finding{
		{Rule: "csv-fields", Severity: finding.Warning, Package: "p", Bundle: "p.v1", Message: "a", Catalogs: []string{"v4.16", "v4.17"}},
	}}
	r := SARIF(res, sarif.Options{ToolName: "opm"}).Runs[0].Results[0]
	if r.Properties["catalogs"] != "v4.16,v4.17" || r.Message.Text != `bundle "p.v1" (package "p") in catalogs v4.16, v4.17: a` {
		t.Errorf("result %+v", r)
	}
}

// A finding of several rules names them and their checks in its
// properties, and its message ends with what the others said.
func TestSARIFCombined(t *testing.T) {
	f := finding.Finding{Rule: "required-fields", Check: "check_required_fields", Severity: finding.Error, File: "csv.yaml", Line: 3, Message: "CSV does not define spec.displayName",
		Rules:   []string{"required-fields", "osdk-operatorhub"},
		Checks:  []string{"check_required_fields", "check_osdk_bundle_validate_operatorhub"},
		Related: []finding.Related{{Rule: "osdk-operatorhub", Message: "required field missing"}}, History: finding.HistoryReleased}
	log := SARIF(&lint.Result{Findings: []finding.Finding{f}}, sarif.Options{})
	r := log.Runs[0].Results[0]
	if r.Properties["rules"] != "required-fields,osdk-operatorhub" || r.Properties["checks"] != "check_required_fields,check_osdk_bundle_validate_operatorhub" ||
		r.Properties["check"] != "check_required_fields" || r.Properties["history"] != "released" {
		t.Errorf("properties: %v", r.Properties)
	}
	if !strings.HasSuffix(r.Message.Text, "\nalso osdk-operatorhub: required field missing") {
		t.Errorf("message: %q", r.Message.Text)
	}
}
