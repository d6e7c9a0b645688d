package report

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/lint"
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
			"a.yaml:3: error removed-api: m\n1 error, 0 warnings (2 rules run)\n"},
		{"catalogs", &lint.Result{Rules: rules, Findings: findings[3:]}, false,
			"t.yaml:7: warning csv-fields: bundle \"p.v1\" in 8 catalogs (v4.12-v4.19): m\n0 errors, 1 warning (2 rules run)\n"},
		{"a baseline", &lint.Result{Rules: rules, Findings: findings[:3], Fixed: findings[:1]}, true,
			"a.yaml:3: error removed-api: m\nb.yaml:1: error removed-api: n (existing)\nc.yaml: info olmv1-unsupported: o (suppressed: known)\n" +
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
