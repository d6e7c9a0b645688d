package crdcompat

import (
	"fmt"
	"slices"

	"github.com/fbcat/opm/encoding/value"
)

// CRD is a CustomResourceDefinition read for comparison:
// apiextensions.k8s.io/v1, or v1beta1 with its one schema for every
// version.
type CRD struct {
	root     *value.Value
	scope    string
	versions []*version
	// stored are the versions objects may be stored in: the storage
	// version and those of status.storedVersions.
	stored []string
	// served are the versions the API server serves; webhook is set when
	// a conversion webhook converts between them.
	served  []string
	webhook bool
}

// version is one version of a CRD and its schema, flattened: every node
// by path ("" for the root, "spec.replicas", "spec.ports[*].name",
// "spec.labels.*" for additionalProperties).
type version struct {
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

// Read reads the tree of a CRD manifest. The CRD keeps the tree alive.
func Read(root *value.Value) *CRD {
	c := &CRD{root: root, scope: root.StringAt("spec", "scope")}
	if c.scope == "" {
		c.scope = "Namespaced" // v1beta1's default
	}
	common := root.At("spec", "validation", "openAPIV3Schema")
	if vs := root.At("spec", "versions"); vs != nil && vs.Kind == value.Array {
		for i := range vs.Items {
			v := &vs.Items[i]
			schema := v.At("schema", "openAPIV3Schema")
			if schema == nil {
				schema = common
			}
			cv := newVersion(v.StringAt("name"), v, schema)
			c.versions = append(c.versions, cv)
			if s := v.At("storage"); s != nil && s.Kind == value.Bool && s.Bool {
				c.stored = append(c.stored, cv.name)
			}
			if s := v.At("served"); s != nil && s.Kind == value.Bool && s.Bool {
				c.served = append(c.served, cv.name)
			}
		}
	} else if name := root.StringAt("spec", "version"); name != "" {
		c.versions = append(c.versions, newVersion(name, root.At("spec"), common))
		c.stored = append(c.stored, name)
	}
	c.webhook = root.StringAt("spec", "conversion", "strategy") == "Webhook"
	if sv := root.At("status", "storedVersions"); sv != nil && sv.Kind == value.Array {
		for i := range sv.Items {
			if s := sv.Items[i]; s.Kind == value.String && !slices.Contains(c.stored, s.Str) {
				c.stored = append(c.stored, s.Str)
			}
		}
	}
	return c
}

func newVersion(name string, node, schema *value.Value) *version {
	v := &version{name: name, node: node, nodes: map[string]*value.Value{}, parent: map[string]string{}, sigs: map[string]string{}}
	if schema != nil {
		v.flatten("", "", schema)
	}
	return v
}

// flatten records a schema node and its children.
func (v *version) flatten(parent, path string, n *value.Value) {
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

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// version returns the CRD's version of that name, nil if it has none.
func (c *CRD) version(name string) *version {
	for _, v := range c.versions {
		if v.name == name {
			return v
		}
	}
	return nil
}
