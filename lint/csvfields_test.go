package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

func TestCSVFields(t *testing.T) {
	base := testCSV(csvOpts{})
	tests := []struct {
		name, from, to string
		want           string // "" for no finding
	}{
		{name: "complete"},
		{name: "alm-examples not JSON", from: `alm-examples: '[{"apiVersion"`, to: `alm-examples: '[{apiVersion`, want: "alm-examples is not a JSON list of objects"},
		{name: "alm-examples of an API not owned", from: `"kind":"EtcdCluster"`, to: `"kind":"EtcdBackup"`, want: "alm-examples has an example of etcd.database.coreos.com/v1beta2 EtcdBackup, which the CSV does not own"},
		{name: "capability unknown", from: "capabilities: Full Lifecycle", to: "capabilities: Full lifecycle", want: `capabilities "Full lifecycle" is not a capability level`},
		{name: "category unknown", from: "categories: Database", to: "categories: Database, Databases", want: `categories "Databases" not among OperatorHub's categories`},
		{name: "icon media type", from: "mediatype: image/png", to: "mediatype: png", want: `spec.icon mediatype "png" is not one of`},
		{name: "icon not base64", from: "base64data: iVBOR", to: "base64data: ~~iVBOR", want: "spec.icon base64data is not base64"},
		{name: "maintainer email", from: "email: etcd-dev@googlegroups.com", to: "email: etcd-dev", want: `spec.maintainers email "etcd-dev" is not an email address`},
		{name: "maintainer without email", from: "    email: etcd-dev@googlegroups.com\n", to: "", want: "spec.maintainers entries need both name and email"},
		{name: "link not a URL", from: "url: https://coreos.com/etcd", to: "url: coreos", want: `spec.links url "coreos" is not a URL`},
		{name: "no provider", from: "  provider:\n    name: CNCF\n", to: "", want: "no spec.provider.name"},
		{name: "no description", from: "  description: |\n    etcd is a distributed key value store that provides a reliable way to store data across a cluster of machines.\n", to: "", want: "no spec.description"},
		{name: "no resource requests", from: "                resources:\n                  requests:\n                    cpu: 100m\n                    memory: 64Mi\n", to: "", want: `container "etcd-operator" of deployment "etcd-operator" requests no CPU or no memory`},
		{name: "owned CRD without description", from: "      description: Represents a cluster of etcd nodes.\n", to: "", want: `owned CRD "etcdclusters.etcd.database.coreos.com" has no description`},
		{name: "minKubeVersion", from: "  maturity: alpha\n", to: "  maturity: alpha\n  minKubeVersion: 1.x\n", want: `spec.minKubeVersion "1.x" is not a version`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(base, tt.from) {
				t.Fatalf("the CSV has no %q", tt.from)
			}
			csv := strings.Replace(base, tt.from, tt.to, 1)
			dir := bundleDir(t, t.TempDir(), csv, annotationsYAML(""), nil)
			got := run(t, []string{dir}, Options{Rules: []string{ruleCSVFields}}).Findings
			if tt.want == "" {
				if len(got) > 0 {
					t.Fatalf("findings:%s", dump(got))
				}
				return
			}
			found := false
			for _, f := range got {
				found = found || strings.Contains(f.Message, tt.want) && f.Severity == finding.Warning && f.Line > 0
			}
			if !found || len(got) > 2 {
				t.Fatalf("want a finding with %q, got:%s", tt.want, dump(got))
			}
		})
	}
}

// A catalog's channel heads are checked, by their olm.csv.metadata.
func TestCSVFieldsCatalog(t *testing.T) {
	dir := t.TempDir()
	meta := `{"displayName":"etcd","description":"etcd","provider":{"name":"CNCF"},"maintainers":[{"name":"etcd","email":"etcd-dev@googlegroups.com"}],"links":[{"name":"Blog","url":"https://coreos.com/etcd"}],"annotations":{"capabilities":"Full Lifecycle","categories":"Database, Key Value"},"installModes":[{"type":"AllNamespaces","supported":true}]}`
	cat := strings.Replace(bundleObjectCatalog(t), "      version: 0.9.4\n", "      version: 0.9.4\n  - type: olm.csv.metadata\n    value: "+meta+"\n", 1)
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": cat})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCSVFields}}).Findings
	if len(got) != 1 || !strings.Contains(got[0].Message, "Key Value") || got[0].Channel != "alpha" {
		t.Fatalf("want the category finding, got:%s", dump(got))
	}
}
