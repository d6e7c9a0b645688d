package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/linttest"
)

// withRequired is the test CSV requiring a CRD of that name and version
// besides the one it owns.
func withRequired(csv, name, version string) string {
	return strings.Replace(csv, "  install:\n", "    required:\n    - name: "+name+"\n      version: "+version+"\n      kind: EtcdBackup\n  install:\n", 1)
}

// v1beta1CRD is the EtcdCluster CRD as apiextensions.k8s.io/v1beta1 with
// one version, spec.version, and no spec.versions.
func v1beta1CRD(version string) string {
	return `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: etcdclusters.etcd.database.coreos.com
spec:
  group: etcd.database.coreos.com
  names:
    kind: EtcdCluster
    plural: etcdclusters
  scope: Namespaced
  version: ` + version + "\n"
}

// OLM v0 checks a CSV's requirements once the bundle's CRDs are applied
// (requirementStatus in operator-lifecycle-manager's
// pkg/controller/operators/olm/requirements.go): every CRD it owns or
// requires must exist with the version named served, or the CSV stays
// pending. Required CRDs the bundle does not carry come from other
// operators.
func TestCSVCRDMismatch(t *testing.T) {
	crd := testCRD(oldSpec)
	renamed := strings.Replace(crd, "name: v1beta2", "name: v1", 1)
	tests := []struct {
		name      string
		csv       string
		manifests map[string]string
		want      string // "" for no finding
	}{
		{name: "the owned version is served", csv: testCSV(csvOpts{}), manifests: map[string]string{"crd.yaml": crd}},
		{name: "the owned version is renamed", csv: testCSV(csvOpts{}), manifests: map[string]string{"crd.yaml": renamed},
			want: `the CSV owns CRD etcdclusters.etcd.database.coreos.com version "v1beta2", which the bundle's CRD does not define (it has "v1"): OLM cannot install the bundle (OLM v0 keeps the CSV pending, its requirement not met: "CRD version not served")`},
		{name: "the owned version is not served", csv: testCSV(csvOpts{}), manifests: map[string]string{"crd.yaml": strings.Replace(crd, "served: true", "served: false", 1)},
			want: `version "v1beta2", which the bundle's CRD does not serve (served: false)`},
		{name: "the owned CRD is missing", csv: testCSV(csvOpts{}), manifests: map[string]string{"other.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"},
			want: `version "v1beta2", but the bundle has no manifest of that CRD: OLM cannot install the bundle (OLM v0 keeps the CSV pending, its requirement not met: "CRD is not present")`},
		{name: "a required CRD the bundle carries, in another version", csv: withRequired(testCSV(csvOpts{}), "etcdclusters.etcd.database.coreos.com", "v1"),
			manifests: map[string]string{"crd.yaml": crd},
			want:      `the CSV requires CRD etcdclusters.etcd.database.coreos.com version "v1", which the bundle's CRD does not define (it has "v1beta2")`},
		{name: "a required CRD of another operator", csv: withRequired(testCSV(csvOpts{}), "etcdbackups.etcd.database.coreos.com", "v1"),
			manifests: map[string]string{"crd.yaml": crd}},
		{name: "v1beta1: spec.version is served", csv: testCSV(csvOpts{}), manifests: map[string]string{"crd.yaml": v1beta1CRD("v1beta2")}},
		{name: "v1beta1: spec.version is another", csv: testCSV(csvOpts{}), manifests: map[string]string{"crd.yaml": v1beta1CRD("v1beta1")},
			want: `version "v1beta2", which the bundle's CRD does not define (it has "v1beta1")`},
		{name: "v1beta1: spec.versions, not served", csv: testCSV(csvOpts{}),
			manifests: map[string]string{"crd.yaml": v1beta1CRD("v1beta2") + "  versions:\n  - name: v1beta2\n    served: false\n    storage: true\n"},
			want:      `version "v1beta2", which the bundle's CRD does not serve`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := bundleDir(t, filepath.Join(t.TempDir(), "b"), tt.csv, annotationsYAML(""), tt.manifests)
			got := run(t, []string{dir}, Options{Rules: []string{ruleCSVCRDs}}).Findings
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("want no finding, got:%s", dump(got))
				}
				return
			}
			csvFile := filepath.Join(dir, "manifests", "etcdoperator.clusterserviceversion.yaml")
			entry := "    - name: etcdclusters.etcd.database.coreos.com"
			if strings.Contains(tt.want, "requires") {
				entry = "    required:"
			}
			if len(got) != 1 || !strings.Contains(got[0].Message, tt.want) || got[0].Severity != finding.Error || got[0].File != csvFile {
				t.Fatalf("want one error at %s with %q, got:%s", csvFile, tt.want, dump(got))
			}
			if want := lineOf(t, csvFile, entry); strings.Contains(tt.want, "requires") && got[0].Line != want+1 || !strings.Contains(tt.want, "requires") && got[0].Line != want {
				t.Errorf("finding at line %d, want the CSV's entry (%q)", got[0].Line, entry)
			}
		})
	}
}

