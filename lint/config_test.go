package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
)

const goodConfig = `# the repository's lint configuration
target: olmv1
rules:
  csv-fields: off
  dangling-reference: error
  removed-api: on
ignore:
  - rule: removed-api
    package: etcd
    bundle: etcdoperator.v0.9.2
    reason: shipped before OpenShift 4.12; kept so that installs upgrade
  - package: legacy
    reason: frozen
`

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig("cfg.yaml", []byte(goodConfig))
	if err != nil {
		t.Fatal(err)
	}
	if c.Target != TargetOLMv1 || !c.off(ruleCSVFields) || c.off(ruleRemovedAPI) || c.Rules[ruleDangling].Severity != finding.Error || len(c.Ignores) != 2 || c.Ignores[0].Line != 8 {
		t.Fatalf("config: %+v", c)
	}
	if c, err := ParseConfig("empty.yaml", nil); err != nil || c.Target != "" || len(c.Ignores) != 0 {
		t.Fatalf("empty: %+v %v", c, err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"unknown key", "target: olmv0\nrulez: {}\n", `cfg.yaml:2: unknown key "rulez"`},
		{"bad target", "target: olmv2\n", `cfg.yaml:1: target: unknown target "olmv2"`},
		{"unknown rule", "rules:\n  removed-apis: off\n", `cfg.yaml:2: unknown rule "removed-apis"`},
		{"bad value", "rules:\n  removed-api: fatal\n", `cfg.yaml:2: rules.removed-api: "fatal": use off, on, error, warning or info`},
		{"missing reason", "ignore:\n  - rule: csv-fields\n    package: etcd\n", `cfg.yaml:2: an ignore entry needs a reason`},
		{"blank reason", "ignore:\n  - rule: csv-fields\n    reason: ' '\n", `cfg.yaml:2: an ignore entry needs a reason`},
		{"ignores everything", "ignore:\n  - reason: too noisy\n", `cfg.yaml:2: an ignore entry needs a rule, a package or a bundle`},
		{"unknown ignore key", "ignore:\n  - rule: csv-fields\n    channel: alpha\n    reason: x\n", `cfg.yaml:3: unknown key "channel" in an ignore entry`},
		{"ignore not a list", "ignore: {rule: csv-fields}\n", `cfg.yaml:1: ignore must be a list`},
		{"not a mapping", "- target\n", `cfg.yaml:1: the configuration is a mapping`},
		{"bad YAML", "target: olmv0\nrules: [\n", `cfg.yaml:2: not valid YAML`},
		{"twice", "target: olmv0\ntarget: olmv1\n", `cfg.yaml:2: "target" is given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("cfg.yaml", []byte(tt.data))
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("want %q, got %v", tt.want, err)
			}
		})
	}
}

// .opm-lint.yaml is looked for from the linted path up to the repository
// root, and not above it.
func TestFindConfig(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	pkg := filepath.Join(repo, "operators", "etcd", "0.9.4")
	linttest.WriteFiles(t, pkg, map[string]string{"manifests/x.yaml": "kind: X\n"})
	linttest.WriteFiles(t, top, map[string]string{ConfigFileName: "target: olmv1\n"})
	if f, err := FindConfig(pkg); err != nil || f != "" {
		t.Fatalf("above the repository root (the directory of operators/): %q %v", f, err)
	}
	linttest.WriteFiles(t, repo, map[string]string{ConfigFileName: "target: olmv0\n"})
	if f, err := FindConfig(pkg); err != nil || f != filepath.Join(repo, ConfigFileName) {
		t.Fatalf("at the root: %q %v", f, err)
	}
	linttest.WriteFiles(t, filepath.Join(repo, "operators", "etcd"), map[string]string{ConfigFileName: "target: olmv1\n"})
	c, err := ResolveConfig("", []string{"no-such-image:v1", pkg})
	if err != nil || c.File != filepath.Join(repo, "operators", "etcd", ConfigFileName) || c.Target != TargetOLMv1 {
		t.Fatalf("the nearest: %+v %v", c, err)
	}
	if _, err := ResolveConfig(filepath.Join(top, "missing.yaml"), nil); err == nil {
		t.Fatal("--config of a missing file: no error")
	}
}

// A git work tree's top is a root too, even without operators/.
func TestFindConfigGitRoot(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	linttest.WriteFiles(t, top, map[string]string{ConfigFileName: "target: olmv1\n"})
	linttest.WriteFiles(t, repo, map[string]string{"catalog/etcd.yaml": "x"})
	if f, err := FindConfig(filepath.Join(repo, "catalog")); err != nil || f != "" {
		t.Fatalf("above the git top: %q %v", f, err)
	}
}

func TestConfigApply(t *testing.T) {
	c, err := ParseConfig("cfg.yaml", []byte(goodConfig))
	if err != nil {
		t.Fatal(err)
	}
	f := finding.Finding{Rule: ruleDangling, Severity: finding.Warning, Package: "etcd"}
	c.apply(&f)
	if f.Severity != finding.Error || f.Suppressed != "" {
		t.Fatalf("severity override: %+v", f)
	}
	f = finding.Finding{Rule: ruleRemovedAPI, Severity: finding.Error, Package: "etcd", Bundle: "etcdoperator.v0.9.2"}
	c.apply(&f)
	if !strings.HasPrefix(f.Suppressed, "shipped before") || !finding.Passed([]finding.Finding{f}, finding.Warning) {
		t.Fatalf("ignored: %+v", f)
	}
	f = finding.Finding{Rule: ruleRemovedAPI, Severity: finding.Error, Package: "etcd", Bundle: "etcdoperator.v0.9.4"}
	c.apply(&f)
	if f.Suppressed != "" || finding.Passed([]finding.Finding{f}, finding.Error) {
		t.Fatalf("another bundle: %+v", f)
	}
	f = finding.Finding{Rule: ruleOLMv1, Severity: finding.Warning, Package: "legacy"}
	c.apply(&f)
	if f.Suppressed != "frozen" {
		t.Fatalf("a package ignored: %+v", f)
	}
}

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
		target Target
		want   finding.Severity
	}{
		{crd(crdcompat.FieldRemoved, crdcompat.TypeChanged), "", finding.Warning},
		{crd(crdcompat.FieldRemoved, crdcompat.TypeChanged), TargetOLMv0, finding.Warning},
		{crd(crdcompat.FieldRemoved, crdcompat.TypeChanged), TargetOLMv1, finding.Error},
		{crd(crdcompat.FieldRemoved, crdcompat.StoredVersionRemoved), TargetOLMv0, finding.Error},
		{crd(crdcompat.ScopeChanged), TargetOLMv0, finding.Error},
		{&finding.Finding{Rule: ruleOLMv1, Severity: finding.Warning}, TargetOLMv0, finding.Warning},
		{&finding.Finding{Rule: ruleOLMv1, Severity: finding.Warning}, TargetOLMv1, finding.Error},
		{&finding.Finding{Rule: ruleRemovedAPI, Severity: finding.Error}, TargetOLMv0, finding.Error},
		{&finding.Finding{Rule: ruleCSVFields, Severity: finding.Warning}, TargetOLMv1, finding.Warning},
	}
	for _, tt := range tests {
		if got := tt.target.severity(tt.f); got != tt.want {
			t.Errorf("%s %v for %q: %s, want %s", tt.f.Rule, tt.f.Reasons, tt.target, got, tt.want)
		}
	}
	if _, err := ParseTarget("olm"); err == nil {
		t.Error("target olm: no error")
	}
}

// The effective configuration reads back as the same configuration.
func TestEffectiveConfig(t *testing.T) {
	c, err := ParseConfig("cfg.yaml", []byte(goodConfig))
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
	back, err := ParseConfig("effective.yaml", out)
	if err != nil {
		t.Fatalf("the effective configuration does not read back: %v\n%s", err, text)
	}
	if back.Target != TargetOLMv1 || !back.off(ruleOLMv1) || !back.off(ruleCSVFields) || len(back.Ignores) != 2 || back.Ignores[0].Reason != c.Ignores[0].Reason {
		t.Fatalf("read back: %+v", back)
	}
	out, err = EffectiveConfig(Options{})
	if err != nil || !strings.Contains(string(out), "no .opm-lint.yaml found") || !strings.Contains(string(out), "target: olmv0") {
		t.Fatalf("defaults: %s %v", out, err)
	}
}
