package lint

import (
	"slices"

	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
)

// olmv0Refuses are the crd-upgrade-unsafe reasons OLM v0 refuses too: it
// will not drop a version objects are stored in, and the API server will
// not change a CRD's scope.
var olmv0Refuses = []string{crdcompat.StoredVersionRemoved, crdcompat.ScopeChanged}

// targetSeverity is a finding's severity for the target: what only OLM v1
// refuses (olmv1-unsupported, and the crd-upgrade-unsafe findings whose
// reasons OLM v0 accepts) is a warning unless OLM v1 installs.
func targetSeverity(t config.Target, f *finding.Finding) finding.Severity {
	switch f.Rule {
	case ruleOLMv1:
		if t == config.TargetOLMv1 && f.Severity == finding.Warning {
			return finding.Error
		}
	case ruleCRDUpgrade:
		if t == config.TargetOLMv1 || slices.ContainsFunc(f.Reasons, func(r crdcompat.Change) bool { return slices.Contains(olmv0Refuses, r.Kind) }) {
			return finding.Error
		}
		return finding.Warning
	}
	return f.Severity
}

// The profiles a rule of the pipeline's checks runs in, by suite.
var (
	inCommon    = []config.Profile{config.ProfileCommunity, config.ProfileCertified}
	inCommunity = []config.Profile{config.ProfileCommunity}
	inCertified = []config.Profile{config.ProfileCertified}
)

// inProfile reports whether the rule runs in the profile: lint's own
// rules run in every one.
func (r Rule) inProfile(p config.Profile) bool {
	return r.profiles == nil || slices.Contains(r.profiles, p)
}
