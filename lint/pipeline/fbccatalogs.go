package pipeline

import (
	"strconv"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/registryv1/openshift"
)

// The catalogs ci.yaml maps: bundle images from the registries the
// repository's config.yaml allows (check_bundle_images_in_fbc), and no
// olm.bundle.object in catalogs of OpenShift 4.17 and later
// (check_olm_bundle_object_in_fbc). The pipeline checks the catalogs a
// pull request changes; lint checks every mapped catalog, and a baseline
// marks what the change did not bring as existing.

// The rules of the mapped catalogs.
const (
	RuleBundleRegistry  = "bundle-registry"
	RuleOLMBundleObject = "olm-bundle-object"
)

// bundleRegistry is check_bundle_images_in_fbc: each bundle whose image
// starts with none of config.yaml's allowed_bundle_registries (no such
// setting, no check).
func bundleRegistry(o *Operator, c *Catalog) []finding.Finding {
	allowed := o.Repo.get("allowed_bundle_registries")
	if !truthy(allowed) || allowed.Kind != value.Array {
		return nil
	}
	var prefixes []string
	for i := range allowed.Items {
		prefixes = append(prefixes, pyStr(&allowed.Items[i]))
	}
	var out []finding.Finding
	for _, b := range c.Bundles {
		if b.Image == "" || hasAnyPrefix(b.Image, prefixes) {
			continue
		}
		out = append(out, catalogFinding(RuleBundleRegistry, finding.Error, b,
			"Invalid bundle image found in the catalog: %s. Only these registries are allowed for bundle images: %s (%s).",
			b.Image, strings.Join(prefixes, ", "), o.Repo.File))
	}
	return out
}

// hasAnyPrefix reports whether s starts with one of the prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// from417 reports whether a catalog is for OpenShift 4.17 or later, by
// its name: vX.Y, as the pipeline reads it (any major version).
func from417(name string) bool {
	v, withV, err := openshift.ParseVersion(name)
	return err == nil && withV && !v.Less(openshift.Version{Major: 4, Minor: 17})
}

// olmBundleObject is check_olm_bundle_object_in_fbc. The pipeline looks
// at the first olm.bundle of a catalog of OpenShift 4.17 or later only
// (its loop ends after the first bundle): an error when that bundle
// carries olm.bundle.object properties, at it. When it does not but
// another bundle does, the pipeline passes: that is a warning, at the
// first such bundle, so that lint fails exactly when the pipeline fails
// and still shows what the pipeline misses.
func olmBundleObject(_ *Operator, c *Catalog) []finding.Finding {
	if !from417(c.Name) || len(c.Bundles) == 0 {
		return nil
	}
	var carrying []*declcfg.Bundle
	for _, b := range c.Bundles {
		if hasBundleObject(b) {
			carrying = append(carrying, b)
		}
	}
	if len(carrying) == 0 {
		return nil
	}
	others := ""
	if n := len(carrying) - 1; n > 0 {
		others = " (" + strconv.Itoa(n) + " more of its bundles carry olm.bundle.object)"
	}
	const advice = "This is not allowed for catalogs with version `>= 4.17`. Render catalog again with latest [Makefile](https://redhat-openshift-ecosystem.github.io/operator-pipelines/users/fbc_workflow/#generate-catalogs-using-templates) using `make catalogs`. Bundle object is not supported in FBC."
	if carrying[0] == c.Bundles[0] {
		return []finding.Finding{catalogFinding(RuleOLMBundleObject, finding.Error, c.Bundles[0],
			"Bundle object found in the catalog uses 'olm.bundle.object'%s. %s", others, advice)}
	}
	return []finding.Finding{catalogFinding(RuleOLMBundleObject, finding.Warning, carrying[0],
		"Bundle object found in the catalog uses 'olm.bundle.object'%s: the pipeline passes it, since it looks at a catalog's first bundle only, but catalogs for OpenShift 4.17 and later are rendered with olm.csv.metadata. %s", others, advice)}
}

// hasBundleObject reports whether a bundle carries olm.bundle.object
// properties.
func hasBundleObject(b *declcfg.Bundle) bool {
	for i := range b.Properties {
		if b.Properties[i].Type == declcfg.PropertyBundleObject {
			return true
		}
	}
	return false
}

// catalogFinding is a finding about a catalog's bundle, at its name:
// line.
func catalogFinding(rule string, sev finding.Severity, b *declcfg.Bundle, format string, args ...any) finding.Finding {
	line := b.Pos.Line
	if b.NameLine > 0 {
		line = b.NameLine
	}
	return inBundle(rule, sev, &Bundle{Name: b.Name, Package: b.Package}, b.Pos.File, line, format, args...)
}
