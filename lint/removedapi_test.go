package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

// cronJobV1beta1 is a CronJob a bundle ships, on the API Kubernetes 1.25
// removed.
const cronJobV1beta1 = `apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: etcd-backup
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: backup
            image: quay.io/coreos/etcd-operator@sha256:c0301e4686c3ed4206e370b42de5a3bd2229b9fb4906cf85f3f30650424abec2
          restartPolicy: OnFailure
`

func TestRemovedAPIBundle(t *testing.T) {
	maxOCP := func(v string) string { return `[{"type": "olm.maxOpenShiftVersion", "value": "` + v + `"}]` }
	tests := []struct {
		name, versions, properties string
		manifests                  map[string]string
		// want is the first OpenShift version named, "" for no finding.
		want string
	}{
		{name: "CronJob under v4.11-v4.13", versions: "v4.11-v4.13", want: "OpenShift 4.12 and later lack it"},
		{name: "CronJob capped by maxOpenShiftVersion 4.11", versions: "v4.11-v4.13", properties: maxOCP("4.11")},
		{name: "CronJob under =v4.11", versions: "=v4.11"},
		{name: "CronJob under v4.12", versions: "v4.12", want: "OpenShift 4.12 and later lack it"},
		{name: "CronJob with no annotation", want: "OpenShift 4.12 and later"},
		{name: "CronJob with no annotation, capped at 4.11", properties: maxOCP("4.11")},
		{name: "CronJob under v4.5,v4.6", versions: "v4.5,v4.6", want: "OpenShift 4.12 and later"},
		{name: "CronJob with a malformed range: every version", versions: "v4.10,v4.11", want: "OpenShift 4.12"},
		{name: "v1beta1 CRD under v4.6-v4.8", versions: "v4.6-v4.8", manifests: map[string]string{"crd.yaml": strings.Replace(testCRD("              size: {type: integer}\n"), "apiextensions.k8s.io/v1\n", "apiextensions.k8s.io/v1beta1\n", 1)}},
		{name: "v1beta1 CRD under v4.8", versions: "v4.8", manifests: map[string]string{"crd.yaml": strings.Replace(testCRD("              size: {type: integer}\n"), "apiextensions.k8s.io/v1\n", "apiextensions.k8s.io/v1beta1\n", 1)}, want: "OpenShift 4.9 and later"},
		{name: "v1 CRD under v4.8", versions: "v4.8", manifests: map[string]string{"crd.yaml": testCRD("              size: {type: integer}\n")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ann := ""
			if tt.versions != "" {
				ann = "  com.redhat.openshift.versions: " + tt.versions + "\n"
			}
			m := tt.manifests
			if m == nil {
				m = map[string]string{"etcd-backup_batch_v1beta1_cronjob.yaml": cronJobV1beta1}
			}
			dir := bundleDir(t, t.TempDir(), testCSV(csvOpts{properties: tt.properties}), annotationsYAML(ann), m)
			got := only(run(t, []string{dir}, Options{Rules: []string{ruleRemovedAPI}}).Findings, ruleRemovedAPI)
			if tt.want == "" {
				if len(got) > 0 {
					t.Fatalf("findings:%s", dump(got))
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0].Message, tt.want) {
				t.Fatalf("want one finding with %q, got:%s", tt.want, dump(got))
			}
			f := got[0]
			var file string
			for name := range m {
				file = filepath.Join(dir, "manifests", name)
			}
			if f.File != file || f.Line != lineOf(t, file, "apiVersion:") || f.Severity != finding.Error || f.Bundle != "etcdoperator.v0.9.4" || f.Package != "etcd" {
				t.Errorf("finding %+v, want it at %s:1", f, file)
			}
		})
	}
}

func TestRemovedAPIFix(t *testing.T) {
	dir := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML("  com.redhat.openshift.versions: v4.11-v4.13\n"),
		map[string]string{"cronjob.yaml": cronJobV1beta1})
	got := run(t, []string{dir}, Options{Rules: []string{ruleRemovedAPI}}).Findings
	if len(got) != 1 {
		t.Fatalf("findings:%s", dump(got))
	}
	for _, want := range []string{`batch/v1beta1 CronJob "etcd-backup"`, "Kubernetes 1.25", "Use batch/v1", "=v4.11", `olm.maxOpenShiftVersion "4.11"`} {
		if !strings.Contains(got[0].Message, want) {
			t.Errorf("message %q lacks %q", got[0].Message, want)
		}
	}
}

// bundleObjectCatalog is a catalog of package etcd with one bundle that
// carries its CSV and a CronJob as olm.bundle.object properties.
func bundleObjectCatalog(t *testing.T, objects ...string) string {
	t.Helper()
	var props strings.Builder
	for _, o := range objects {
		props.WriteString("  - type: olm.bundle.object\n    value:\n      data: " + b64(jsonOf(t, o)) + "\n")
	}
	return `---
schema: olm.package
name: etcd
defaultChannel: alpha
---
schema: olm.channel
package: etcd
name: alpha
entries:
  - name: etcdoperator.v0.9.4
---
schema: olm.bundle
name: etcdoperator.v0.9.4
package: etcd
image: quay.io/operatorhubio/etcd:v0.9.4
properties:
  - type: olm.package
    value:
      packageName: etcd
      version: 0.9.4
` + props.String()
}

func TestRemovedAPICatalog(t *testing.T) {
	for _, tt := range []struct {
		catalog string
		want    bool
	}{
		{"v4.11", false},
		{"v4.12", true},
		{"v4.16", true},
	} {
		t.Run(tt.catalog, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "catalogs", tt.catalog)
			linttest.WriteFiles(t, dir, map[string]string{"etcd/catalog.yaml": bundleObjectCatalog(t, testCSV(csvOpts{}), cronJobV1beta1)})
			got := run(t, []string{dir}, Options{Rules: []string{ruleRemovedAPI}}).Findings
			if !tt.want {
				if len(got) > 0 {
					t.Fatalf("findings:%s", dump(got))
				}
				return
			}
			file := filepath.Join(dir, "etcd", "catalog.yaml")
			if len(got) != 1 || got[0].File != file || got[0].Line != lastLineOf(t, file, "name: etcdoperator.v0.9.4") || got[0].Object != "CronJob etcd-backup" ||
				!strings.Contains(got[0].Message, "leave the bundle out of these catalogs") || len(got[0].Catalogs) != 1 || got[0].Catalogs[0] != tt.catalog {
				t.Fatalf("want one finding at the bundle's name, naming the CronJob and the catalog, got:%s", dump(got))
			}
		})
	}
	// A catalog outside catalogs/v4.x/ is for every version.
	dir := t.TempDir()
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": bundleObjectCatalog(t, testCSV(csvOpts{properties: `[{"type": "olm.maxOpenShiftVersion", "value": "4.11"}]`}), cronJobV1beta1)})
	if got := run(t, []string{dir}, Options{Rules: []string{ruleRemovedAPI}}).Findings; len(got) != 0 {
		t.Fatalf("capped at 4.11, findings:%s", dump(got))
	}
}