// In a catalog, a bundle's CSV and CRDs are olm.bundle.object
// properties: the finding is at the bundle's name and names the CSV.
func TestCSVCRDMismatchCatalog(t *testing.T) {
	dir := t.TempDir()
	crd := testCRD(oldSpec)
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": upgradeCatalog(t, crd, strings.Replace(crd, "name: v1beta2", "name: v1", 1), true)})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCSVCRDs}}).Findings
	file := filepath.Join(dir, "catalog.yaml")
	if len(got) != 1 || got[0].Bundle != "etcdoperator.v0.9.4" || got[0].File != file || got[0].Channel != "alpha" ||
		got[0].Line != lastLineOf(t, file, "name: etcdoperator.v0.9.4") || got[0].Object != "ClusterServiceVersion etcdoperator.v0.9.4" {
		t.Fatalf("want one finding at bundle etcdoperator.v0.9.4's name, got:%s", dump(got))
	}
}

// A bundle OLM cannot read (its CSV owns the version its CRD renamed)
// still has its CRDs compared with the previous bundle's: the stored
// version's removal is an error of its own.
func TestCRDUpgradeUnparsableBundle(t *testing.T) {
	crd := testCRD(oldSpec)
	old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{name: "etcdoperator.v0.9.2", version: "0.9.2"}), annotationsYAML(""), map[string]string{"crd.yaml": crd})
	dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": strings.Replace(crd, "name: v1beta2", "name: v1", 1)})
	got := run(t, []string{dir}, Options{Previous: old}).Findings
	var rules []string
	for _, f := range got {
		if f.Severity == finding.Error {
			rules = append(rules, strings.Join(f.Rules, ",")+" "+filepath.Base(f.File))
		}
	}
	// One problem (the CRD renamed the version the CSV owns and objects
	// are stored in), one finding, at the CRD, naming both rules.
	if strings.Join(rules, "; ") != "crd-upgrade-unsafe,csv-crd-mismatch crd.yaml" || len(only(got, ruleOLMv1)) != 1 {
		t.Fatalf("want crd-upgrade-unsafe at the CRD, standing for csv-crd-mismatch too, and olmv1-unsupported, got:%s", dump(got))
	}

	// In an operator directory, a bundle whose CSV's version is no
	// semantic version is placed by its directory's name.
	root := t.TempDir()
	op := filepath.Join(root, "operators", "etcd")
	linttest.WriteFiles(t, op, map[string]string{"ci.yaml": "reviewers: []\n"})
	bundleDir(t, filepath.Join(op, "0.9.2"), testCSV(csvOpts{name: "etcdoperator.v0.9.2", version: "0.9.2"}), annotationsYAML(""), map[string]string{"crd.yaml": crd})
	bundleDir(t, filepath.Join(op, "0.9.4"), testCSV(csvOpts{version: "latest"}), annotationsYAML(""), map[string]string{"crd.yaml": strings.Replace(crd, "name: v1beta2", "name: v1", 1)})
	got = only(run(t, []string{op}, Options{Rules: []string{ruleCRDUpgrade}}).Findings, ruleCRDUpgrade)
	if len(got) != 1 || !strings.Contains(got[0].Message, "version v1beta2: stored version removed") || !strings.Contains(got[0].File, filepath.Join("0.9.4", "manifests")) {
		t.Fatalf("want the stored version's removal in 0.9.4, got:%s", dump(got))
	}
}
