package lint

import (
	"fmt"
	"slices"

	"github.com/fbcat/opm/encoding/value"
)

// crd is a CustomResourceDefinition of a bundle, read for comparison:
// apiextensions.k8s.io/v1, or v1beta1 with its one schema for every
// version.
type crd struct {
	name     string
	scope    string
	obj      *object
	versions []*crdVersion
	// stored are the versions objects may be stored in: the storage
	// version and those of status.storedVersions.
	stored []string
	// served are the versions the API server serves; webhook is set when
	// a conversion webhook converts between them.
	served  []string
	webhook bool
}

// crdVersion is one version of a CRD and its schema, flattened: every
// node by path ("" for the root, "spec.replicas", "spec.ports[*].name",
// "spec.labels.*" for additionalProperties).
type crdVersion struct {
	name  string
	node  *value.Value // the version's entry, for positions
	paths []string     // in walk order, parents first
	nodes map[string]*value.Value
	// parent is each path's parent path.
	parent map[string]string
	// sigs is each path's signature: the keywords compareNodes reads
	// (see comparedKeywords), as compact JSON. Nodes with the same
	// signature have no change compareNodes reports.
	sigs map[string]string
}

// crdObjects returns a bundle's CRD objects by name.
func (b *bundle) crdObjects() map[string]*object {
	out := map[string]*object{}
	for _, o := range b.objects {
		if o.kind == "CustomResourceDefinition" && o.name != "" {
			out[o.name] = o
		}
	}
	return out
}

// crd returns the bundle's CRD of that object, read once.
func (b *bundle) crd(o *object) *crd {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.crdIndex == nil {
		b.crdIndex = map[string]*crd{}
	}
	c := b.crdIndex[o.name]
	if c == nil {
		c = readCRD(o)
		b.crdIndex[o.name] = c
	}
	return c
}

// readCRD reads a CRD object.
func readCRD(o *object) *crd {
	c := &crd{name: o.name, scope: o.root().StringAt("spec", "scope"), obj: o}
	if c.scope == "" {
		c.scope = "Namespaced" // v1beta1's default
	}
	common := o.root().At("spec", "validation", "openAPIV3Schema")
	if vs := o.root().At("spec", "versions"); vs != nil && vs.Kind == value.Array {
		for i := range vs.Items {
			v := &vs.Items[i]
			schema := v.At("schema", "openAPIV3Schema")
			if schema == nil {
				schema = common
			}
			cv := newCRDVersion(v.StringAt("name"), v, schema)
			c.versions = append(c.versions, cv)
			if s := v.At("storage"); s != nil && s.Kind == value.Bool && s.Bool {
				c.stored = append(c.stored, cv.name)
			}
			if s := v.At("served"); s != nil && s.Kind == value.Bool && s.Bool {
				c.served = append(c.served, cv.name)
			}
		}
	} else if name := o.root().StringAt("spec", "version"); name != "" {
		c.versions = append(c.versions, newCRDVersion(name, o.root().At("spec"), common))
		c.stored = append(c.stored, name)
	}
	c.webhook = o.root().StringAt("spec", "conversion", "strategy") == "Webhook"
	if sv := o.root().At("status", "storedVersions"); sv != nil && sv.Kind == value.Array {
		for i := range sv.Items {
			if s := sv.Items[i]; s.Kind == value.String && !slices.Contains(c.stored, s.Str) {
				c.stored = append(c.stored, s.Str)
			}
		}
	}
	return c
}

func newCRDVersion(name string, node, schema *value.Value) *crdVersion {
	v := &crdVersion{name: name, node: node, nodes: map[string]*value.Value{}, parent: map[string]string{}, sigs: map[string]string{}}
	if schema != nil {
		v.flatten("", "", schema)
	}
	return v
}

// flatten records a schema node and its children.
func (v *crdVersion) flatten(parent, path string, n *value.Value) {
	if n.Kind != value.Object {
		return
	}
	if _, seen := v.nodes[path]; seen {
		return
	}
	v.nodes[path] = n
	v.parent[path] = parent
	v.sigs[path] = signature(n)
	v.paths = append(v.paths, path)
	if props := n.At("properties"); props != nil && props.Kind == value.Object {
		for i := range props.Fields {
			f := &props.Fields[i]
			v.flatten(path, join(path, f.Key), &f.Value)
		}
	}
	if items := n.At("items"); items != nil && items.Kind == value.Array {
		for i := range items.Items {
			v.flatten(path, fmt.Sprintf("%s[%d]", path, i), &items.Items[i])
		}
	} else if items != nil {
		v.flatten(path, path+"[*]", items)
	}
	if ap := n.At("additionalProperties"); ap != nil {
		v.flatten(path, join(path, "*"), ap)
	}
	// oneOf is compared as a whole, where it is (see oneOfChanges).
	for _, k := range []string{"allOf", "anyOf"} {
		if list := n.At(k); list != nil && list.Kind == value.Array {
			for i := range list.Items {
				v.flatten(path, fmt.Sprintf("%s(%s[%d])", path, k, i), &list.Items[i])
			}
		}
	}
	if not := n.At("not"); not != nil {
		v.flatten(path, path+"(not)", not)
	}
	for _, k := range []string{"patternProperties", "definitions", "dependencies"} {
		if m := n.At(k); m != nil && m.Kind == value.Object {
			for i := range m.Fields {
				v.flatten(path, fmt.Sprintf("%s(%s[%q])", path, k, m.Fields[i].Key), &m.Fields[i].Value)
			}
		}
	}
	if ai := n.At("additionalItems"); ai != nil {
		v.flatten(path, path+"(additionalItems)", ai)
	}
}

// comparedKeywords are the members of a schema node compareNodes reads.
var comparedKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range append([]string{"type", "enum", "required", "maximum", "maxItems", "maxLength", "maxProperties",
		"minimum", "minItems", "minLength", "minProperties", "format", "oneOf", "default"}, unhandledKeywords...) {
		m[k] = true
	}
	return m
}()

// signature writes a node's compared keywords and their values.
func signature(n *value.Value) string {
	var b []byte
	for i := range n.Fields {
		f := &n.Fields[i]
		if comparedKeywords[f.Key] {
			b = append(b, f.Key...)
			b = append(b, 0)
			b = value.AppendCompact(b, &f.Value)
			b = append(b, 0)
		}
	}
	return string(b)
}

// signature is the signature of the version's node at path.
func (v *crdVersion) signature(path string) string { return v.sigs[path] }

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// version returns the CRD's version of that name, nil if it has none.
func (c *crd) version(name string) *crdVersion {
	for _, v := range c.versions {
		if v.name == name {
			return v
		}
	}
	return nil
}
