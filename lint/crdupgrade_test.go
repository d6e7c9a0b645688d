package lint

import (
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/linttest"

	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
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
			want: []string{"version v1beta2: stored version removed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{name: "etcdoperator.v0.9.2", version: "0.9.2"}), annotationsYAML(""), map[string]string{"etcdclusters.crd.yaml": tt.old})
			dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"etcdclusters.crd.yaml": tt.new})
			got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}, Previous: old, Target: config.TargetOLMv1}).Findings
			if len(got) != len(tt.want) {
				t.Fatalf("want %q, got:%s", tt.want, dump(got))
			}
			file := filepath.Join(dir, "manifests", "etcdclusters.crd.yaml")
			for i, f := range got {
				if !strings.Contains(f.Message, tt.want[i]) || !strings.Contains(f.Message, "CRD etcdclusters.etcd.database.coreos.com") || f.File != file || f.Line < 1 || f.Severity != finding.Error {
					t.Errorf("finding %+v, want %q in %s", f, tt.want[i], file)
				}
			}
		})
	}
}

// The finding is at the new CRD's manifest, on its first line; each
// reason has the line of what changed (a removed field: its parent).
func TestCRDUpgradeLine(t *testing.T) {
	old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(oldSpec)})
	changed := strings.Replace(oldSpec, ", s3]", "]", 1)
	changed = strings.Replace(changed, "              version:\n                type: string\n", "", 1)
	dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(changed)})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}, Previous: old}).Findings
	file := filepath.Join(dir, "manifests", "crd.yaml")
	if len(got) != 1 || got[0].File != file || got[0].Line != 1 || len(got[0].Reasons) != 2 {
		t.Fatalf("want one finding at the CRD's first line, got:%s", dump(got))
	}
	r := got[0].Reasons
	if r[0].Kind != crdcompat.EnumRemoved || r[0].Line != lineOf(t, file, "enum: [ephemeral, persistent]") {
		t.Errorf("enum: %+v, want it at the enum's line", r[0])
	}
	if r[1].Kind != crdcompat.FieldRemoved || r[1].Line != lineOf(t, file, "          spec:")+1 {
		t.Errorf("removed field: %+v, want it at its parent", r[1])
	}
}

// One finding per upgrade edge and CRD, listing every unsafe change: the
// first five in its message, then how many more (one real upgrade
// removed 111 fields of one CRD).
func TestCRDUpgradeOneFindingPerCRD(t *testing.T) {
	var props, fewer strings.Builder
	props.WriteString(oldSpec)
	fewer.WriteString(oldSpec)
	for i := range 7 {
		fmt.Fprintf(&props, "              extra%d:\n                type: string\n", i)
	}
	old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(props.String())})
	dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": strings.Replace(testCRD(fewer.String()), "scope: Namespaced", "scope: Cluster", 1)})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}, Previous: old}).Findings
	if len(got) != 1 || len(got[0].Reasons) != 8 {
		t.Fatalf("want one finding with 8 reasons, got:%s", dump(got))
	}
	f := got[0]
	for _, want := range []string{"CRD etcdclusters.etcd.database.coreos.com: 8 unsafe changes: (1) scope changed from Namespaced to Cluster; (2) version v1beta2, field spec.extra0: field removed",
		"(5) version v1beta2, field spec.extra3: field removed", "; and 3 more"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	if strings.Contains(f.Message, "extra4") || f.Reasons[0].Kind != crdcompat.ScopeChanged || f.Reasons[7].Field != "spec.extra6" {
		t.Errorf("finding %+v", f)
	}
}

// In a catalog, the finding is at the new bundle's name line and names
// the embedded CRD; its reasons have no line (the object's lines are not
// the catalog's).
func TestCRDUpgradeCatalogLine(t *testing.T) {
	dir := t.TempDir()
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": upgradeCatalog(t, testCRD(oldSpec), testCRD(strings.Replace(oldSpec, ", s3]", "]", 1)), true)})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}}).Findings
	file := filepath.Join(dir, "catalog.yaml")
	if len(got) != 1 || got[0].File != file || got[0].Line != lastLineOf(t, file, "name: etcdoperator.v0.9.4") {
		t.Fatalf("want one finding at the bundle's name, got:%s", dump(got))
	}
	if !strings.Contains(got[0].Message, "CRD etcdclusters.etcd.database.coreos.com (the bundle's olm.bundle.object), version v1beta2") || got[0].Reasons[0].Line != 0 {
		t.Errorf("finding %+v", got[0])
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
		linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": upgradeCatalog(t, testCRD(oldSpec), testCRD(strings.Replace(oldSpec, ", s3]", "]", 1)), replaces)})
		got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}}).Findings
		if len(got) != 1 || got[0].Bundle != "etcdoperator.v0.9.4" || got[0].Channel != "alpha" || !strings.Contains(got[0].Message, "upgrade from etcdoperator.v0.9.2") {
			t.Fatalf("replaces %v: want one finding, got:%s", replaces, dump(got))
		}
	}
}

