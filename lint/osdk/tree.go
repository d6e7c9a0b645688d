package osdk

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// Finding nodes in the trees of manifests: by a path of keys, a field
// path as Kubernetes writes it, a path of Go field names, or the item of
// a list with a member of some value.

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

// deepest is the deepest node of tree along path.
func deepest(tree *value.Value, path []string) *value.Value {
	n := tree
	for _, k := range path {
		next := n.At(k)
		if next == nil {
			break
		}
		n = next
	}
	return n
}

// items are the items of a list; none for anything else.
func items(list *value.Value) []value.Value {
	if list == nil || list.Kind != value.Array {
		return nil
	}
	return list.Items
}
