package pipeline

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/value"
)

const pkgKey = "  operators.operatorframework.io.bundle.package.v1: "

// check_operator_name: an error for the first bundle or against names
// the others agree on, a warning when they do not agree.
func TestOperatorName(t *testing.T) {
	csv := func(name string) string { return strings.Replace(goodCSV, "etcd.v1.0.0", name, 1) }
	first := bundle(t, "etcd", "1.0.0", csv("etcd-operator.v1.0.0"), pkgKey+"etcd-operator\n")
	expect(t, "first bundle", operatorName(operator(t, "etcd", "", first), first),
		"error operators/etcd/1.0.0/metadata/annotations.yaml:2: Operator name from annotations.yaml (etcd-operator) does not match the operator's directory name (etcd)")
	// The same bundle with one its catalogs hold: a warning.
	op := operator(t, "etcd", "", first)
	op.Released = []Released{{Name: "etcd-operator.v0.9.0", Package: "etcd-operator"}}
	expect(t, "with a released bundle", operatorName(op, first),
		"warning operators/etcd/1.0.0/metadata/annotations.yaml:2: Operator name from annotations.yaml (etcd-operator) does not match the operator's directory name (etcd)")

	good := bundle(t, "etcd", "1.0.0", csv("etcd.v1.0.0"), pkgKey+"etcd\n")
	expect(t, "consistent", operatorName(operator(t, "etcd", "", good), good))
	other := bundle(t, "etcd", "0.9.0", csv("etcd.v0.9.0"), pkgKey+"etcd\n")
	renamed := bundle(t, "etcd", "1.1.0", csv("etcdx.v1.1.0"), pkgKey+"etcdx\n")
	expect(t, "against the others", operatorName(operator(t, "etcd", "", other, good, renamed), renamed),
		"error operators/etcd/1.1.0/manifests/csv.yaml:2: Operator name from the CSV (etcdx) does not match the name defined in other bundles (etcd)",
		"error operators/etcd/1.1.0/metadata/annotations.yaml:2: Operator name from annotations.yaml (etcdx) does not match the name defined in other bundles (etcd)",
		"warning operators/etcd/1.1.0/metadata/annotations.yaml:2: Operator name from annotations.yaml (etcdx) does not match the operator's directory name (etcd)")
	expect(t, "others disagree", operatorName(operator(t, "etcd", "", other, good, renamed), good),
		"warning operators/etcd/1.0.0/manifests/csv.yaml:2: Operator name from the CSV is not consistent across bundles: ['etcd', 'etcdx']",
		"warning operators/etcd/1.0.0/metadata/annotations.yaml:2: Operator name from annotations.yaml is not consistent across bundles: ['etcd', 'etcdx']")
	nodot := bundle(t, "etcd", "1.0.0", csv("etcd"), pkgKey+"etcd\n")
	expect(t, "a CSV name without a dot", operatorName(operator(t, "etcd", "", nodot), nodot),
		`error operators/etcd/1.0.0/manifests/csv.yaml:2: Invalid operator name in CSV for Bundle(etcd/1.0.0): metadata.name "etcd" has no dot`)

	// check_operator_name_unique, for operators not using FBC.
	expect(t, "unique", operatorNameUnique(operator(t, "etcd", "", other, good, renamed)),
		"error operators/etcd: Bundles use multiple operator names: {'etcd', 'etcdx'}")
	expect(t, "unique, FBC", operatorNameUnique(operator(t, "etcd", "fbc: {enabled: true}", other, renamed)))
}

