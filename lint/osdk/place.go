package osdk

import (
	"regexp"
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

// outputs turns validator results into outputs, warnings before errors
// in each result as operator-sdk prints them, each placed (see place).
func (l *loaded) outputs(results []apierrors.ManifestResult) []Output {
	var out []Output
	for _, r := range results {
		for _, w := range r.Warnings {
			out = append(out, l.place(w, false))
		}
		for _, e := range r.Errors {
			out = append(out, l.place(e, true))
		}
	}
	return out
}

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

// objectOf finds the object other than the CSV that the problem e is
// about: a service account by name, a CRD by group and kind.
func (l *loaded) objectOf(e apierrors.Error) (*file, *value.Value) {
	switch v := e.BadValue.(type) {
	case string:
		if strings.Contains(e.Detail, "invalid service account") {
			return l.named("ServiceAccount", v), nil
		}
	case schema.GroupVersionKind:
		// A CRD the CSV does not define, or twice; not an owned CRD the
		// bundle lacks, nor an API's example (those are the CSV's).
		if strings.HasPrefix(e.Detail, "owned CRD") || !strings.Contains(e.Detail, "CRD") {
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
