package crdcompat

import (
	"github.com/fbcat/opm/encoding/value"
)

// Schemas as the preflight sees them: it decodes each CRD into
// Kubernetes' types (apiextensions.k8s.io/v1 JSONSchemaProps) and
// compares those, so two schema nodes are the same to it when they
// decode to the same value: members Kubernetes does not know are dropped,
// a string or boolean member that is "" or false is no member at all
// (but a pointer member is there whatever its value, unless null), an
// empty list or map is none, and JSON values (default, example, enum)
// are compared as Kubernetes writes them again. canonical writes a node
// that way, so that equal bytes mean equal to the preflight.
//
// The messages crdify compares served versions' problems by (see
// newServedChanges) show more: its message of a node's changes without a
// rule is a diff of the two nodes (go-cmp), which shows an empty list
// apart from none. The new CRD comes from the bundle as written; the old
// one from the cluster, which writes it without empty lists (omitempty).
// literal writes nodes that way: as canonical, but with empty lists and
// maps.

// memberKind is how a schema member decodes, for what reads as absent.
type memberKind uint8

const (
	scalar         memberKind = iota // a string or boolean: "" and false are absent
	pointer                          // a pointer (a number, *string, *bool): there unless null
	jsonValue                        // any JSON (default, example): there unless null
	list                             // a list of strings or JSON values: empty is absent
	schemaOne                        // one schema (not)
	schemaList                       // a list of schemas (allOf, anyOf, oneOf)
	schemaMap                        // schemas by name (properties, patternProperties, definitions)
	schemaOrBool                     // a schema or a boolean (additionalProperties, additionalItems)
	schemaOrList                     // a schema or a list of them (items)
	dependencyMap                    // schemas or lists of property names, by name
	externalDocs                     // {description, url}: there unless null
	validationList                   // x-kubernetes-validations
)

// schemaMembers are the members of a JSONSchemaProps and how each decodes.
var schemaMembers = map[string]memberKind{
	"id": scalar, "$schema": scalar, "$ref": pointer, "description": scalar, "type": scalar,
	"format": scalar, "title": scalar, "default": jsonValue, "maximum": pointer,
	"exclusiveMaximum": scalar, "minimum": pointer, "exclusiveMinimum": scalar,
	"maxLength": pointer, "minLength": pointer, "pattern": scalar, "maxItems": pointer,
	"minItems": pointer, "uniqueItems": scalar, "multipleOf": pointer, "enum": list,
	"maxProperties": pointer, "minProperties": pointer, "required": list, "items": schemaOrList,
	"allOf": schemaList, "oneOf": schemaList, "anyOf": schemaList, "not": schemaOne,
	"properties": schemaMap, "additionalProperties": schemaOrBool, "patternProperties": schemaMap,
	"dependencies": dependencyMap, "additionalItems": schemaOrBool, "definitions": schemaMap,
	"externalDocs": externalDocs, "example": jsonValue, "nullable": scalar,
	"x-kubernetes-preserve-unknown-fields": pointer, "x-kubernetes-embedded-resource": scalar,
	"x-kubernetes-int-or-string": scalar, "x-kubernetes-list-map-keys": list,
	"x-kubernetes-list-type": pointer, "x-kubernetes-map-type": pointer,
	"x-kubernetes-validations": validationList,
}

// validationMembers are the members of an x-kubernetes-validations rule,
// docsMembers those of externalDocs.
var (
	validationMembers = map[string]memberKind{
		"rule": scalar, "message": scalar, "messageExpression": scalar, "reason": pointer,
		"fieldPath": scalar, "optionalOldSelf": pointer,
	}
	docsMembers = map[string]memberKind{"description": scalar, "url": scalar}
)

// canonical appends a schema node as the preflight sees it, but for the
// members skip names (the node's own description, say, which it does not
// compare): "{}" for a node that has nothing else.
func canonical(dst []byte, n *value.Value, skip func(key string) bool) []byte {
	return form{}.node(dst, n, skip)
}

// form is how nodes are written: canonical, or literal (with empty lists
// and maps).
type form struct {
	literal bool
}

