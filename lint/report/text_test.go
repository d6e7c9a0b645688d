package report

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
)

func TestWriteText(t *testing.T) {
	rules := lint.Rules()[:2]
	findings := []finding.Finding{
		{Rule: "removed-api", Severity: finding.Error, File: "a.yaml", Line: 3, Message: "m", BaselineState: finding.BaselineNew},
		{Rule: "removed-api", Severity: finding.Error, File: "b.yaml", Line: 1, Message: "n", BaselineState: finding.BaselineUnchanged},
		{Rule: "olmv1-unsupported", Severity: finding.Info, File: "c.yaml", Message: "o", Suppressed: "known"},
		{Rule: "csv-fields", Severity: finding.Warning, Bundle: "p.v1", File: "t.yaml", Line: 7, Message: "m",
			Catalogs: []string{"v4.12", "v4.13", "v4.14", "v4.15", "v4.16", "v4.17", "v4.18", "v4.19"}},
	}
	tests := []struct {
		name         string
		res          *lint.Result
		withBaseline bool
		want         string
	}{
		{"nothing", &lint.Result{Rules: rules[:1]}, false, "0 errors, 0 warnings (1 rule run)\n"},
		{"no baseline", &lint.Result{Rules: rules, Findings: findings[:1]}, false,
			"a.yaml:3: error removed-api\n    m\nBy rule:\n  removed-api                  1 error\n1 error, 0 warnings (2 rules run)\n"},
		{"catalogs", &lint.Result{Rules: rules, Findings: findings[3:]}, false,
			"t.yaml:7: warning csv-fields: bundle \"p.v1\" in 8 catalogs (v4.12-v4.19)\n    m\nBy rule:\n  csv-fields                   1 warning\n0 errors, 1 warning (2 rules run)\n"},
		{"a baseline", &lint.Result{Rules: rules, Findings: findings[:3], Fixed: findings[:1]}, true,
			"a.yaml:3: error removed-api\n    m\nb.yaml:1: error removed-api (existing)\n    n\nc.yaml: info olmv1-unsupported (suppressed: known)\n    o\n" +
				"By rule:\n  olmv1-unsupported            1 suppressed\n  removed-api                  1 error, 1 existing\n" +
				"1 new error, 0 new warnings, 1 existing, 1 suppressed, 1 fixed (2 rules run)\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := WriteText(&b, tt.res, tt.withBaseline); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, b.String(), tt.want)
		}
	}
}

// A finding of several rules is one first line, its message, and what
// the others said, the same words at the same place once; long messages
// are wrapped, no line is longer than 300 characters, and a CRD
// upgrade's changes are listed one a line.
func TestWriteTextReadable(t *testing.T) {
	long := strings.Repeat("word ", 200) + strings.Repeat("x", 700)
	f := finding.Finding{Rule: "crd-upgrade-unsafe", Severity: finding.Error, Bundle: "b.v1", File: "crd.yaml", Line: 4,
		Message: "upgrade from a.v1: CRD foos.example.com: 2 unsafe changes: (1) version v1: stored version removed; (2) field removed",
		Reasons: []crdcompat.Change{{Version: "v1", Message: "stored version removed"}, {Field: "spec.a", Message: "field removed"}},
		Rules:   []string{"crd-upgrade-unsafe", "osdk-operatorhub", "osdk-operatorframework"},
		Related: []finding.Related{
			{Rule: "osdk-operatorhub", Check: "check_osdk_bundle_validate_operatorhub", Severity: finding.Error, File: "csv.yaml", Line: 9, Message: long},
			{Rule: "osdk-operatorframework", Check: "check_osdk_bundle_validate_operator_framework", Severity: finding.Error, File: "csv.yaml", Line: 9, Message: long},
		}}
	var b strings.Builder
	if err := WriteText(&b, &lint.Result{Findings: []finding.Finding{f}}, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"crd.yaml:4: error crd-upgrade-unsafe: bundle \"b.v1\"\n",
		"    upgrade from a.v1: CRD foos.example.com: 2 unsafe changes:\n    - version v1: stored version removed\n    - field spec.a: field removed\n",
		"    also osdk-operatorhub [check_osdk_bundle_validate_operatorhub], osdk-operatorframework\n",
		"  osdk-operatorhub             1 error\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "also "); n != 1 {
		t.Errorf("the same words said once, got %d:\n%s", n, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > maxLine {
			t.Errorf("a line of %d characters: %.80s...", len(line), line)
		}
	}
	if !strings.Contains(strings.ReplaceAll(strings.ReplaceAll(out, "\n", ""), " ", ""), strings.Repeat("x", 700)) {
		t.Error("a long word is cut, not lost")
	}
}
