package olmv1

import (
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/registryv1"
)

// grants is a tiny RBAC authorizer over the installer's roles.
type grants struct {
	cluster []registryv1.PolicyRule
	ns      map[string][]registryv1.PolicyRule
}

func rulesOf(t *testing.T, o Object) []registryv1.PolicyRule {
	t.Helper()
	var out []registryv1.PolicyRule
	for _, r := range itemsOf(o.Value.At("rules")) {
		out = append(out, registryv1.PolicyRule{
			Verbs: stringsOf(r.At("verbs")), APIGroups: stringsOf(r.At("apiGroups")),
			Resources: stringsOf(r.At("resources")), ResourceNames: stringsOf(r.At("resourceNames")),
			NonResourceURLs: stringsOf(r.At("nonResourceURLs")),
		})
	}
	return out
}

func grantsOf(t *testing.T, objs []Object) grants {
	g := grants{ns: map[string][]registryv1.PolicyRule{}}
	for _, o := range objs {
		switch o.Kind() {
		case "ClusterRole":
			g.cluster = append(g.cluster, rulesOf(t, o)...)
		case "Role":
			g.ns[o.Namespace()] = append(g.ns[o.Namespace()], rulesOf(t, o)...)
		}
	}
	return g
}

func has(list []string, s string) bool { return slices.Contains(list, s) || slices.Contains(list, "*") }

func matches(r registryv1.PolicyRule, group, resource, name, verb string) bool {
	return has(r.Verbs, verb) && has(r.APIGroups, group) && has(r.Resources, resource) &&
		(len(r.ResourceNames) == 0 || name != "" && slices.Contains(r.ResourceNames, name))
}

// allowed reports whether the installer may do verb on the object (name
// "" for any) in namespace ns ("" for cluster-wide).
func (g grants) allowed(group, resource, ns, name, verb string) bool {
	rules := g.cluster
	if ns != "" {
		rules = append(slices.Clone(rules), g.ns[ns]...)
	}
	return slices.ContainsFunc(rules, func(r registryv1.PolicyRule) bool { return matches(r, group, resource, name, verb) })
}

// checkSufficient checks that the installer may create and manage every
// rendered object and holds every rule of the roles it creates.
func checkSufficient(t *testing.T, r *ManifestSet, rbac []Object) {
	t.Helper()
	g := grantsOf(t, rbac)
	for _, o := range r.Objects {
		group, res := resourceOf(o.APIVersion(), o.Kind())
		if !g.allowed(group, res, o.scope(), "", "create") {
			t.Errorf("%s: may not create", o)
		}
		for _, v := range watchVerbs {
			if !g.allowed(group, res, "", "", v) {
				t.Errorf("%s: may not %s cluster-wide", o, v)
			}
		}
		for _, v := range namedVerbs {
			if !g.allowed(group, res, o.scope(), o.Name(), v) {
				t.Errorf("%s: may not %s", o, v)
			}
		}
		if !o.isRBAC("Role", "ClusterRole") {
			continue
		}
		for _, rule := range rulesOf(t, o) {
			names := rule.ResourceNames
			if len(names) == 0 {
				names = []string{""}
			}
			for _, gr := range rule.APIGroups {
				for _, rs := range rule.Resources {
					for _, n := range names {
						for _, v := range rule.Verbs {
							if !g.allowed(gr, rs, o.Namespace(), n, v) {
								t.Errorf("%s grants %s %s/%s %q, the installer does not hold it", o, v, gr, rs, n)
							}
						}
					}
				}
			}
		}
	}
}

