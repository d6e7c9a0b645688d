package lint

import (
	"path/filepath"
	"strings"
	"testing"
)

// The spec properties of the EtcdCluster CRD of the older bundle.
const oldSpec = `              size:
                type: integer
                description: the number of members
                minimum: 1
                maximum: 7
              version:
                type: string
              storageType:
                type: string
                enum: [ephemeral, persistent, s3]
              repository:
                type: string
                default: quay.io/coreos/etcd
              pod:
                type: object
                properties:
                  labels:
                    type: object
                    additionalProperties:
                      type: string
`

func TestCRDUpgrade(t *testing.T) {
	tests := []struct {
		name     string
		old, new string // CRDs
		want     []string
	}{
		{name: "same", old: testCRD(oldSpec), new: testCRD(oldSpec)},
		{name: "description changed", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "the number of members", "members", 1))},
		{name: "enum value added", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "s3]", "s3, gcs]", 1))},
		{name: "enum value dropped", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, ", s3]", "]", 1)),
			want: []string{`version v1beta2, field spec.storageType: enum values "s3" removed`}},
		{name: "type changed", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "size:\n                type: integer", "size:\n                type: string", 1)),
			want: []string{`field spec.size: type changed from "integer" to "string"`}},
		{name: "field removed", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "              version:\n                type: string\n", "", 1)),
			want: []string{"field spec.version: field removed"}},
		{name: "nested field removed", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "                    additionalProperties:\n                      type: string\n", "", 1)),
			want: []string{"field spec.pod.labels.*: field removed"}},
		{name: "new required field", old: testCRD(oldSpec), new: testCRD(oldSpec, "version"),
			want: []string{"field spec: new required fields version"}},
		{name: "maximum lowered", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "maximum: 7", "maximum: 5", 1)),
			want: []string{"field spec.size: maximum lowered from 7 to 5"}},
		{name: "minimum raised", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "minimum: 1", "minimum: 3", 1)),
			want: []string{"field spec.size: minimum raised from 1 to 3"}},
		{name: "maxLength added", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "version:\n                type: string\n", "version:\n                type: string\n                maxLength: 10\n", 1)),
			want: []string{"field spec.version: maxLength 10 added"}},
		{name: "default changed", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "default: quay.io/coreos/etcd", "default: gcr.io/etcd", 1)),
			want: []string{`field spec.repository: default changed from "quay.io/coreos/etcd" to "gcr.io/etcd"`}},
		{name: "default added", old: testCRD(oldSpec), new: testCRD(strings.Replace(oldSpec, "version:\n                type: string\n", "version:\n                type: string\n                default: 3.2.13\n", 1)),
			want: []string{`field spec.version: default "3.2.13" added`}},
		{name: "scope changed", old: testCRD(oldSpec), new: strings.Replace(testCRD(oldSpec), "scope: Namespaced", "scope: Cluster", 1),
			want: []string{"scope changed from Namespaced to Cluster"}},
		{name: "stored version removed", old: testCRD(oldSpec), new: strings.Replace(testCRD(oldSpec), "name: v1beta2", "name: v1", 1),
			want: []string{"stored version v1beta2 removed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{name: "etcdoperator.v0.9.2", version: "0.9.2"}), annotationsYAML(""), map[string]string{"etcdclusters.crd.yaml": tt.old})
			dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"etcdclusters.crd.yaml": tt.new})
			got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}, Previous: old}).Findings
			if len(got) != len(tt.want) {
				t.Fatalf("want %q, got:%s", tt.want, dump(got))
			}
			file := filepath.Join(dir, "manifests", "etcdclusters.crd.yaml")
			for i, f := range got {
				if !strings.Contains(f.Message, tt.want[i]) || !strings.Contains(f.Message, "CRD etcdclusters.etcd.database.coreos.com") || f.File != file || f.Line < 1 || f.Severity != Error {
					t.Errorf("finding %+v, want %q in %s", f, tt.want[i], file)
				}
			}
		})
	}
}

// A removed field is reported at its parent in the new CRD.
func TestCRDUpgradeLine(t *testing.T) {
	old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(oldSpec)})
	dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(strings.Replace(oldSpec, ", s3]", "]", 1))})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}, Previous: old}).Findings
	file := filepath.Join(dir, "manifests", "crd.yaml")
	if len(got) != 1 || got[0].Line != lineOf(t, file, "enum: [ephemeral, persistent]") {
		t.Fatalf("want the finding at the enum's line, got:%s", dump(got))
	}
}

// upgradeCatalog is a catalog of etcd with bundles 0.9.2 and 0.9.4 (which
// replaces it), each with its CSV and CRD as olm.bundle.object.
func upgradeCatalog(t *testing.T, oldCRD, newCRD string, replaces bool) string {
	t.Helper()
	obj := func(y string) string {
		return "  - type: olm.bundle.object\n    value:\n      data: " + b64(jsonOf(t, y)) + "\n"
	}
	bundle := func(name, version, crd string) string {
		return "---\nschema: olm.bundle\nname: " + name + "\npackage: etcd\nimage: quay.io/operatorhubio/etcd:v" + version +
			"\nproperties:\n  - type: olm.package\n    value:\n      packageName: etcd\n      version: " + version + "\n" +
			obj(testCSV(csvOpts{name: name, version: version})) + obj(crd)
	}
	entries := "  - name: etcdoperator.v0.9.2\n  - name: etcdoperator.v0.9.4\n    replaces: etcdoperator.v0.9.2\n"
	if !replaces {
		entries = "  - name: etcdoperator.v0.9.2\n  - name: etcdoperator.v0.9.4\n    skipRange: '<0.9.4'\n"
	}
	return "---\nschema: olm.package\nname: etcd\ndefaultChannel: alpha\n---\nschema: olm.channel\npackage: etcd\nname: alpha\nentries:\n" + entries +
		bundle("etcdoperator.v0.9.2", "0.9.2", oldCRD) + bundle("etcdoperator.v0.9.4", "0.9.4", newCRD)
}

func TestCRDUpgradeCatalog(t *testing.T) {
	for _, replaces := range []bool{true, false} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"catalog.yaml": upgradeCatalog(t, testCRD(oldSpec), testCRD(strings.Replace(oldSpec, ", s3]", "]", 1)), replaces)})
		got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}}).Findings
		if len(got) != 1 || got[0].Bundle != "etcdoperator.v0.9.4" || got[0].Channel != "alpha" || !strings.Contains(got[0].Message, "upgrade from etcdoperator.v0.9.2") {
			t.Fatalf("replaces %v: want one finding, got:%s", replaces, dump(got))
		}
	}
}
