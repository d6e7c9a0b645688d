package osdk

import (
	"regexp"
	"strings"

	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/osdk/suites"
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
func (l *loaded) outputs(results []apierrors.ManifestResult) []suites.Output {
	var out []suites.Output
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
func (l *loaded) place(e apierrors.Error, isErr bool) suites.Output {
	o := suites.Output{Error: isErr, Message: message(e)}
	switch {
	case strings.Contains(o.Message, "bundle compressed size"):
	case strings.Contains(o.Message, removedAPIsMark):
		o.File, o.Line = l.removedAPIsAt(o.Message)
		o.Causes = removedAPIsCauses(o.Message)
	default:
		if f, n := l.objectOf(e); f != nil {
			o.File, o.Line = f.at(n)
		} else {
			o.File, o.Line = l.csv.at(csvField(l.csv.tree, o.Message, e.Field))
		}
		o.Causes = l.causes(e, o.Message)
	}
	return o
}

// causes are the causes of a validator's problem e (see suites.Output.Causes):
// a CRD of the bundle whose versions the CSV does not own, or that lacks
// one the CSV owns; a CSV field required and missing, or that the
// message names by its Go name.
func (l *loaded) causes(e apierrors.Error, msg string) []string {
	if v, ok := e.BadValue.(schema.GroupVersionKind); ok && (strings.HasPrefix(e.Detail, "owned CRD") || strings.Contains(e.Detail, "is present in bundle")) {
		if name := l.crdName(v.Group, v.Kind); name != "" {
			return []string{finding.CauseCRDVersions(name)}
		}
	}
	if e.Field != "" && strings.Contains(msg, "required field missing") {
		return []string{finding.CauseCSVField(jsonPath(e.Field))}
	}
	for _, m := range csvMarks {
		if strings.HasPrefix(m.mark, "csv.") && strings.Contains(msg, m.mark) {
			return []string{finding.CauseCSVField(strings.Join(m.path, "."))}
		}
	}
	return nil
}

// crdName names the CRD of a group and kind: the bundle's CRD manifest's,
// else the CSV's owned entry's; "" when neither has it.
func (l *loaded) crdName(group, kind string) string {
	for _, c := range l.crds {
		if c.tree.StringAt("spec", "group") == group && c.tree.StringAt("spec", "names", "kind") == kind {
			return c.tree.StringAt("metadata", "name")
		}
	}
	for _, it := range items(l.csv.tree.At("spec", "customresourcedefinitions", "owned")) {
		if _, g, _ := strings.Cut(it.StringAt("name"), "."); g == group && it.StringAt("kind") == kind {
			return it.StringAt("name")
		}
	}
	return ""
}

// jsonPath is the JSON path of a Go field path: Spec.DisplayName is
// spec.displayName.
func jsonPath(goPath string) string {
	keys := strings.Split(goPath, ".")
	for i, k := range keys {
		if k != "" {
			keys[i] = strings.ToLower(k[:1]) + k[1:]
		}
	}
	return strings.Join(keys, ".")
}

// listedAPIs matches each kind and its names in a removed-APIs message:
// `PodDisruptionBudget: (["a" "b"])`.
var listedAPIs = regexp.MustCompile(`([A-Za-z]+): \(\[((?:"(?:[^"\\]|\\.)*"\s*)*)\]\)`)

// listedName matches one name of such a list.
var listedName = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)

// removedAPIsCauses are the causes of a removed-APIs message: each object
// it lists (objects named by a CSV field are the CSV's).
func removedAPIsCauses(msg string) []string {
	_, list, _ := strings.Cut(msg, removedAPIsMark)
	var out []string
	for _, m := range listedAPIs.FindAllStringSubmatch(list, -1) {
		kind := m[1]
		if kind == "CRD" {
			kind = "CustomResourceDefinition"
		}
		for _, n := range listedName.FindAllStringSubmatch(m[2], -1) {
			if !strings.HasPrefix(n[1], "ClusterServiceVersion.") {
				out = append(out, finding.CauseAPIRemoved(kind, n[1]))
			}
		}
	}
	return out
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