func TestInstallerRBACSufficient(t *testing.T) {
	for _, tc := range []struct {
		b    *Bundle
		opts ManifestOptions
	}{
		{mustBundle(t, "../testdata/bundles/ack-ecrpublic-controller_1.0.14"), ManifestOptions{InstallNamespace: "ns"}},
		{mustBundle(t, "testdata/bundles/service-binding-operator_1.0.1"), ManifestOptions{InstallNamespace: "ns"}},
		{testBundle(t, modesOwn, false, nil), ManifestOptions{InstallNamespace: "ops", WatchNamespace: "team"}},
		{testBundle(t, modesAll, true, nil), ManifestOptions{InstallNamespace: "ops"}},
	} {
		r := mustManifests(t, tc.b, tc.opts)
		rbac, err := InstallerRBAC(r, RBACOptions{ExtensionName: "ext"})
		if err != nil {
			t.Fatal(err)
		}
		checkSufficient(t, r, rbac)
		g := grantsOf(t, rbac)
		if !g.allowed("olm.operatorframework.io", "clusterextensions/finalizers", "", "ext", "update") ||
			!g.allowed("olm.operatorframework.io", "clusterextensions/finalizers", "", "ext", "patch") ||
			g.allowed("olm.operatorframework.io", "clusterextensions/finalizers", "", "other", "update") {
			t.Error("finalizers rule wrong")
		}
		for _, o := range rbac {
			for i, rule := range rulesOf(t, o) {
				if len(o.RuleNotes) != len(rulesOf(t, o)) || o.RuleNotes[i] == "" {
					t.Errorf("%s: rule %d has no note", o, i)
				}
				if tc.b.Name != "demo.v1.0.0" && (slices.Contains(rule.Verbs, "*") || slices.Contains(rule.APIGroups, "*") || slices.Contains(rule.Resources, "*")) {
					t.Errorf("%s: wildcard rule %+v", o, rule)
				}
			}
		}
	}
}

func TestInstallerRBACGolden(t *testing.T) {
	r := mustManifests(t, testBundle(t, modesOwn, false, nil), ManifestOptions{InstallNamespace: "ops", WatchNamespace: "team"})
	rbac, err := InstallerRBAC(r, RBACOptions{ExtensionName: "demo", ServiceAccount: "demo-sa"})
	if err != nil {
		t.Fatal(err)
	}
	out := yamlOf(t, rbac)
	golden(t, "demo.single.rbac.yaml", out)
	// The bundle's own wildcard verb is kept: the operator's role has it.
	if !strings.Contains(string(out), "- '*'") {
		t.Error("the bundle's wildcard verb is missing")
	}
	r = mustManifests(t, mustBundle(t, "../testdata/bundles/ack-ecrpublic-controller_1.0.14"), ManifestOptions{InstallNamespace: "ack"})
	if rbac, err = InstallerRBAC(r, RBACOptions{ExtensionName: "ack"}); err != nil {
		t.Fatal(err)
	}
	golden(t, "ack-ecrpublic-controller.rbac.yaml", yamlOf(t, rbac))
}

func TestInstallerRBACRefusals(t *testing.T) {
	r := &ManifestSet{InstallNamespace: "ns"}
	for _, opts := range []RBACOptions{{}, {ExtensionName: "Bad Name"}, {ExtensionName: "ok", ServiceAccount: "Bad"}} {
		if _, err := InstallerRBAC(r, opts); err == nil {
			t.Errorf("%+v: no error", opts)
		}
	}
}

