// Package config reads a repository's lint configuration (.opm-lint.yaml):
// who installs its catalogs (the target), which of the hosted pipeline's
// checks run beside lint's own rules (the profile), rules turned off or
// given another severity, and findings ignored, each with the reason why.
// Command-line flags override it. The rules themselves are lint's: the
// parser is given their IDs.
package config

import "github.com/fbcat/opm/lint/finding"

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

// Off reports whether the configuration turns a rule off.
func (c *Config) Off(id string) bool {
	return c != nil && c.Rules[id].Off
}

// Apply gives a finding the configured severity, and suppresses it when
// an ignore matches it.
func (c *Config) Apply(f *finding.Finding) {
	if c == nil {
		return
	}
	if s := c.Rules[f.Rule].Severity; s != "" {
		f.Severity = s
	}
	for i := range c.Ignores {
		if c.Ignores[i].Matches(f) {
			f.Suppressed = c.Ignores[i].Reason
			return
		}
	}
}

// Matches reports whether the ignore covers a finding.
func (ig *Ignore) Matches(f *finding.Finding) bool {
	return (ig.Rule == "" || ig.Rule == f.Rule) && (ig.Package == "" || ig.Package == f.Package) &&
		(ig.Bundle == "" || ig.Bundle == f.Bundle)
}

// ProfileOf is the configuration's profile (ProfileAuto without one).
func (c *Config) ProfileOf() Profile {
	if c == nil {
		return ProfileAuto
	}
	return c.Profile
}