// One change is spelled out in the finding's message; more are listed,
// the first five, then counted.
func TestChangesText(t *testing.T) {
	r := func(field string) crdcompat.Change {
		return crdcompat.Change{Kind: crdcompat.FieldRemoved, Version: "v1", Field: field, Message: "field removed"}
	}
	tests := []struct {
		reasons []crdcompat.Change
		want    string
	}{
		{[]crdcompat.Change{{Kind: crdcompat.ScopeChanged, Message: "scope changed"}}, "CRD x: scope changed"},
		{[]crdcompat.Change{r("a")}, "CRD x, version v1, field a: field removed"},
		{[]crdcompat.Change{r("a"), {Kind: crdcompat.ScopeChanged, Message: "scope changed"}}, "CRD x: 2 unsafe changes: (1) version v1, field a: field removed; (2) scope changed"},
		{[]crdcompat.Change{r("a"), r("b"), r("c"), r("d"), r("e"), r("f")},
			"CRD x: 6 unsafe changes: (1) version v1, field a: field removed; (2) version v1, field b: field removed; (3) version v1, field c: field removed; (4) version v1, field d: field removed; (5) version v1, field e: field removed; and 1 more"},
	}
	for _, tt := range tests {
		if got := changesText("CRD x", tt.reasons); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}

// The same changes of a CRD reached from two bundles (one replaced, one
// skipped) are one finding, the other edge's words related.
func TestCRDUpgradeSameChangesOnce(t *testing.T) {
	oldCRD, newCRD := testCRD(oldSpec), testCRD(strings.Replace(oldSpec, ", s3]", "]", 1))
	cat := upgradeCatalog(t, oldCRD, newCRD, true)
	cat = strings.Replace(cat, "    replaces: etcdoperator.v0.9.2\n", "    replaces: etcdoperator.v0.9.2\n    skips: [etcdoperator.v0.9.1]\n", 1)
	older := strings.ReplaceAll(cat[strings.Index(cat, "---\nschema: olm.bundle\nname: etcdoperator.v0.9.2"):strings.Index(cat, "---\nschema: olm.bundle\nname: etcdoperator.v0.9.4")], "0.9.2", "0.9.1")
	cat = strings.Replace(cat, "entries:\n", "entries:\n  - name: etcdoperator.v0.9.1\n", 1) + older
	dir := t.TempDir()
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": cat})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}}).Findings
	if len(got) != 1 || len(got[0].Related) != 1 || !strings.Contains(got[0].Message+got[0].Related[0].Message, "upgrade from etcdoperator.v0.9.1") {
		t.Fatalf("want one finding for both edges, got:%s", dump(got))
	}
}

// A previous bundle the catalog knows only by olm.csv.metadata provides
// its kind in one version (olm.gvk): a new CRD without it removes the
// version its objects are stored in.
func TestCRDUpgradeFromProvidedVersions(t *testing.T) {
	cat := upgradeCatalog(t, testCRD(oldSpec), strings.Replace(testCRD(oldSpec), "name: v1beta2", "name: v1", 1), true)
	start := strings.Index(cat, "---\nschema: olm.bundle\nname: etcdoperator.v0.9.2")
	end := strings.Index(cat, "---\nschema: olm.bundle\nname: etcdoperator.v0.9.4")
	cat = cat[:start] + "---\nschema: olm.bundle\nname: etcdoperator.v0.9.2\npackage: etcd\nimage: quay.io/operatorhubio/etcd:v0.9.2\nproperties:\n" +
		"  - type: olm.package\n    value:\n      packageName: etcd\n      version: 0.9.2\n" +
		"  - type: olm.gvk\n    value:\n      group: etcd.database.coreos.com\n      kind: EtcdCluster\n      version: v1beta2\n" +
		"  - type: olm.csv.metadata\n    value:\n      displayName: etcd\n" + cat[end:]
	dir := t.TempDir()
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": cat})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}}).Findings
	if len(got) != 1 || got[0].Severity != finding.Error || len(got[0].Reasons) != 1 || got[0].Reasons[0].Kind != crdcompat.StoredVersionRemoved || got[0].Reasons[0].Version != "v1beta2" ||
		!strings.Contains(got[0].Message, "etcdoperator.v0.9.2 provides etcd.database.coreos.com/v1beta2 EtcdCluster alone") {
		t.Fatalf("want the stored version's removal, got:%s", dump(got))
	}
}
