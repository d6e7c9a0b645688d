package osdk

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/fbcat/opm/encoding/value"
)

// Where an output points: the validators name no file, so each output
// is placed by what its message names. An object of the bundle (a
// service account, a CRD, the objects a removed-APIs message lists) is
// found by kind and name; a field of the CSV by the words the
// validators use for it (csv.Spec.Icon, the alm-examples annotation, a
// container's name, ...); anything else is at the CSV. The bundle's
// size is about the bundle directory.

// place is the output for the validator problem e.
func (l *loaded) place(e apierrors.Error, isErr bool) Output {
	o := Output{Error: isErr, Message: message(e)}
	switch {
	case strings.Contains(o.Message, "bundle compressed size"):
	case strings.Contains(o.Message, removedAPIsMark):
		o.File, o.Line = l.removedAPIsAt(o.Message)
	default:
		if f, n := l.objectOf(e); f != nil {
			o.File, o.Line = f.at(n)
		} else {
			o.File, o.Line = l.csv.at(csvField(l.csv.tree, o.Message, e.Field))
		}
	}
	return o
}

// at is the path of the file from the bundle directory and the line of
// its node n (nil: its first document).
func (f *file) at(n *value.Value) (string, int) {
	if n == nil || n.Line == 0 {
		n = f.tree
	}
	return path.Join("manifests", f.name), int(n.Line)
}

// objectOf finds the object other than the CSV that the problem e is
// about: a service account by name, a CRD by group and kind.
func (l *loaded) objectOf(e apierrors.Error) (*file, *value.Value) {
	switch v := e.BadValue.(type) {
	case string:
		if strings.Contains(e.Detail, "invalid service account") {
			return l.named("ServiceAccount", v), nil
		}
	case schema.GroupVersionKind:
		if strings.HasPrefix(e.Detail, "owned CRD") {
			return nil, nil
		}
		for _, c := range l.crds {
			if c.tree.StringAt("spec", "group") == v.Group && c.tree.StringAt("spec", "names", "kind") == v.Kind {
				return &c.file, versionNode(c.tree, v.Version)
			}
		}
	}
	return nil, nil
}

// named is the manifest of the object of that kind and name, nil if
// none.
func (l *loaded) named(kind, name string) *file {
	all := append([]*file{l.csv}, l.others...)
	for _, c := range l.crds {
		all = append(all, &c.file)
	}
	for _, f := range all {
		if f.tree.StringAt("kind") == kind && f.tree.StringAt("metadata", "name") == name {
			return f
		}
	}
	return nil
}

// versionNode is a CRD's entry of the version named v, nil if none.
func versionNode(crd *value.Value, v string) *value.Value {
	return find(crd.At("spec", "versions"), "name", v)
}

// find is the item of a list whose member key is the string s.
func find(list *value.Value, key, s string) *value.Value {
	if list == nil || list.Kind != value.Array {
		return nil
	}
	for i := range list.Items {
		if list.Items[i].StringAt(key) == s {
			return &list.Items[i]
		}
	}
	return nil
}

// firstListed matches the first kind and name a removed-APIs message
// lists: `CRD: (["foos.example.com" ...`.
var firstListed = regexp.MustCompile(`Migrate the API\(s\) for ([^:]+): \(\["((?:[^"\\]|\\.)*)"`)

// removedAPIsAt places a removed-APIs message at the first object it
// lists: a CRD or object by name, or a field of the CSV (the message
// names those "ClusterServiceVersion.Spec....").
func (l *loaded) removedAPIsAt(msg string) (string, int) {
	m := firstListed.FindStringSubmatch(msg)
	if m == nil {
		return l.csv.at(nil)
	}
	kind, name := m[1], m[2]
	if kind == "CRD" {
		kind = "CustomResourceDefinition"
	}
	if rest, ok := strings.CutPrefix(name, "ClusterServiceVersion."); ok {
		return l.csv.at(goPath(l.csv.tree, rest))
	}
	if f := l.named(kind, name); f != nil {
		return f.at(nil)
	}
	return l.csv.at(nil)
}

// fieldPath splits a field path ("spec.versions[0].name") into keys.
var fieldPath = regexp.MustCompile(`[^.\[\]]+|\[\d+\]`)

// lookup is the deepest node of tree along a field path as Kubernetes
// writes it ("spec.versions[0].schema"); tree for none.
func lookup(tree *value.Value, p string) *value.Value {
	n := tree
	for _, k := range fieldPath.FindAllString(p, -1) {
		next := n.At(strings.Trim(k, "[]"))
		if next == nil {
			break
		}
		n = next
	}
	return n
}

// goAliases are the Go names of CSV fields whose JSON names differ.
var goAliases = map[string]string{"installstrategy": "install", "strategyspec": "spec", "deploymentspecs": "deployments", "resource": "resources"}

// goPath is the deepest node of a CSV along a path of Go field names, as
// the validators name fields ("Spec.InstallStrategy.StrategySpec.
// ClusterPermissions[0].Rules[1]"), matched to JSON names ignoring case.
func goPath(tree *value.Value, p string) *value.Value {
	n := tree
	for _, k := range fieldPath.FindAllString(p, -1) {
		var next *value.Value
		if i, err := strconv.Atoi(strings.Trim(k, "[]")); err == nil && k[0] == '[' {
			next = n.At(strconv.Itoa(i))
		} else {
			next = memberFold(n, k)
		}
		if next == nil {
			break
		}
		n = next
	}
	return n
}

// memberFold is the member of an object whose name is k ignoring case
// (or, for a Go name whose JSON name differs, that name).
func memberFold(n *value.Value, k string) *value.Value {
	if n == nil || n.Kind != value.Object {
		return nil
	}
	if alias, ok := goAliases[strings.ToLower(k)]; ok {
		k = alias
	}
	for i := range n.Fields {
		if strings.EqualFold(n.Fields[i].Key, k) {
			return &n.Fields[i].Value
		}
	}
	return nil
}
