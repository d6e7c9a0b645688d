package catalogrepotest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// source is the real bundle directory the versions are made from.
type source struct {
	pkg         string
	manifests   []manifest
	annotations *value.Value
	// crds counts the CRD manifests (which versions change in turn).
	crds int
}

// manifest is one file of manifests/: its tree when it is an object
// (which is written again, changed), its bytes when not.
type manifest struct {
	name string
	data []byte
	v    *value.Value
	kind string
	// crd is the CRD's index among the source's CRDs.
	crd int
}

// readSource reads a bundle directory.
func readSource(dir string) (*source, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "manifests"))
	if err != nil {
		return nil, fmt.Errorf("source bundle %s: %w", dir, err)
	}
	s := &source{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "manifests", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("source bundle %s: %w", dir, err)
		}
		m := manifest{name: e.Name(), data: data}
		if v, ok := registryv1.FirstObject(data, 30); ok {
			m.v, m.kind = v, v.StringAt("kind")
		}
		if m.kind == "CustomResourceDefinition" {
			m.crd = s.crds
			s.crds++
		}
		s.manifests = append(s.manifests, m)
	}
	ann, err := os.ReadFile(filepath.Join(dir, "metadata", "annotations.yaml"))
	if err != nil {
		return nil, fmt.Errorf("source bundle %s: %w", dir, err)
	}
	v, ok := registryv1.FirstObject(ann, 30)
	if !ok || v.At("annotations") == nil {
		return nil, fmt.Errorf("source bundle %s: metadata/annotations.yaml has no annotations", dir)
	}
	s.annotations = v
	s.pkg = v.StringAt("annotations", "operators.operatorframework.io.bundle.package.v1")
	return s, nil
}

// writeVersion writes the i-th version's bundle directory.
func (s *source) writeVersion(dir, pkg string, i int, openshift string) error {
	for _, sub := range []string{"manifests", "metadata"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	for _, m := range s.manifests {
		data := m.data
		switch m.kind {
		case "ClusterServiceVersion":
			data = fbcyaml.AppendDocument(nil, csvVersion(m.v, pkg, i))
		case "CustomResourceDefinition":
			data = fbcyaml.AppendDocument(nil, crdVersion(m.v, m.crd, s.crds, i))
		}
		if err := os.WriteFile(filepath.Join(dir, "manifests", m.name), data, 0o644); err != nil {
			return err
		}
	}
	ann := clone(s.annotations)
	a := ann.At("annotations")
	set(a, "operators.operatorframework.io.bundle.package.v1", str(pkg))
	set(a, "operators.operatorframework.io.bundle.channels.v1", str("stable,candidates"))
	set(a, "operators.operatorframework.io.bundle.channel.default.v1", str("stable"))
	if openshift != "" {
		set(a, "com.redhat.openshift.versions", str(openshift))
	}
	return os.WriteFile(filepath.Join(dir, "metadata", "annotations.yaml"), fbcyaml.AppendDocument(nil, ann), 0o644)
}

// csvVersion is the source's CSV as the i-th version.
func csvVersion(src *value.Value, pkg string, i int) *value.Value {
	v := clone(src)
	md := v.At("metadata")
	set(md, "name", str(csvName(pkg, i)))
	if ann := md.At("annotations"); ann != nil {
		set(ann, "createdAt", str(fmt.Sprintf("2024-%02d-%02dT10:00:00Z", 1+i/28%12, 1+i%28)))
	}
	spec := v.At("spec")
	set(spec, "version", str(LintRepoVersion(i)))
	if i > 0 {
		set(spec, "replaces", str(csvName(pkg, i-1)))
	} else {
		unset(spec, "replaces")
	}
	unset(spec, "skips")
	return v
}

func csvName(pkg string, i int) string { return pkg + ".v" + LintRepoVersion(i) }

// set sets an object's member.
func set(v *value.Value, key string, x value.Value) {
	if v == nil || v.Kind != value.Object {
		return
	}
	if f, ok := v.Get(key); ok {
		*f = x
		return
	}
	v.Fields = append(v.Fields, value.Field{Key: key, Value: x})
	sort.SliceStable(v.Fields, func(a, b int) bool { return v.Fields[a].Key < v.Fields[b].Key })
}

// unset removes an object's member.
func unset(v *value.Value, key string) {
	if v == nil {
		return
	}
	for i := range v.Fields {
		if v.Fields[i].Key == key {
			v.Fields = append(v.Fields[:i:i], v.Fields[i+1:]...)
			return
		}
	}
}

func str(s string) value.Value { return value.Value{Kind: value.String, Str: s} }

// clone copies a tree deeply, so that a version's changes stay its own.
func clone(v *value.Value) *value.Value {
	out := *v
	if v.Items != nil {
		out.Items = make([]value.Value, len(v.Items))
		for i := range v.Items {
			out.Items[i] = *clone(&v.Items[i])
		}
	}
	if v.Fields != nil {
		out.Fields = make([]value.Field, len(v.Fields))
		for i := range v.Fields {
			out.Fields[i] = value.Field{Key: v.Fields[i].Key, Value: *clone(&v.Fields[i].Value)}
		}
	}
	return &out
}