func TestReleaseConfig(t *testing.T) {
	const ci = "fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: basic.yaml\n    type: olm.template.basic\n    catalog_names: [v4.17]\n  - template_name: semver.yaml\n    type: olm.semver\n    catalog_names: [v4.18]\n"
	b := bundle(t, "etcd", "1.0.0", goodCSV, pkgKey+"etcd\n")
	rc := func(yaml string) { b.ReleaseConfig = config(t, b.Dir+"/release-config.yaml", yaml) }
	rc("catalog_templates:\n- template_name: basic.yaml\n  channels: [stable]\n- template_name: semver.yaml\n  channels: [Stable, Fast]\n")
	expect(t, "valid", releaseConfig(operator(t, "etcd", ci, b), b))
	expect(t, "valid, schema", releaseConfigSchema(nil, b))
	expect(t, "without fbc", releaseConfig(operator(t, "etcd", "reviewers: [a]\n", b), b),
		"error operators/etcd/1.0.0/release-config.yaml:1: Bundle's 'release-config.yaml' is used but FBC is not enabled for the operator. Update the 'fbc.enabled' field in the ci.yaml file (operators/etcd/ci.yaml).")
	rc("catalog_templates:\n- template_name: other.yaml\n  channels: [stable]\n- template_name: semver.yaml\n  channels: [stable]\n")
	expect(t, "unmapped, semver", releaseConfig(operator(t, "etcd", ci, b), b),
		"error operators/etcd/1.0.0/release-config.yaml:2: Bundle's 'release-config.yaml' contains a catalog template 'other.yaml' that is not defined in the ci.yaml file under 'catalog_mapping'. Add the template to the 'catalog_mapping' of operators/etcd/ci.yaml.",
		"error operators/etcd/1.0.0/release-config.yaml:5: Bundle's 'release-config.yaml' contains a semver catalog template 'semver.yaml' with invalid channels: ['stable']. Allowed channels are: ['Fast', 'Candidate', 'Stable']. Follow olm...")
	rc("merge: yes\nextra: 1\nother: 2\ncatalog_templates:\n- template_name: 1\n  channels: []\n  skips: [a, a]\n")
	expect(t, "schema", releaseConfigSchema(nil, b),
		"error operators/etcd/1.0.0/release-config.yaml:2: Bundle's 'release-config.yaml' contains invalid data which does not comply with the schema: Additional properties are not allowed ('extra', 'other' were unexpected)",
		"error operators/etcd/1.0.0/release-config.yaml:5: Bundle's 'release-config.yaml' contains invalid data which does not comply with the schema: 1 is not of type 'string'",
		"error operators/etcd/1.0.0/release-config.yaml:6: Bundle's 'release-config.yaml' contains invalid data which does not comply with the schema: [] should be non-empty",
		"error operators/etcd/1.0.0/release-config.yaml:7: Bundle's 'release-config.yaml' contains invalid data which does not comply with the schema: ['a', 'a'] has non-unique elements")
	rc("merge: true\n")
	expect(t, "required", releaseConfigSchema(nil, b),
		"error operators/etcd/1.0.0/release-config.yaml:1: Bundle's 'release-config.yaml' contains invalid data which does not comply with the schema: 'catalog_templates' is a required property")
	b.ReleaseConfig = &Config{File: b.Dir + "/release-config.yaml"}
	expect(t, "none", releaseConfigSchema(nil, b))
}

func TestBundleDir(t *testing.T) {
	b := bundle(t, "etcd", "0.0.4", strings.Replace(goodCSV, "version: 1.0.0", "version: 0.1.2", 1), pkgKey+"etcd\n")
	expect(t, "directory", bundleDirVersion(operator(t, "etcd", ""), b),
		"error operators/etcd/0.0.4/manifests/csv.yaml:17: Bundle directory name 'etcd/0.0.4' does not match the expected operator CSV version '0.1.2' from ./operators/etcd/0.0.4/manifests/csv.yaml.")
	b = bundle(t, "etcd", "1.0.0", goodCSV, pkgKey+"etcd\n")
	expect(t, "named by its version", bundleDirVersion(operator(t, "etcd", ""), b))
	b.Manifests = []Manifest{
		{File: b.Dir + "/manifests/np.yaml", Kind: "NetworkPolicy", APIVersion: "networking.k8s.io/v1", Line: 1},
		{File: b.Dir + "/manifests/np.json", Kind: "NetworkPolicy", APIVersion: "networking.k8s.io/v1", Line: 1},
		{File: b.Dir + "/manifests/other.yml", Kind: "NetworkPolicy", APIVersion: "example.com/v1", Line: 1},
	}
	expect(t, "network policy", networkPolicy(nil, b),
		"error operators/etcd/1.0.0/manifests/np.yaml:1: Bundle contains a NetworkPolicy in np.yaml. Network policies are not a supported resource that Operator Lifecycle Manager(OLM) can install and manage.")
}

