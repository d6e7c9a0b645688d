// InstallerRBAC: the least privilege of the service account OLM v1
// installs a bundle through.

package olmv1

import (
	"maps"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// RBACOptions name the installer's objects.
type RBACOptions struct {
	// ExtensionName is the ClusterExtension's name: the installer may
	// update its finalizers.
	ExtensionName string
	// ServiceAccount is the installer's service account, in the install
	// namespace; "<ExtensionName>-installer" if empty.
	ServiceAccount string
}

// serviceAccountName is the installer's service account's name.
func (o RBACOptions) serviceAccountName() string {
	if o.ServiceAccount != "" {
		return o.ServiceAccount
	}
	return o.ExtensionName + "-installer"
}

// InstallerRBAC returns the ServiceAccount that installs the manifests
// of a bundle and the least RBAC it needs, sorted for applying: a
// ClusterRole and ClusterRoleBinding for what is cluster-wide, and a Role and
// RoleBinding in each namespace the bundle's namespaced objects are in.
//
// The rules are those OpenShift's documentation derives by hand: update
// on the ClusterExtension's finalizers; for each kind of object, create,
// list and watch, and get, update, patch and delete limited by
// resourceNames to the objects; and every rule of the roles the bundle
// creates, since Kubernetes lets one create a role only with permissions
// one holds (short of the escalate verb, granted only for aggregated
// ClusterRoles: see addAggregated). Rules are merged and
// deduplicated; each carries a note saying which objects need it.
func InstallerRBAC(r *ManifestSet, opts RBACOptions) ([]Object, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	sa := opts.serviceAccountName()
	ns := r.InstallNamespace
	cluster := newRuleSet()
	namespaced := map[string]*ruleSet{}
	cluster.add(ruleAtom{group: "olm.operatorframework.io", resource: "clusterextensions/finalizers", name: opts.ExtensionName}, []string{"patch", "update"},
		"OLM v1 sets its finalizers on ClusterExtension", opts.ExtensionName)
	setFor := func(n string) *ruleSet {
		if n == "" {
			return cluster
		}
		if namespaced[n] == nil {
			namespaced[n] = newRuleSet()
			namespaced[n].parent = cluster
		}
		return namespaced[n]
	}
	for _, o := range r.Objects {
		setFor(o.scope()).addObject(o, cluster)
	}
	addForeignBinds(r.Objects, setFor)
	addAggregated(r.Objects, cluster, setFor)
	base := opts.ExtensionName + "-installer"
	objs := []Object{toObject(newServiceAccount(sa, ns))}
	objs = append(objs, roleObject(newRole("ClusterRole", base+"-clusterrole", "", nil), cluster),
		toObject(newBinding("ClusterRoleBinding", base+"-binding", "", "ClusterRole", base+"-clusterrole", sa, ns)))
	for _, n := range slices.Sorted(maps.Keys(namespaced)) {
		// a Role the ClusterRole covers entirely (a bundle granting "*")
		// would be an empty Role and a binding to it: left out.
		if rules, _ := namespaced[n].rules(); len(rules) == 0 {
			continue
		}
		objs = append(objs, roleObject(newRole("Role", base+"-role", n, nil), namespaced[n]),
			toObject(newBinding("RoleBinding", base+"-role-binding", n, "Role", base+"-role", sa, ns)))
	}
	SortObjects(objs)
	return objs, nil
}

// addForeignBinds grants bind on the roles that the bundle's bindings
// refer to but the bundle does not carry: the installer cannot be given
// rules nobody can see, and Kubernetes lets one bind a role one holds the
// bind verb on.
func addForeignBinds(objs []Object, setFor func(string) *ruleSet) {
	carried := map[string]bool{}
	for _, o := range objs {
		if o.isRBAC("ClusterRole", "Role") {
			carried[o.Kind()+"/"+o.scope()+"/"+o.Name()] = true
		}
	}
	for _, o := range objs {
		if !o.isRBAC("ClusterRoleBinding", "RoleBinding") {
			continue
		}
		kind, name := o.Value.StringAt("roleRef", "kind"), o.Value.StringAt("roleRef", "name")
		ns, resource := "", "clusterroles"
		if kind == "Role" {
			ns, resource = o.scope(), "roles"
		}
		if name == "" || carried[kind+"/"+ns+"/"+name] {
			continue
		}
		setFor(ns).add(ruleAtom{group: rbacGroup, resource: resource, name: name}, []string{"bind"},
			"binds "+kind+" "+name+", which the bundle does not carry, in "+o.Kind(), o.Name())
	}
}

// addAggregated grants what writing and binding the bundle's aggregated
// ClusterRoles (those with an aggregationRule) takes. Kubernetes lets only
// a holder of every permission, or of escalate on the role, create or
// update one: its rules are gathered from other roles. A create (POST, as
// operator-controller's Helm applier does it) names no object, so escalate
// limited by resourceNames does not match it; only a server-side apply
// names the role. So escalate on clusterroles cannot be narrower, and the
// installer of such a bundle can write any ClusterRole. A binding to an
// aggregated role gets bind on it by name: the rules gathered from roles
// outside the bundle are unknown.
func addAggregated(objs []Object, cluster *ruleSet, setFor func(string) *ruleSet) {
	aggregated := map[string]bool{}
	for _, o := range objs {
		if o.isRBAC("ClusterRole") && o.Value.At("aggregationRule") != nil {
			aggregated[o.Name()] = true
			cluster.add(ruleAtom{group: rbacGroup, resource: "clusterroles"}, []string{"escalate"},
				"writes aggregated ClusterRole (Kubernetes asks escalate, which a create cannot limit by name)", o.Name())
		}
	}
	for _, o := range objs {
		if !o.isRBAC("ClusterRoleBinding", "RoleBinding") {
			continue
		}
		name := o.Value.StringAt("roleRef", "name")
		if o.Value.StringAt("roleRef", "kind") == "ClusterRole" && aggregated[name] {
			setFor(o.scope()).add(ruleAtom{group: rbacGroup, resource: "clusterroles", name: name}, []string{"bind"},
				"binds aggregated ClusterRole "+name+", whose gathered rules are unknown, in "+o.Kind(), o.Name())
		}
	}
}

// roleObject fills a role with the rules of a set and their notes.
func roleObject(ro role, set *ruleSet) Object {
	rules, notes := set.rules()
	ro.Rules = rules
	o := toObject(ro)
	o.RuleNotes = notes
	return o
}

// clusterScoped are the cluster-scoped kinds an install may hold: their
// objects are cluster-wide even when a namespace is set on them, as
// operator-controller sets one on webhook configurations.
var clusterScoped = map[string]bool{
	"CustomResourceDefinition": true, "ClusterRole": true, "ClusterRoleBinding": true,
	"MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true,
	"PriorityClass": true, "StorageClass": true, "IngressClass": true, "Namespace": true,
	"APIService": true, "ConsoleYAMLSample": true, "ConsoleQuickStart": true,
	"ConsoleCLIDownload": true, "ConsoleLink": true, "ClusterExtension": true,
}

// isRBAC reports whether o is of one of the kinds of Kubernetes' RBAC
// API group: a custom resource may be called Role too (ack-iam-controller
// has one), and its fields are no rules to hold.
func (o Object) isRBAC(kinds ...string) bool {
	return strings.HasPrefix(o.APIVersion(), rbacGroup+"/") && slices.Contains(kinds, o.Kind())
}

// scope is the namespace an object lives in, "" for a cluster-wide one.
func (o Object) scope() string {
	if clusterScoped[o.Kind()] {
		return ""
	}
	return o.Namespace()
}

// What the installer does with each kind of object, as
// operator-controller's preflight check asks for it: create in the
// object's namespace; list and watch cluster-wide, which its content
// manager needs; get, update, patch and delete the bundle's objects, by
// name, in their namespace.
var (
	createVerbs = []string{"create"}
	watchVerbs  = []string{"list", "watch"}
	namedVerbs  = []string{"delete", "get", "patch", "update"}
)

// addObject adds what applying and managing one object needs to its
// scope's set s, and what is needed cluster-wide to cluster.
func (s *ruleSet) addObject(o Object, cluster *ruleSet) {
	group, resource := resourceOf(o.APIVersion(), o.Kind())
	what := "applies " + o.Kind()
	s.add(ruleAtom{group: group, resource: resource}, createVerbs, what, o.Name())
	cluster.add(ruleAtom{group: group, resource: resource}, watchVerbs, "watches "+o.Kind(), o.Name())
	s.add(ruleAtom{group: group, resource: resource, name: o.Name()}, namedVerbs, what, o.Name())
	if !o.isRBAC("ClusterRole", "Role") {
		return
	}
	rules := o.Value.At("rules")
	for _, rule := range itemsOf(rules) {
		var pr registryv1.PolicyRule
		pr.Verbs = stringsOf(rule.At("verbs"))
		pr.APIGroups = stringsOf(rule.At("apiGroups"))
		pr.Resources = stringsOf(rule.At("resources"))
		pr.ResourceNames = stringsOf(rule.At("resourceNames"))
		pr.NonResourceURLs = stringsOf(rule.At("nonResourceURLs"))
		s.addRule(pr, "held by the operator's "+o.Kind()+" (creating it needs them, short of escalate)", o.Name())
	}
}

// stringsOf reads an array of strings.
func stringsOf(v *value.Value) []string {
	var out []string
	for _, item := range itemsOf(v) {
		out = append(out, item.Str)
	}
	return out
}

// resourceOf is the API group and resource of a kind.
func resourceOf(apiVersion, kind string) (string, string) {
	group := ""
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	if r, ok := resources[kind]; ok {
		return group, r
	}
	return group, plural(strings.ToLower(kind))
}

// resources are the resources of the kinds whose plurals are irregular.
var resources = map[string]string{
	"Endpoints":             "endpoints",
	"PodSecurityPolicy":     "podsecuritypolicies",
	"NetworkPolicy":         "networkpolicies",
	"PriorityClass":         "priorityclasses",
	"StorageClass":          "storageclasses",
	"IngressClass":          "ingressclasses",
	"ConsoleYAMLSample":     "consoleyamlsamples",
	"ConsoleCLIDownload":    "consoleclidownloads",
	"ConsoleQuickStart":     "consolequickstarts",
	"ConsoleLink":           "consolelinks",
	"VerticalPodAutoscaler": "verticalpodautoscalers",
}

// plural is Kubernetes' default plural of a lower-case kind.
func plural(k string) string {
	switch {
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "z"),
		strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}
