package registryv1

import (
	"strings"
	"testing"
)

func TestInstallAccessors(t *testing.T) {
	b, err := Parse(testBundle())
	if err != nil {
		t.Fatal(err)
	}
	csv, deps, props := b.Files()
	if !strings.HasPrefix(csv, "manifests/") || deps != "metadata/dependencies.yaml" || props != "metadata/properties.yaml" {
		t.Errorf("Files() = %q, %q, %q", csv, deps, props)
	}

	c, err := ParseCSV([]byte(`{"spec":{"install":{"strategy":"deployment","spec":{
		"deployments":[{"name":"op","spec":{"replicas":1},"label":{"app":"op"}}],
		"permissions":[{"serviceAccountName":"sa","rules":[{"verbs":["get"],"apiGroups":[""],"resources":["configmaps"]}]}],
		"clusterPermissions":[{"serviceAccountName":"sa","rules":[{"verbs":["list"],"nonResourceURLs":["/metrics"]}]}]}},
		"webhookdefinitions":[{"generateName":"v.example.com","type":"ValidatingAdmissionWebhook","deploymentName":"op",
		"containerPort":9443,"admissionReviewVersions":["v1"],"rules":[{"operations":["CREATE"],"apiGroups":["example.com"],"apiVersions":["v1"],"resources":["widgets"]}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.DeploymentStrategy()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.DeploymentSpecs) != 1 || s.DeploymentSpecs[0].Name != "op" || s.DeploymentSpecs[0].Label["app"] != "op" ||
		string(s.DeploymentSpecs[0].Spec) != `{"replicas":1}` ||
		len(s.Permissions) != 1 || s.Permissions[0].Rules[0].Resources[0] != "configmaps" ||
		len(s.ClusterPermissions) != 1 || s.ClusterPermissions[0].Rules[0].NonResourceURLs[0] != "/metrics" {
		t.Errorf("strategy %+v", s)
	}
	whs, err := c.Webhooks()
	if err != nil {
		t.Fatal(err)
	}
	if len(whs) != 1 || whs[0].ContainerPort != 9443 || whs[0].Rules[0].Resources[0] != "widgets" ||
		!strings.Contains(string(whs[0].Raw()), `"generateName":"v.example.com"`) {
		t.Errorf("webhooks %+v", whs)
	}

	empty, err := ParseCSV([]byte(`{"spec":{"install":{"strategy":"deployment","spec":null}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := empty.DeploymentStrategy(); err != nil || len(s.DeploymentSpecs) != 0 {
		t.Errorf("a CSV without an install spec: %+v, %v", s, err)
	}
	if whs, err := empty.Webhooks(); err != nil || whs != nil {
		t.Errorf("a CSV without webhooks: %v, %v", whs, err)
	}

	bad, err := ParseCSV([]byte(`{"spec":{"install":{"spec":{"deployments":"x"}},"webhookdefinitions":[{"containerPort":"x"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.DeploymentStrategy(); err == nil || !strings.Contains(err.Error(), "spec.install.spec") {
		t.Errorf("a malformed install spec: %v", err)
	}
	if _, err := bad.Webhooks(); err == nil || !strings.Contains(err.Error(), "spec.webhookdefinitions[0]") {
		t.Errorf("a malformed webhook definition: %v", err)
	}
}

func TestFirstObject(t *testing.T) {
	for _, tc := range []struct {
		data string
		kind string
		ok   bool
	}{
		{`{"kind":"Service","metadata":{"name":"s"}}`, "Service", true},
		{"kind: ConfigMap\nmetadata:\n  name: c\n---\nkind: Secret\n", "ConfigMap", true},
		{"- a\n- b\n", "", false},
		{"", "", false},
		{"kind: [unclosed\n", "", false},
	} {
		v, ok := FirstObject([]byte(tc.data), 512)
		if ok != tc.ok {
			t.Errorf("FirstObject(%q) ok = %v, want %v", tc.data, ok, tc.ok)
			continue
		}
		if ok && v.StringAt("kind") != tc.kind {
			t.Errorf("FirstObject(%q) kind = %q, want %q", tc.data, v.StringAt("kind"), tc.kind)
		}
	}
	v, _ := FirstObject([]byte(`{"metadata":{"name":"n","labels":{"x":1}}}`), 512)
	if v.StringAt("metadata", "name") != "n" || v.StringAt("metadata", "labels", "x") != "" || v.StringAt("missing", "key") != "" {
		t.Error("StringAt follows members and returns only strings")
	}
}
