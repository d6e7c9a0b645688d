package crdcompat

import (
	"strings"
	"testing"
)

// schemaCRD is a CRD whose versions (name: spec properties as JSON
// members) are all served, the first stored; webhook says whether a
// conversion webhook converts between them.
func schemaCRD(webhook bool, versions ...[2]string) string {
	var vs []string
	for i, v := range versions {
		vs = append(vs, `{"name": "`+v[0]+`", "served": true, "storage": `+map[bool]string{true: "true", false: "false"}[i == 0]+`,
"schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {`+v[1]+`}}}}}}`)
	}
	conv := ""
	if webhook {
		conv = `"conversion": {"strategy": "Webhook"},`
	}
	return `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "foos.example.com"},
"spec": {"scope": "Namespaced", ` + conv + ` "versions": [` + strings.Join(vs, ",\n") + `]}}`
}

// messages are the changes' texts.
func messages(cs []Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// Each keyword the preflight compares, from an old spec.size to a new
// one: what it refuses and what it lets through.
func TestCompareKeywords(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           []string
	}{
		{"type changed", `{"type": "integer"}`, `{"type": "string"}`, []string{`type changed from "integer" to "string"`}},
		{"maximum lowered", `{"type": "integer", "maximum": 9}`, `{"type": "integer", "maximum": 7}`, []string{"maximum lowered from 9 to 7"}},
		{"maximum raised", `{"type": "integer", "maximum": 7}`, `{"type": "integer", "maximum": 9}`, nil},
		{"maxLength added", `{"type": "string"}`, `{"type": "string", "maxLength": 3}`, []string{"maxLength 3 added where there was none"}},
		{"minItems raised", `{"type": "array", "minItems": 1}`, `{"type": "array", "minItems": 2}`, []string{"minItems raised from 1 to 2"}},
		{"minimum lowered", `{"type": "integer", "minimum": 2}`, `{"type": "integer", "minimum": 1}`, nil},
		{"format changed", `{"type": "string"}`, `{"type": "string", "format": "date"}`, []string{`format changed from "" to "date"`}},
		{"enum added", `{"type": "string"}`, `{"type": "string", "enum": ["a"]}`, []string{`enum "a" added where any value was allowed`}},
		{"enum value added", `{"type": "string", "enum": ["a"]}`, `{"type": "string", "enum": ["a", "b"]}`, nil},
		// crdify counts an enum dropped as its values removed
		{"enum dropped", `{"type": "string", "enum": ["a"]}`, `{"type": "string"}`, []string{`enum "a" removed`}},
		{"default added", `{"type": "integer"}`, `{"type": "integer", "default": 3}`, []string{"default 3 added where there was none"}},
		{"default changed", `{"type": "integer", "default": 3}`, `{"type": "integer", "default": 4}`, []string{"default changed from 3 to 4"}},
		{"default removed", `{"type": "integer", "default": 3}`, `{"type": "integer"}`, []string{"default 3 removed"}},
		{"required added", `{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}`,
			[]string{"new required fields a"}},
		{"pattern added", `{"type": "string"}`, `{"type": "string", "pattern": "^a"}`, []string{`pattern changed from none to "^a"`}},
		{"nullable false is no value", `{"type": "string"}`, `{"type": "string", "nullable": false}`, nil},
		{"list-type false is a value", `{"type": "array"}`, `{"type": "array", "x-kubernetes-list-type": ""}`, []string{`x-kubernetes-list-type changed from none to ""`}},
		{"null is no value", `{"type": "string"}`, `{"type": "string", "title": null}`, nil},
		{"items field removed", `{"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}`, `{"type": "array", "items": {"type": "object"}}`,
			[]string{"field spec.size[*].a: field removed"}},
		{"map value type changed", `{"type": "object", "additionalProperties": {"type": "string"}}`, `{"type": "object", "additionalProperties": {"type": "integer"}}`,
			[]string{`field spec.size.*: type changed from "string" to "integer"`}},
		{"allOf member tightened", `{"allOf": [{"maximum": 9}]}`, `{"allOf": [{"maximum": 8}]}`, []string{"maximum lowered from 9 to 8"}},
		{"oneOf added", `{"type": "object"}`, `{"type": "object", "oneOf": [{"required": ["a"]}]}`, []string{"oneOf added where there was none"}},
		{"oneOf schema removed", `{"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}`, `{"oneOf": [{"required": ["b"]}]}`, []string{"allowed oneOf schemas removed (old oneOf[0])"}},
		// crdify compares oneOf schemas by index too: a reorder is refused
		{"oneOf described", `{"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}`, `{"oneOf": [{"required": ["a"], "description": "a"}, {"required": ["b"]}]}`, nil},
		{"oneOf reordered", `{"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}`, `{"oneOf": [{"required": ["b"]}, {"required": ["a"]}]}`,
			[]string{"new required fields b", "new required fields a"}},
		{"description changed", `{"type": "string", "description": "a"}`, `{"type": "string", "description": "b"}`, nil},
	}
	for _, tt := range tests {
		old := readCRD(t, schemaCRD(false, [2]string{"v1", `"size": ` + tt.old}))
		got := messages(Compare(old, readCRD(t, schemaCRD(false, [2]string{"v1", `"size": ` + tt.new}))))
		if len(got) != len(tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tt.want[i]) {
				t.Errorf("%s: got %q, want %q", tt.name, got[i], tt.want[i])
			}
		}
	}
}

// Without a conversion webhook, a later served version may not drop what
// an earlier one allows, unless the old CRD's versions differed so too.
func TestCompareServedVersions(t *testing.T) {
	same := [][2]string{{"v1beta1", `"a": {"type": "string"}`}, {"v1", `"a": {"type": "string"}`}}
	differ := [][2]string{{"v1beta1", `"a": {"type": "string"}, "b": {"type": "string"}`}, {"v1", `"a": {"type": "string"}`}}
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		{"alike", schemaCRD(false, same...), schemaCRD(false, same...), nil},
		{"a later version drops a field", schemaCRD(false, same...), schemaCRD(false, differ...),
			[]string{"served versions v1beta1 and v1 (no conversion webhook), field spec.b: field removed"}},
		{"the old CRD differed the same way", schemaCRD(false, differ...), schemaCRD(false, differ...), nil},
		{"a conversion webhook", schemaCRD(false, same...), schemaCRD(true, differ...), nil},
	}
	for _, tt := range tests {
		got := messages(Compare(readCRD(t, tt.old), readCRD(t, tt.new)))
		if len(got) != len(tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tt.want[i]) {
				t.Errorf("%s: got %q, want %q", tt.name, got[i], tt.want[i])
			}
		}
	}
}

// A v1beta1 CRD has one schema for every version (spec.validation) or a
// single spec.version; a stored version the new CRD drops is refused.
func TestCompareV1beta1(t *testing.T) {
	old := readCRD(t, `{"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition", "metadata": {"name": "foos.example.com"},
"spec": {"version": "v1alpha1", "validation": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string"}}}}}}},
"status": {"storedVersions": ["v1alpha1", "v0"]}}`)
	new := readCRD(t, schemaCRD(false, [2]string{"v1alpha1", `"a": {"type": "integer"}`}))
	got := strings.Join(messages(Compare(old, new)), "\n")
	for _, want := range []string{"version v0: stored version removed", `version v1alpha1, field spec.a: type changed from "string" to "integer"`} {
		if !strings.Contains(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
