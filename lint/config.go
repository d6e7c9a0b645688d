package lint

import (
	"fmt"
	"slices"

	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
)

// A repository's lint configuration (.opm-lint.yaml, see configfile.go):
// who installs its catalogs, which pipeline's checks run (the profile),
// rules turned off or given another severity,
// and findings ignored, each with the reason why. Command-line flags
// override it.

// Target is who installs the catalogs linted.
type Target string

// The targets. OLM v0 (classic OLM, which OpenShift 4.x runs and which
// installs catalogs/v4.x) is the default.
const (
	TargetOLMv0 Target = "olmv0"
	TargetOLMv1 Target = "olmv1"
)

// ParseTarget reads a target name.
func ParseTarget(s string) (Target, error) {
	t := Target(s)
	if err := t.check(); err != nil || s == "" {
		return "", fmt.Errorf("unknown target %q: use olmv0 (classic OLM, OpenShift 4.x) or olmv1", s)
	}
	return t, nil
}

// check accepts the targets and "" (OLM v0).
func (t Target) check() error {
	switch t {
	case "", TargetOLMv0, TargetOLMv1:
		return nil
	}
	return fmt.Errorf("unknown target %q: use olmv0 (classic OLM, OpenShift 4.x) or olmv1", string(t))
}

// olmv0Refuses are the crd-upgrade-unsafe reasons OLM v0 refuses too: it
// will not drop a version objects are stored in, and the API server will
// not change a CRD's scope.
var olmv0Refuses = []string{crdcompat.StoredVersionRemoved, crdcompat.ScopeChanged}

// severity is a finding's severity for the target: what only OLM v1
// refuses (olmv1-unsupported, and the crd-upgrade-unsafe findings whose
// reasons OLM v0 accepts) is a warning unless OLM v1 installs.
func (t Target) severity(f *finding.Finding) finding.Severity {
	switch f.Rule {
	case ruleOLMv1:
		if t == TargetOLMv1 && f.Severity == finding.Warning {
			return finding.Error
		}
	case ruleCRDUpgrade:
		if t == TargetOLMv1 || slices.ContainsFunc(f.Reasons, func(r crdcompat.Change) bool { return slices.Contains(olmv0Refuses, r.Kind) }) {
			return finding.Error
		}
		return finding.Warning
	}
	return f.Severity
}

// Config is a repository's lint configuration.
type Config struct {
	// File is where it was read, "" for none (the defaults).
	File string
	// Target is who installs the catalogs ("" for the default, OLM v0).
	Target Target
	// Profile is the hosted pipeline's checks that run beside lint's own
	// rules (ProfileAuto for the default: see Profile).
	Profile Profile
	// Rules are the rules' settings, by rule ID.
	Rules map[string]RuleSetting
	// Ignores are findings not to fail on.
	Ignores []Ignore
}

// RuleSetting turns a rule off or gives its findings a severity.
type RuleSetting struct {
	Off bool
	// Severity, if set, is every finding's of the rule.
	Severity finding.Severity
	Line     int
}

// Ignore matches findings by rule, package and bundle (each that is set
// must be equal); a finding it matches is reported as suppressed, with
// the reason, and never fails a run.
type Ignore struct {
	Rule, Package, Bundle string
	Reason                string
	Line                  int
}

// off reports whether the configuration turns a rule off.
func (c *Config) off(id string) bool {
	return c != nil && c.Rules[id].Off
}

// apply gives a finding the configured severity, and suppresses it when
// an ignore matches it.
func (c *Config) apply(f *finding.Finding) {
	if c == nil {
		return
	}
	if s := c.Rules[f.Rule].Severity; s != "" {
		f.Severity = s
	}
	for i := range c.Ignores {
		if c.Ignores[i].matches(f) {
			f.Suppressed = c.Ignores[i].Reason
			return
		}
	}
}

// matches reports whether the ignore covers a finding.
func (ig *Ignore) matches(f *finding.Finding) bool {
	return (ig.Rule == "" || ig.Rule == f.Rule) && (ig.Package == "" || ig.Package == f.Package) &&
		(ig.Bundle == "" || ig.Bundle == f.Bundle)
}
