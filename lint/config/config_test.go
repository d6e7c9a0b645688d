package config

import (
	"github.com/fbcat/opm/lint/linttest"
	"github.com/fbcat/opm/position"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

// rules are the rule IDs the tests may name.
var rules = []string{"csv-fields", "dangling-reference", "removed-api", "olmv1-unsupported"}

func TestParseConfig(t *testing.T) {
	c, err := Parse("cfg.yaml", []byte(linttest.GoodConfig), rules)
	if err != nil {
		t.Fatal(err)
	}
	if c.Target != TargetOLMv1 || !c.Off("csv-fields") || c.Off("removed-api") || c.Rules["dangling-reference"].Severity != finding.Error || len(c.Ignores) != 2 || c.Ignores[0].Line != 8 {
		t.Fatalf("config: %+v", c)
	}
	if c, err := Parse("empty.yaml", nil, rules); err != nil || c.Target != "" || len(c.Ignores) != 0 {
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
			_, err := Parse("cfg.yaml", []byte(tt.data), rules)
			var ce *position.Error
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("want %q, got %v", tt.want, err)
			}
		})
	}
}

// .opm-lint.yaml is looked for from the linted path up to the repository
// root, and not above it.
func TestFind(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	pkg := filepath.Join(repo, "operators", "etcd", "0.9.4")
	linttest.WriteFiles(t, pkg, map[string]string{"manifests/x.yaml": "kind: X\n"})
	linttest.WriteFiles(t, top, map[string]string{FileName: "target: olmv1\n"})
	if f, err := Find(pkg); err != nil || f != "" {
		t.Fatalf("above the repository root (the directory of operators/): %q %v", f, err)
	}
	linttest.WriteFiles(t, repo, map[string]string{FileName: "target: olmv0\n"})
	if f, err := Find(pkg); err != nil || f != filepath.Join(repo, FileName) {
		t.Fatalf("at the root: %q %v", f, err)
	}
	linttest.WriteFiles(t, filepath.Join(repo, "operators", "etcd"), map[string]string{FileName: "target: olmv1\n"})
	c, err := Resolve("", []string{"no-such-image:v1", pkg}, rules)
	if err != nil || c.File != filepath.Join(repo, "operators", "etcd", FileName) || c.Target != TargetOLMv1 {
		t.Fatalf("the nearest: %+v %v", c, err)
	}
	if _, err := Resolve(filepath.Join(top, "missing.yaml"), nil, rules); err == nil {
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
	linttest.WriteFiles(t, top, map[string]string{FileName: "target: olmv1\n"})
	linttest.WriteFiles(t, repo, map[string]string{"catalog/etcd.yaml": "x"})
	if f, err := Find(filepath.Join(repo, "catalog")); err != nil || f != "" {
		t.Fatalf("above the git top: %q %v", f, err)
	}
}

func TestConfigApply(t *testing.T) {
	c, err := Parse("cfg.yaml", []byte(linttest.GoodConfig), rules)
	if err != nil {
		t.Fatal(err)
	}
	f := finding.Finding{Rule: "dangling-reference", Severity: finding.Warning, Package: "etcd"}
	c.Apply(&f)
	if f.Severity != finding.Error || f.Suppressed != "" {
		t.Fatalf("severity override: %+v", f)
	}
	f = finding.Finding{Rule: "removed-api", Severity: finding.Error, Package: "etcd", Bundle: "etcdoperator.v0.9.2"}
	c.Apply(&f)
	if !strings.HasPrefix(f.Suppressed, "shipped before") || !finding.Passed([]finding.Finding{f}, finding.Warning) {
		t.Fatalf("ignored: %+v", f)
	}
	f = finding.Finding{Rule: "removed-api", Severity: finding.Error, Package: "etcd", Bundle: "etcdoperator.v0.9.4"}
	c.Apply(&f)
	if f.Suppressed != "" || finding.Passed([]finding.Finding{f}, finding.Error) {
		t.Fatalf("another bundle: %+v", f)
	}
	f = finding.Finding{Rule: "olmv1-unsupported", Severity: finding.Warning, Package: "legacy"}
	c.Apply(&f)
	if f.Suppressed != "frozen" {
		t.Fatalf("a package ignored: %+v", f)
	}
}
