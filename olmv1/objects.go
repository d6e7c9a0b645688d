// The Kubernetes objects this package makes, and the order they are
// written in.

package olmv1

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// Object is one Kubernetes object, as a JSON tree.
type Object struct {
	Value *value.Value
	// RuleNotes, for a Role or ClusterRole, say why each of its rules is
	// there; written as a comment above the rule in YAML.
	RuleNotes []string
}

// Kind, APIVersion, Namespace and Name read the object's identity.
func (o Object) Kind() string       { return o.Value.StringAt("kind") }
func (o Object) APIVersion() string { return o.Value.StringAt("apiVersion") }
func (o Object) Namespace() string  { return o.Value.StringAt("metadata", "namespace") }
func (o Object) Name() string       { return o.Value.StringAt("metadata", "name") }

// String names the object in messages: Kind namespace/name.
func (o Object) String() string {
	if ns := o.Namespace(); ns != "" {
		return o.Kind() + " " + ns + "/" + o.Name()
	}
	return o.Kind() + " " + o.Name()
}

// objectMeta is the metadata of the objects this package makes.
type objectMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// role is a Role or ClusterRole.
type role struct {
	typeMeta
	Metadata objectMeta              `json:"metadata"`
	Rules    []registryv1.PolicyRule `json:"rules"`
}

// binding is a RoleBinding or ClusterRoleBinding.
type binding struct {
	typeMeta
	Metadata objectMeta `json:"metadata"`
	Subjects []subject  `json:"subjects"`
	RoleRef  roleRef    `json:"roleRef"`
}

type subject struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

type roleRef struct {
	APIGroup string `json:"apiGroup"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
}

// simple is an object of metadata only (ServiceAccount, Namespace).
type simple struct {
	typeMeta
	Metadata objectMeta `json:"metadata"`
}

const rbacGroup = "rbac.authorization.k8s.io"
const rbacVersion = rbacGroup + "/v1"

func newServiceAccount(name, namespace string) simple {
	return simple{typeMeta{"v1", "ServiceAccount"}, objectMeta{Name: name, Namespace: namespace}}
}

// newRole makes a Role or ClusterRole; no rules are written null, as
// rbac/v1's type writes them.
func newRole(kind, name, namespace string, rules []registryv1.PolicyRule) role {
	return role{typeMeta{rbacVersion, kind}, objectMeta{Name: name, Namespace: namespace}, rules}
}

// newBinding binds a role (or cluster role) to a service account.
func newBinding(kind, name, namespace, roleKind, roleName, sa, saNamespace string) binding {
	return binding{
		typeMeta: typeMeta{rbacVersion, kind},
		Metadata: objectMeta{Name: name, Namespace: namespace},
		Subjects: []subject{{Kind: "ServiceAccount", Name: sa, Namespace: saNamespace}},
		RoleRef:  roleRef{APIGroup: rbacGroup, Kind: roleKind, Name: roleName},
	}
}

// toObject turns a Go value into an Object through its JSON.
func toObject(v any) Object {
	data, err := value.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("olmv1: encoding a generated object: %v", err))
	}
	tree, err := value.ParseJSON(data)
	if err != nil {
		panic(fmt.Sprintf("olmv1: reading a generated object: %v", err))
	}
	return Object{Value: &tree}
}

// installOrder ranks kinds in the order they are best applied in: what
// others refer to first (Helm's install order), kinds it does not know
// next, and webhook configurations last, once what serves them exists.
var installOrder = []string{
	"Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy",
	"PodDisruptionBudget", "ServiceAccount", "Secret", "ConfigMap", "Issuer", "Certificate", "StorageClass",
	"PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition",
	"ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "Service",
	"DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment",
	"HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob", "IngressClass",
	"Ingress", "APIService",
}

var lastKinds = []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration", "ClusterExtension"}

// kindRank places a kind in installOrder.
func kindRank(kind string) int {
	if i := slices.Index(installOrder, kind); i >= 0 {
		return i
	}
	if i := slices.Index(lastKinds, kind); i >= 0 {
		return len(installOrder) + 1 + i
	}
	return len(installOrder)
}

// SortObjects orders objects for applying: by kind (see installOrder),
// then kind name, namespace and name.
func SortObjects(objs []Object) {
	slices.SortStableFunc(objs, func(a, b Object) int {
		return cmp.Or(
			cmp.Compare(kindRank(a.Kind()), kindRank(b.Kind())),
			cmp.Compare(a.Kind(), b.Kind()),
			cmp.Compare(a.Namespace(), b.Namespace()),
			cmp.Compare(a.Name(), b.Name()),
		)
	})
}
