package pipeline

import (
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
)

// A bundle directory's name against its CSV's version
// (check_operator_version_directory_name), and no NetworkPolicy among its
// manifests (check_network_policy_presence).

// The rules of a bundle directory.
const (
	RuleBundleDirVersion = "bundle-dir-version"
	RuleNetworkPolicy    = "network-policy"
)

// bundleDirVersion is check_operator_version_directory_name: the bundle
// directory is named by its CSV's spec.version, at that field.
func bundleDirVersion(o *Operator, b *Bundle) []finding.Finding {
	v := b.csv("spec", "version")
	csvVersion := ""
	if truthy(v) {
		csvVersion = pyStr(v)
	}
	if v != nil && v.Kind == value.String && csvVersion == b.version() {
		return nil // a number is never equal to the directory's name
	}
	csvFile := filepath.ToSlash(b.CSVFile)
	if rel, err := filepath.Rel(o.Root, b.CSVFile); err == nil && !strings.HasPrefix(rel, "..") {
		csvFile = filepath.ToSlash(rel)
	}
	node := v
	if node == nil {
		node = b.csv("spec")
	}
	return []finding.Finding{atCSV(RuleBundleDirVersion, finding.Error, b, node,
		"Bundle directory name '%s/%s' does not match the expected operator CSV version '%s' from ./%s.", o.Name, b.version(), csvVersion, csvFile)}
}

// networkPolicy is check_network_policy_presence: a NetworkPolicy of
// networking.k8s.io in a manifest file (.yaml or .yml), one error per
// file.
func networkPolicy(_ *Operator, b *Bundle) []finding.Finding {
	var out []finding.Finding
	for _, m := range b.Manifests {
		ext := filepath.Ext(m.File)
		if m.Kind != "NetworkPolicy" || !strings.HasPrefix(m.APIVersion, "networking.k8s.io/") || (ext != ".yaml" && ext != ".yml") {
			continue
		}
		out = append(out, inBundle(RuleNetworkPolicy, finding.Error, b, m.File, m.Line,
			"Bundle contains a NetworkPolicy in %s. Network policies are not a supported resource that Operator Lifecycle Manager(OLM) can install and manage.", filepath.Base(m.File)))
	}
	return out
}
