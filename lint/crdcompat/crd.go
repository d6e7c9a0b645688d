package crdcompat

import (
	"fmt"
	"math"
	"math/bits"
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
// "spec.labels.*" for additionalProperties, "spec.tls(oneOf[0])" for the
// schemas of allOf, anyOf, oneOf and the other keywords with schemas).
type version struct {
	name  string
	node  *value.Value // the version's entry, for positions
	nodes []schemaNode // in walk order, parents first
	index map[string]int32
}

// schemaNode is one node of a version's schema.
type schemaNode struct {
	path string
	n    *value.Value
	// parent is the index of the parent node, -1 for the root.
	parent int32
	// sig is a hash of the keywords compareNodes reads (see
	// comparedKeywords): nodes with the same signature have no change
	// compareNodes reports.
	sig uint64
}

// lookup returns the node of that path, nil if the version has none.
func (v *version) lookup(path string) *schemaNode {
	if i, ok := v.index[path]; ok {
		return &v.nodes[i]
	}
	return nil
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
	v := &version{name: name, node: node, index: map[string]int32{}}
	if schema != nil {
		v.flatten(-1, "", schema)
	}
	return v
}

// flatten records a schema node and its children: those of properties,
// items, additionalProperties, allOf, anyOf, oneOf, not,
// patternProperties, definitions, dependencies and additionalItems, in
// that order.
func (v *version) flatten(parent int32, path string, n *value.Value) {
	if n.Kind != value.Object {
		return
	}
	if _, seen := v.index[path]; seen {
		return
	}
	at := int32(len(v.nodes))
	v.index[path] = at
	v.nodes = append(v.nodes, schemaNode{path: path, n: n, parent: parent, sig: signature(n)})
	var kids [11]*value.Value
	for i := range n.Fields {
		if k := childOrder[n.Fields[i].Key]; k > 0 {
			kids[k-1] = &n.Fields[i].Value
		}
	}
	if props := kids[0]; props != nil && props.Kind == value.Object {
		for i := range props.Fields {
			v.flatten(at, join(path, props.Fields[i].Key), &props.Fields[i].Value)
		}
	}
	if items := kids[1]; items != nil && items.Kind == value.Array {
		for i := range items.Items {
			v.flatten(at, fmt.Sprintf("%s[%d]", path, i), &items.Items[i])
		}
	} else if items != nil {
		v.flatten(at, path+"[*]", items)
	}
	if ap := kids[2]; ap != nil {
		v.flatten(at, join(path, "*"), ap)
	}
	// oneOf is compared as a set where it is (see oneOfChanges), and each
	// schema with the one at its index (see underChangedOneOf).
	for k, key := range []string{"allOf", "anyOf", "oneOf"} {
		if list := kids[3+k]; list != nil && list.Kind == value.Array {
			for i := range list.Items {
				v.flatten(at, fmt.Sprintf("%s(%s[%d])", path, key, i), &list.Items[i])
			}
		}
	}
	if not := kids[6]; not != nil {
		v.flatten(at, path+"(not)", not)
	}
	for k, key := range []string{"patternProperties", "definitions", "dependencies"} {
		if m := kids[7+k]; m != nil && m.Kind == value.Object {
			for i := range m.Fields {
				v.flatten(at, fmt.Sprintf("%s(%s[%q])", path, key, m.Fields[i].Key), &m.Fields[i].Value)
			}
		}
	}
	if ai := kids[10]; ai != nil {
		v.flatten(at, path+"(additionalItems)", ai)
	}
}

// childOrder numbers the members with child schemas, from 1, in the
// order flatten walks them.
var childOrder = map[string]int{
	"properties": 1, "items": 2, "additionalProperties": 3, "allOf": 4, "anyOf": 5, "oneOf": 6,
	"not": 7, "patternProperties": 8, "definitions": 9, "dependencies": 10, "additionalItems": 11,
}

// comparedKeywords are the members of a schema node compareNodes reads.
var comparedKeywords = func() map[string]bool {
	m := map[string]bool{}
	keys := []string{"type", "enum", "required", "maximum", "maxItems", "maxLength", "maxProperties",
		"minimum", "minItems", "minLength", "minProperties", "format", "oneOf", "default"}
	for _, k := range slices.Concat(keys, unhandledKeywords, wholeKeywords) {
		m[k] = true
	}
	return m
}()

// signature hashes a node's compared keywords and their values.
func signature(n *value.Value) uint64 {
	h := uint64(fnvOffset)
	for i := range n.Fields {
		f := &n.Fields[i]
		if _, compared := comparedKeywords[f.Key]; compared {
			h = hashString(h, f.Key)
			h = hashValue(h, &f.Value)
		}
	}
	return h
}

// FNV-1a, 64 bits, over bytes or 8-byte words.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashValue adds a value's content to the hash h: its kind and scalars,
// its members' keys and values in order.
func hashValue(h uint64, v *value.Value) uint64 {
	h = mix(h, uint64(v.Kind))
	switch v.Kind {
	case value.Bool:
		if v.Bool {
			h = mix(h, 1)
		}
	case value.Number:
		h = mix(h, math.Float64bits(v.Num))
	case value.String:
		h = hashString(h, v.Str)
	case value.Array:
		for i := range v.Items {
			h = hashValue(h, &v.Items[i])
		}
		h = mix(h, 0xff)
	case value.Object:
		for i := range v.Fields {
			h = hashString(h, v.Fields[i].Key)
			h = hashValue(h, &v.Fields[i].Value)
		}
		h = mix(h, 0xfe)
	}
	return h
}

// hashString adds a string and its length to the hash h, 8 bytes at a
// time.
func hashString(h uint64, s string) uint64 {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		h = mix(h, uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56)
	}
	for ; i < len(s); i++ {
		h = mix(h, uint64(s[i]))
	}
	return mix(h, uint64(len(s)))
}

// mix adds a word to the hash h.
func mix(h, w uint64) uint64 { return bits.RotateLeft64((h^w)*fnvPrime, 29) }

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