func TestRequiredFields(t *testing.T) {
	b := bundle(t, "etcd", "1.0.0", goodCSV, pkgKey+"etcd\n")
	expect(t, "complete", requiredFieldsCheck(nil, b))
	b = bundle(t, "etcd", "1.0.0", "metadata:\n  name: etcd.v1.0.0\nspec:\n  displayName: ab\n  version: v1.0.0\n  icon: []\n  keywords: [1]\n", "")
	expect(t, "missing and invalid", requiredFieldsCheck(nil, b),
		"warning operators/etcd/1.0.0/manifests/csv.yaml:2: CSV does not define metadata.annotations.capabilities",
		"warning operators/etcd/1.0.0/manifests/csv.yaml:2: CSV does not define metadata.annotations.categories",
		"warning operators/etcd/1.0.0/manifests/csv.yaml:2: CSV does not define metadata.annotations.containerImage",
		"warning operators/etcd/1.0.0/manifests/csv.yaml:2: CSV does not define metadata.annotations.createdAt",
		"warning operators/etcd/1.0.0/manifests/csv.yaml:2: CSV does not define metadata.annotations.description",
		"warning operators/etcd/1.0.0/manifests/csv.yaml:2: CSV does not define metadata.annotations.repository",
		"warning operators/etcd/1.0.0/manifests/csv.yaml:2: CSV does not define metadata.annotations.support",
		"error operators/etcd/1.0.0/manifests/csv.yaml:4: CSV contains an invalid value for spec.displayName",
		"error operators/etcd/1.0.0/manifests/csv.yaml:4: CSV does not define spec.description",
		"error operators/etcd/1.0.0/manifests/csv.yaml:4: CSV does not define spec.links",
		"error operators/etcd/1.0.0/manifests/csv.yaml:4: CSV does not define spec.maintainers",
		"error operators/etcd/1.0.0/manifests/csv.yaml:4: CSV does not define spec.provider.name",
		"error operators/etcd/1.0.0/manifests/csv.yaml:5: CSV contains an invalid value for spec.version",
		"error operators/etcd/1.0.0/manifests/csv.yaml:6: CSV contains an invalid value for spec.icon",
		"warning operators/etcd/1.0.0/manifests/csv.yaml:7: CSV contains an invalid value for spec.keywords")
	if got := RequiredFieldProblems(tree(t, goodCSV)); got != nil {
		t.Errorf("problems of a complete CSV: %v", got)
	}
	// Values: what the pipeline's patterns and validators accept.
	for field, cases := range map[string]map[string]bool{
		"metadata.annotations.capabilities":   {"Basic Install": true, "basic install": false},
		"metadata.annotations.categories":     {"Database, Storage": true, "Database,Other": false, "": false},
		"metadata.annotations.containerImage": {"quay.io/a/b:v1": true, "b:v1": false, "quay.io/a/b": false},
		"metadata.annotations.createdAt": {"2024-01-02T03:04:05Z": true, "2021-03-09 11:28:53": true, "2024-01-02": true, "2024-W05-3": true,
			"2024-032": true, "20240102T030405+0100": true, "2024-01-02T24:00:00": true, "2024-13-01": false, "01/02/2024": false,
			"2024-02-30": false, "2024-01-02T03:04:05.123456789+01:00": true, "2024-01-02T25:00": false, "now": false},
		"metadata.annotations.repository": {"https://github.com/a/b": true, "github.com/a/b": false},
		"spec.displayName":                {"abc": true, "ab": false, strings.Repeat("x", 80): true},
		"spec.description":                {"short": false, strings.Repeat("x", 20): true},
		"spec.version":                    {"1.0.0": true, "1.0.0-rc.1+b": true, "v1.0.0": false, "1.0": false, "01.0.0": false},
		"spec.provider.name":              {"Red Hat": true, "RH": false},
	} {
		for v, want := range cases {
			csv := tree(t, "metadata:\n  annotations: {}\nspec:\n  provider: {}\n")
			path := strings.Split(field, ".")
			parent := csv.At(path[:len(path)-1]...)
			parent.Fields = value.NormalizeFields(append(parent.Fields, fieldOf(path[len(path)-1], v)))
			bad := false
			for _, f := range requiredFields {
				if f.path == field {
					_, _, bad = f.check(csv)
				}
			}
			if bad == want {
				t.Errorf("%s %q: valid %v, want %v", field, v, !bad, want)
			}
		}
	}
}
