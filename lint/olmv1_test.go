package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

// webhookDefinitions is a validating webhook, as CSVs declare them.
const webhookDefinitions = `  webhookdefinitions:
  - type: ValidatingAdmissionWebhook
    admissionReviewVersions: [v1]
    containerPort: 443
    targetPort: 9443
    deploymentName: etcd-operator
    failurePolicy: Fail
    generateName: vetcdcluster.kb.io
    rules:
    - apiGroups: [etcd.database.coreos.com]
      apiVersions: [v1beta2]
      operations: [CREATE, UPDATE]
      resources: [etcdclusters]
    sideEffects: None
    webhookPath: /validate-etcd-database-coreos-com-v1beta2-etcdcluster
`

func TestOLMv1Bundle(t *testing.T) {
	tests := []struct {
		name       string
		csv        csvOpts
		deps       string
		noWebhooks bool
		want       []string // the reason codes, in order
	}{
		{name: "installable", csv: csvOpts{}},
		{name: "OwnNamespace and SingleNamespace only", csv: csvOpts{installModes: []string{"OwnNamespace", "SingleNamespace"}}, want: []string{"(all-namespaces)"}},
		{name: "webhooks, where supported", csv: csvOpts{webhooks: webhookDefinitions}},
		{name: "webhooks, --olmv1-no-webhooks", csv: csvOpts{webhooks: webhookDefinitions}, noWebhooks: true, want: []string{"(webhooks)"}},
		{name: "package dependency", deps: "dependencies:\n- type: olm.package\n  value:\n    packageName: prometheus\n    version: \">=0.27.0\"\n", want: []string{"(dependency)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			bundleDir(t, dir, testCSV(tt.csv), annotationsYAML(""), map[string]string{"crd.yaml": testCRD("              size: {type: integer}\n")})
			if tt.deps != "" {
				linttest.WriteFiles(t, dir, map[string]string{"metadata/dependencies.yaml": tt.deps})
			}
			got := run(t, []string{dir}, Options{Rules: []string{ruleOLMv1}, NoWebhooks: tt.noWebhooks}).Findings
			if len(got) != len(tt.want) {
				t.Fatalf("want %v, got:%s", tt.want, dump(got))
			}
			for i, f := range got {
				if !strings.HasSuffix(f.Message, tt.want[i]) || f.Severity != finding.Warning || f.File == "" || f.Line == 0 {
					t.Errorf("finding %d: %+v, want reason %s at a file and line", i, f, tt.want[i])
				}
			}
		})
	}
}

func TestOLMv1Catalog(t *testing.T) {
	dir := t.TempDir()
	csv := testCSV(csvOpts{installModes: []string{"OwnNamespace"}})
	linttest.WriteFiles(t, dir, map[string]string{"etcd/catalog.yaml": bundleObjectCatalog(t, csv, testCRD("              size: {type: integer}\n"))})
	got := run(t, []string{dir}, Options{Rules: []string{ruleOLMv1}}).Findings
	file := filepath.Join(dir, "etcd", "catalog.yaml")
	if len(got) != 1 || got[0].File != file || got[0].Channel != "alpha" || !strings.Contains(got[0].Message, "AllNamespaces") {
		t.Fatalf("want one finding in %s, got:%s", file, dump(got))
	}

	// A catalog bundle with only olm.csv.metadata is judged by it.
	dir = t.TempDir()
	meta := `{"installModes":[{"type":"OwnNamespace","supported":true},{"type":"AllNamespaces","supported":false}],"apiServiceDefinitions":{"owned":[{"group":"metrics.example.com","version":"v1","kind":"Metric","name":"metrics"}]}}`
	cat := strings.Replace(bundleObjectCatalog(t), "      version: 0.9.4\n", "      version: 0.9.4\n  - type: olm.csv.metadata\n    value: "+meta+"\n", 1)
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": cat})
	got = run(t, []string{dir}, Options{Rules: []string{ruleOLMv1}}).Findings
	if len(got) != 2 {
		t.Fatalf("want install-mode and API service findings, got:%s", dump(got))
	}

	// One with neither is left to its image.
	dir = t.TempDir()
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": bundleObjectCatalog(t)})
	if got = run(t, []string{dir}, Options{Rules: []string{ruleOLMv1}}).Findings; len(got) != 0 {
		t.Fatalf("findings:%s", dump(got))
	}
}
