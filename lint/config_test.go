package lint

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/linttest"
)

// What only OLM v1 refuses is a warning for OLM v0, an error for OLM v1;
// a stored version removed is an error for both.
func TestTargetSeverity(t *testing.T) {
	crd := func(kinds ...string) *finding.Finding {
		f := &finding.Finding{Rule: ruleCRDUpgrade, Severity: finding.Error}
		for _, k := range kinds {
			f.Reasons = append(f.Reasons, crdcompat.Change{Kind: k})
		}
		return f
	}
	tests := []struct {
		f      *finding.Finding
		target config.Target
		want   finding.Severity
	}{
		{crd(crdcompat.FieldRemoved, crdcompat.TypeChanged), "", finding.Warning},
		{crd(crdcompat.FieldRemoved, crdcompat.TypeChanged), config.TargetOLMv0, finding.Warning},
		{crd(crdcompat.FieldRemoved, crdcompat.TypeChanged), config.TargetOLMv1, finding.Error},
		{crd(crdcompat.FieldRemoved, crdcompat.StoredVersionRemoved), config.TargetOLMv0, finding.Error},
		{crd(crdcompat.ScopeChanged), config.TargetOLMv0, finding.Error},
		{&finding.Finding{Rule: ruleOLMv1, Severity: finding.Warning}, config.TargetOLMv0, finding.Warning},
		{&finding.Finding{Rule: ruleOLMv1, Severity: finding.Warning}, config.TargetOLMv1, finding.Error},
		{&finding.Finding{Rule: ruleRemovedAPI, Severity: finding.Error}, config.TargetOLMv0, finding.Error},
		{&finding.Finding{Rule: ruleCSVFields, Severity: finding.Warning}, config.TargetOLMv1, finding.Warning},
	}
	for _, tt := range tests {
		if got := targetSeverity(tt.target, tt.f); got != tt.want {
			t.Errorf("%s %v for %q: %s, want %s", tt.f.Rule, tt.f.Reasons, tt.target, got, tt.want)
		}
	}
	if _, err := config.ParseTarget("olm"); err == nil {
		t.Error("target olm: no error")
	}
}

// The effective configuration reads back as the same configuration.
func TestEffectiveConfig(t *testing.T) {
	c, err := config.Parse("cfg.yaml", []byte(linttest.GoodConfig), RuleIDs())
	if err != nil {
		t.Fatal(err)
	}
	out, err := EffectiveConfig(Options{Config: c, Target: c.Target, Disable: []string{ruleOLMv1}})
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{"# effective lint configuration, read from cfg.yaml", "target: olmv1", "  csv-fields: off", "  olmv1-unsupported: off", "  dangling-reference: error", "  removed-api: on # error", "reason: frozen"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	back, err := config.Parse("effective.yaml", out, RuleIDs())
	if err != nil {
		t.Fatalf("the effective configuration does not read back: %v\n%s", err, text)
	}
	if back.Target != config.TargetOLMv1 || !back.Off(ruleOLMv1) || !back.Off(ruleCSVFields) || len(back.Ignores) != 2 || back.Ignores[0].Reason != c.Ignores[0].Reason {
		t.Fatalf("read back: %+v", back)
	}
	out, err = EffectiveConfig(Options{})
	if err != nil || !strings.Contains(string(out), "no .opm-lint.yaml found") || !strings.Contains(string(out), "target: olmv0") {
		t.Fatalf("defaults: %s %v", out, err)
	}
}