func TestRuleSetMerge(t *testing.T) {
	s := newRuleSet()
	s.addRule(registryv1.PolicyRule{APIGroups: []string{"", "apps"}, Resources: []string{"pods", "deployments"}, Verbs: []string{"get"}}, "a", "x")
	s.addRule(registryv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get"}, ResourceNames: []string{"p"}}, "b", "y")
	s.addRule(registryv1.PolicyRule{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}, "c", "z")
	s.addRule(registryv1.PolicyRule{NonResourceURLs: []string{"*"}, Verbs: []string{"get"}}, "c", "z")
	rules, notes := s.rules()
	// pods/p is covered by pods; /metrics by *.
	if len(rules) != 3 || len(notes) != 3 {
		t.Fatalf("rules %+v", rules)
	}
	if !slices.Equal(rules[0].Resources, []string{"deployments", "pods"}) || rules[2].NonResourceURLs[0] != "*" {
		t.Errorf("rules %+v", rules)
	}
}

func TestPlural(t *testing.T) {
	for kind, want := range map[string]string{
		"Deployment": "deployments", "NetworkPolicy": "networkpolicies", "Ingress": "ingresses",
		"Policy": "policies", "Gateway": "gateways", "PriorityClass": "priorityclasses",
	} {
		if _, got := resourceOf("x/v1", kind); got != want {
			t.Errorf("%s: %s, want %s", kind, got, want)
		}
	}
}

// A binding to a role the bundle does not carry gets bind on that role.
func TestInstallerRBACForeignBinding(t *testing.T) {
	b := testBundle(t, modesAll, false, map[string]string{
		"manifests/view.yaml": "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: demo-view}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\nsubjects: [{kind: ServiceAccount, name: demo, namespace: ops}]\n",
	})
	r := mustManifests(t, b, ManifestOptions{InstallNamespace: "ops"})
	rbac, err := InstallerRBAC(r, RBACOptions{ExtensionName: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	g := grantsOf(t, rbac)
	if !g.allowed("rbac.authorization.k8s.io", "clusterroles", "", "view", "bind") || g.allowed("rbac.authorization.k8s.io", "clusterroles", "", "edit", "bind") {
		t.Errorf("bind on view: %s", yamlOf(t, rbac))
	}
}

// An aggregated ClusterRole: Kubernetes lets only a holder of escalate
// (or of every permission) write it, found against a real kube-apiserver
// (e2e/olmv1-kube.e2e.sh); escalate limited by name does not match a
// create, which names no object. Bindings to it need bind by name: its
// gathered rules are unknown.
func TestInstallerRBACAggregatedClusterRole(t *testing.T) {
	b := testBundle(t, modesAll, false, map[string]string{
		"manifests/agg.yaml":  "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: demo-agg}\naggregationRule:\n  clusterRoleSelectors: [{matchLabels: {demo/agg: 'true'}}]\nrules: []\n",
		"manifests/aggb.yaml": "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: demo-agg}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: demo-agg}\nsubjects: [{kind: ServiceAccount, name: demo, namespace: ops}]\n",
	})
	r := mustManifests(t, b, ManifestOptions{InstallNamespace: "ops"})
	rbac, err := InstallerRBAC(r, RBACOptions{ExtensionName: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	checkSufficient(t, r, rbac)
	g := grantsOf(t, rbac)
	if !g.allowed(rbacGroup, "clusterroles", "", "", "escalate") {
		t.Errorf("no escalate on clusterroles for a create of the aggregated role: %s", yamlOf(t, rbac))
	}
	if !g.allowed(rbacGroup, "clusterroles", "", "demo-agg", "bind") || g.allowed(rbacGroup, "clusterroles", "", "other", "bind") {
		t.Errorf("bind on the aggregated role only: %s", yamlOf(t, rbac))
	}
	if g.allowed(rbacGroup, "roles", "ops", "", "escalate") {
		t.Error("escalate on roles")
	}
	// without an aggregated role, no escalate at all.
	r = mustManifests(t, testBundle(t, modesAll, false, nil), ManifestOptions{InstallNamespace: "ops"})
	if rbac, err = InstallerRBAC(r, RBACOptions{ExtensionName: "demo"}); err != nil {
		t.Fatal(err)
	}
	if g := grantsOf(t, rbac); g.allowed(rbacGroup, "clusterroles", "", "x", "escalate") {
		t.Errorf("escalate without an aggregated role: %s", yamlOf(t, rbac))
	}
}

// A bundle whose ClusterRole grants everything leaves nothing for a Role:
// no empty Role and binding (hive-operator 1.2, seen on a real
// kube-apiserver by e2e/olmv1-kube.e2e.sh).
func TestInstallerRBACNoEmptyRole(t *testing.T) {
	b := testBundle(t, modesAll, false, map[string]string{
		"manifests/all.yaml": "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: demo-all}\nrules: [{apiGroups: ['*'], resources: ['*'], verbs: ['*']}]\n",
	})
	r := mustManifests(t, b, ManifestOptions{InstallNamespace: "ops"})
	rbac, err := InstallerRBAC(r, RBACOptions{ExtensionName: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	checkSufficient(t, r, rbac)
	for _, o := range rbac {
		if o.Kind() == "Role" || o.Kind() == "RoleBinding" {
			t.Errorf("%s: the ClusterRole covers everything", o)
		}
	}
}

// A custom resource called Role (ack-iam-controller 1.4 carries one, seen
// on a real kube-apiserver) is no RBAC role: its fields are not rules the
// installer must hold.
func TestInstallerRBACCustomResourceNamedRole(t *testing.T) {
	b := testBundle(t, modesAll, false, map[string]string{
		"manifests/role.yaml": "apiVersion: iam.example.com/v1\nkind: Role\nmetadata: {name: example}\nrules: [{apiGroups: [''], resources: [secrets], verbs: [delete]}]\n",
	})
	r := mustManifests(t, b, ManifestOptions{InstallNamespace: "ops"})
	rbac, err := InstallerRBAC(r, RBACOptions{ExtensionName: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	checkSufficient(t, r, rbac)
	if g := grantsOf(t, rbac); g.allowed("", "secrets", "ops", "any", "delete") {
		t.Errorf("the custom resource's rules were granted: %s", yamlOf(t, rbac))
	}
}
