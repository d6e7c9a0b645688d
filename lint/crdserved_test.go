package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
)

// Changes the preflight has no rule for are refused; description changes
// are not.
func TestCRDUpgradeUnhandled(t *testing.T) {
	withVersion := func(extra string) string {
		return strings.Replace(oldSpec, "              version:\n                type: string\n", "              version:\n                type: string\n"+extra, 1)
	}
	tests := []struct {
		name, old, new string
		want           []string
	}{
		{name: "pattern added", old: oldSpec, new: withVersion("                pattern: '^3\\.'\n"), want: []string{`field spec.version: pattern changed from none to "^3\\."`}},
		{name: "format added", old: oldSpec, new: withVersion("                format: semver\n"), want: []string{`field spec.version: format changed from "" to "semver"`}},
		{name: "nullable added", old: oldSpec, new: withVersion("                nullable: true\n"), want: []string{"field spec.version: nullable changed from none to true"}},
		{name: "nullable: false is no change", old: oldSpec, new: withVersion("                nullable: false\n")},
		{name: "CEL rule added", old: oldSpec, new: withVersion("                x-kubernetes-validations:\n                - rule: self.startsWith('3.')\n"), want: []string{"field spec.version: x-kubernetes-validations changed"}},
		{name: "preserve-unknown-fields: false is a value", old: oldSpec, new: withVersion("                x-kubernetes-preserve-unknown-fields: false\n"), want: []string{"x-kubernetes-preserve-unknown-fields changed from none to false"}},
		{name: "description added", old: oldSpec, new: withVersion("                description: the etcd version\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(tt.old)})
			dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": testCRD(tt.new)})
			got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}, Previous: old}).Findings
			if len(got) != len(tt.want) {
				t.Fatalf("want %q, got:%s", tt.want, dump(got))
			}
			for i, f := range got {
				if !strings.Contains(f.Message, tt.want[i]) {
					t.Errorf("finding %q, want %q", f.Message, tt.want[i])
				}
			}
		})
	}
}

// twoVersions is the EtcdCluster CRD serving v1beta1 (with the spec
// properties v1beta1 gives) and v1beta2 (oldSpec, and the required spec
// fields given), without a conversion webhook.
func twoVersions(v1beta1 string, required ...string) string {
	crd := testCRD(oldSpec, required...)
	i := strings.Index(crd, "  - name: v1beta2")
	return crd[:i] + `  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
` + v1beta1 + crd[i:]
}

// The preflight compares each served version of the new CRD with each
// later one when the new CRD has no conversion webhook, and refuses only
// what the old CRD's served versions did not have already (the same pair
// of versions, field and change). The real cases: flux 0.16.0 -> 0.16.1,
// datadog-operator 1.14.0 -> 1.15.1 and consecutive sailoperator
// nightlies ship CRDs that serve several versions without a webhook,
// whose schemas differ between versions in the old bundle as much as in
// the new one; operator-controller accepts those upgrades.
func TestCRDUpgradeServedVersions(t *testing.T) {
	same := twoVersions(oldSpec)
	differ := twoVersions(oldSpec + "              backup:\n                type: string\n")
	differMore := twoVersions(oldSpec + "              backup:\n                type: string\n              restore:\n                type: string\n")
	webhook := func(crd string) string {
		return strings.Replace(crd, "  scope: Namespaced\n", "  scope: Namespaced\n  conversion:\n    strategy: Webhook\n", 1)
	}
	described := func(crd string) string { return strings.Replace(crd, "the number of members", "how many members", -1) }
	tests := []struct {
		name, old, new string
		want           []string
	}{
		{name: "served versions alike", old: same, new: described(same)},
		{name: "a later served version drops a field", old: same, new: differ,
			want: []string{"served versions v1beta1 and v1beta2 (no conversion webhook), field spec.backup: field removed"}},
		{name: "the old CRD's served versions differed the same way", old: differ, new: described(differ)},
		{name: "the old CRD's served versions differed less", old: differ, new: differMore,
			want: []string{"served versions v1beta1 and v1beta2 (no conversion webhook), field spec.restore: field removed"}},
		{name: "a newly served version differs", old: testCRD(oldSpec), new: differ,
			want: []string{"served versions v1beta1 and v1beta2 (no conversion webhook), field spec.backup: field removed"}},
		{name: "with a conversion webhook", old: same, new: webhook(differ)},
		{name: "the old CRD's webhook does not count", old: webhook(same), new: differ,
			want: []string{"field spec.backup: field removed"}},
		{name: "nor does it hide the old CRD's problems", old: webhook(differ), new: differ},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": upgradeCatalog(t, tt.old, tt.new, true)})
			got := run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}}).Findings
			if len(tt.want) == 0 {
				if len(got) != 0 {
					t.Fatalf("want no finding, got:%s", dump(got))
				}
				return
			}
			if len(got) != 1 || len(got[0].Reasons) != len(tt.want) {
				t.Fatalf("want one finding for %q, got:%s", tt.want, dump(got))
			}
			for i, r := range got[0].Reasons {
				if !strings.Contains(r.String(), tt.want[i]) || r.Kind != crdcompat.FieldRemoved {
					t.Errorf("reason %+v, want %q", r, tt.want[i])
				}
			}
		})
	}
}

// The preflight compares the served versions of a CRD that did not change
// too, and drops their problems only when its messages are the same: its
// message of new required fields lists them in random order, so with two
// or more it refuses the upgrade at random (crdify refused the two-field
// CRD below in 137 of 400 runs, the one-field CRD in none).
func TestCRDUpgradeServedUnchanged(t *testing.T) {
	tests := []struct {
		name string
		crd  string
		want bool
	}{
		{name: "two new required fields", crd: twoVersions(oldSpec, "size", "version"), want: true},
		{name: "one new required field", crd: twoVersions(oldSpec, "size")},
		{name: "a field dropped", crd: twoVersions(oldSpec + "              backup:\n                type: string\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			catalog := t.TempDir()
			linttest.WriteFiles(t, catalog, map[string]string{"catalog.yaml": upgradeCatalog(t, tt.crd, tt.crd, true)})
			old := bundleDir(t, filepath.Join(t.TempDir(), "old"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": tt.crd})
			dir := bundleDir(t, filepath.Join(t.TempDir(), "new"), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{"crd.yaml": tt.crd})
			for _, got := range [][]finding.Finding{
				run(t, []string{catalog}, Options{Rules: []string{ruleCRDUpgrade}}).Findings,
				run(t, []string{dir}, Options{Rules: []string{ruleCRDUpgrade}, Previous: old}).Findings,
			} {
				if !tt.want {
					if len(got) != 0 {
						t.Errorf("want no finding, got:%s", dump(got))
					}
					continue
				}
				if len(got) != 1 || len(got[0].Reasons) != 1 || got[0].Reasons[0].Kind != crdcompat.RequiredAdded ||
					!strings.Contains(got[0].Message, "served versions v1beta1 and v1beta2 (no conversion webhook), field spec: new required fields size, version") {
					t.Errorf("want one finding of the new required fields, got:%s", dump(got))
				}
			}
		})
	}
}
