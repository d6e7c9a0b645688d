package pipeline

import (
	"slices"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
)

// release-config.yaml: against the pipeline's schema
// (check_validate_schema_bundle_release_config) and against ci.yaml
// (check_bundle_release_config).

// The rules of release-config.yaml.
const (
	RuleReleaseConfig       = "release-config"
	RuleReleaseConfigSchema = "release-config-schema"
)

// semverChannels are the channels a semver template has.
var semverChannels = []string{"Fast", "Candidate", "Stable"}

// releaseConfigSchema is check_validate_schema_bundle_release_config: a
// release-config.yaml (when there is one, and it is not empty) against
// the schema, one error per schema error.
func releaseConfigSchema(_ *Operator, b *Bundle) []finding.Finding {
	rc := b.ReleaseConfig
	if rc == nil || rc.Err != nil || !truthy(rc.V) {
		return readError(RuleReleaseConfigSchema, b)
	}
	var out []finding.Finding
	for _, e := range releaseSchema.validate(rc.V) {
		out = append(out, inBundle(RuleReleaseConfigSchema, finding.Error, b, rc.File, lineOf(e.at),
			"Bundle's 'release-config.yaml' contains invalid data which does not comply with the schema: %s", e.msg))
	}
	return releaseCauses(out)
}

// readError is the error of a release-config.yaml that cannot be read
// (the pipeline's check fails on it), none otherwise.
func readError(rule string, b *Bundle) []finding.Finding {
	if rc := b.ReleaseConfig; rc != nil && rc.Err != nil {
		f := inBundle(rule, finding.Error, b, rc.File, 1, "Bundle's 'release-config.yaml' cannot be read: %v", rc.Err)
		f.Causes = []string{finding.CauseReleaseConfig(rc.File, 0)}
		return []finding.Finding{f}
	}
	return nil
}

// releaseConfig is check_bundle_release_config: a release-config.yaml
// needs fbc.enabled, and each template it names must be one ci.yaml maps,
// with a semver template's channels among Fast, Candidate and Stable.
func releaseConfig(o *Operator, b *Bundle) []finding.Finding {
	rc := b.ReleaseConfig
	if rc == nil || rc.Err != nil || !truthy(rc.V) {
		return readError(RuleReleaseConfig, b)
	}
	if !o.fbc() {
		return []finding.Finding{inBundle(RuleReleaseConfig, finding.Error, b, rc.File, lineOf(rc.V),
			"Bundle's 'release-config.yaml' is used but FBC is not enabled for the operator. Update the 'fbc.enabled' field in the ci.yaml file (%s).", o.CI.File)}
	}
	mapped := map[string]*value.Value{}
	if m := o.CI.get("fbc", "catalog_mapping"); m != nil && m.Kind == value.Array {
		for i := range m.Items {
			if n := m.Items[i].At("template_name"); n != nil {
				mapped[pyStr(n)] = &m.Items[i]
			}
		}
	}
	templates := rc.V.At("catalog_templates")
	if templates == nil || templates.Kind != value.Array {
		return nil // the schema's check says what is wrong
	}
	var out []finding.Finding
	for i := range templates.Items {
		t := &templates.Items[i]
		nameNode := t.At("template_name")
		if nameNode == nil {
			continue
		}
		name := pyStr(nameNode)
		m, ok := mapped[name]
		switch {
		case !ok:
			out = append(out, inBundle(RuleReleaseConfig, finding.Error, b, rc.File, lineOf(nameNode),
				"Bundle's 'release-config.yaml' contains a catalog template '%s' that is not defined in the ci.yaml file under 'catalog_mapping'. Add the template to the 'catalog_mapping' of %s.", name, o.CI.File))
		case pyStr(m.At("type")) == "olm.semver" && !onlySemverChannels(t.At("channels")):
			out = append(out, inBundle(RuleReleaseConfig, finding.Error, b, rc.File, lineOf(t.At("channels")),
				"Bundle's 'release-config.yaml' contains a semver catalog template '%s' with invalid channels: %s. Allowed channels are: %s. Follow olm [documentation](https://olm.operatorframework.io/docs/reference/catalog-templates/#specification) to see more details about semver template.",
				name, pyRepr(t.At("channels")), pyList(semverChannels)))
		}
	}
	return releaseCauses(out)
}

// releaseCauses names in each finding about a release-config.yaml its
// place as its cause (finding.CauseReleaseConfig).
func releaseCauses(fs []finding.Finding) []finding.Finding {
	for i := range fs {
		fs[i].Causes = append(fs[i].Causes, finding.CauseReleaseConfig(fs[i].File, fs[i].Line))
	}
	return fs
}

// onlySemverChannels reports whether every channel listed is one a
// semver template has.
func onlySemverChannels(channels *value.Value) bool {
	if channels == nil || channels.Kind != value.Array {
		return channels == nil
	}
	for i := range channels.Items {
		if c := &channels.Items[i]; c.Kind != value.String || !slices.Contains(semverChannels, c.Str) {
			return false
		}
	}
	return true
}

// lineOf is a node's line, 1 when it has none.
func lineOf(v *value.Value) int {
	if v == nil || v.Line == 0 {
		return 1
	}
	return int(v.Line)
}