// node appends a schema node in the form, but for the members skip names.
func (fm form) node(dst []byte, n *value.Value, skip func(key string) bool) []byte {
	if n.Kind != value.Object {
		return value.AppendKubernetesJSON(dst, n)
	}
	dst = append(dst, '{')
	start := len(dst)
	for i := range n.Fields {
		f := &n.Fields[i]
		kind, known := schemaMembers[f.Key]
		if !known || (skip != nil && skip(f.Key)) || fm.absent(kind, &f.Value) {
			continue
		}
		if len(dst) > start {
			dst = append(dst, ',')
		}
		dst = value.AppendString(dst, f.Key)
		dst = append(dst, ':')
		dst = fm.member(dst, kind, &f.Value)
	}
	return append(dst, '}')
}

// absent reports whether a member of that kind reads as no member.
func (fm form) absent(kind memberKind, v *value.Value) bool {
	switch {
	case v.Kind == value.Null:
		return true
	case kind == scalar:
		return v.Kind == value.String && v.Str == "" || v.Kind == value.Bool && !v.Bool
	case fm.literal:
		return false
	case kind == list || kind == schemaList || kind == validationList:
		return v.Kind == value.Array && len(v.Items) == 0
	case kind == schemaMap || kind == dependencyMap:
		return v.Kind == value.Object && len(v.Fields) == 0
	}
	return false
}

// member appends one member's value in the form.
func (fm form) member(dst []byte, kind memberKind, v *value.Value) []byte {
	schema := func(dst []byte, item *value.Value) []byte { return fm.node(dst, item, nil) }
	switch kind {
	case schemaOne, schemaOrBool, schemaOrList:
		if v.Kind == value.Array {
			return each(dst, v, schema)
		}
		return schema(dst, v)
	case schemaList:
		return each(dst, v, schema)
	case schemaMap, dependencyMap:
		return byName(dst, v, schema)
	case externalDocs:
		return fm.appendStruct(dst, v, docsMembers)
	case validationList:
		return each(dst, v, func(dst []byte, rule *value.Value) []byte { return fm.appendStruct(dst, rule, validationMembers) })
	}
	return value.AppendKubernetesJSON(dst, v)
}

// appendStruct appends an object that decodes into a struct of those
// members (an x-kubernetes-validations rule, externalDocs).
func (fm form) appendStruct(dst []byte, r *value.Value, members map[string]memberKind) []byte {
	if r.Kind != value.Object {
		return value.AppendKubernetesJSON(dst, r)
	}
	dst = append(dst, '{')
	start := len(dst)
	for i := range r.Fields {
		f := &r.Fields[i]
		kind, known := members[f.Key]
		if !known || fm.absent(kind, &f.Value) {
			continue
		}
		if len(dst) > start {
			dst = append(dst, ',')
		}
		dst = value.AppendString(dst, f.Key)
		dst = append(dst, ':')
		dst = value.AppendKubernetesJSON(dst, &f.Value)
	}
	return append(dst, '}')
}

// each appends a list, each item as write appends it.
func each(dst []byte, v *value.Value, write func([]byte, *value.Value) []byte) []byte {
	if v.Kind != value.Array {
		return value.AppendKubernetesJSON(dst, v)
	}
	dst = append(dst, '[')
	for i := range v.Items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = write(dst, &v.Items[i])
	}
	return append(dst, ']')
}

// byName appends an object's members, each value as write appends it.
func byName(dst []byte, v *value.Value, write func([]byte, *value.Value) []byte) []byte {
	if v.Kind != value.Object {
		return value.AppendKubernetesJSON(dst, v)
	}
	dst = append(dst, '{')
	for i := range v.Fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = value.AppendString(dst, v.Fields[i].Key)
		dst = append(dst, ':')
		dst = write(dst, &v.Fields[i].Value)
	}
	return append(dst, '}')
}

// memberText is one member of a node as the preflight sees it, "" when
// the node has none.
func memberText(n *value.Value, key string) string {
	v := n.At(key)
	kind, known := schemaMembers[key]
	if v == nil || !known || (form{}).absent(kind, v) {
		return ""
	}
	return string(form{}.member(nil, kind, v))
}
