package crdcompat

import (
	"fmt"
	"strings"
	"testing"
)

// The verdicts of crdify (sigs.k8s.io/crdify at the commit
// operator-controller pins, bb9957dbf465: main and its oneOf validation)
// where this package's disagreed with it before; each case says which
// rule of crdify decides it. Every case was also checked against crdify
// itself, run as operator-controller configures it (conversion Ignore,
// unhandled Error, description None, enum additionPolicy Allow) with the
// old CRD as the cluster stores it.

// versionJSON is one version of a CRD: its name, whether it is served,
// and its openAPIV3Schema's status properties (JSON members).
type versionJSON struct {
	name   string
	served bool
	status string
}

// statusCRD is a CRD with those versions, the first one stored, whose
// schemas have a spec of one string field and the status properties
// given; with a conversion webhook when webhook is set.
func statusCRD(webhook bool, versions ...versionJSON) string {
	var vs []string
	for i, v := range versions {
		vs = append(vs, fmt.Sprintf(`{"name": %q, "served": %t, "storage": %t, "schema": {"openAPIV3Schema": {"type": "object", "properties": {
"spec": {"type": "object", "properties": {"size": {"type": "integer"}}},
"status": {"type": "object", "properties": {%s}}}}}}`, v.name, v.served, i == 0, v.status))
	}
	conversion := ""
	if webhook {
		conversion = `"conversion": {"strategy": "Webhook"},`
	}
	return `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "foos.example.com"},
"spec": {"scope": "Namespaced", ` + conversion + ` "versions": [` + strings.Join(vs, ",\n") + `]}}`
}

// one is a CRD of one served version, v1, with those status properties.
func one(status string) string { return statusCRD(false, versionJSON{"v1", true, status}) }

// served is a CRD serving v1 and v2 without a conversion webhook.
func served(v1, v2 string) string {
	return statusCRD(false, versionJSON{"v1", true, v1}, versionJSON{"v2", true, v2})
}

func TestCompareAsCrdify(t *testing.T) {
	conditions := `"conditions": {"type": "object", "additionalProperties": {"type": "string", "description": "a condition"}}`
	counts := `"counts": {"type": "object", "additionalProperties": {"type": "object", "properties": {"ready": {"type": "integer"}}}}`
	oneOf := `"tls": {"type": "object", "oneOf": [{"required": ["mode"]}, {"required": ["secret"]}], "properties": {"mode": {"type": "string"}, "secret": {"type": "string"}}}`
	phase := `"phase": {"type": "string", "enum": ["Ready", "Failed", "Pending"]}`
	tests := []struct {
		name     string
		old, new string
		want     []string // "kind field: message", in order
	}{
		// A node is compared with all its members but properties and
		// items (DropChildrenPropertiesFromJSONSchema in
		// pkg/validations/util.go), and what no rule clears is compared
		// by the unhandled check (checkUnhandled in
		// pkg/validations/compare.go): a map's value schema is compared
		// whole with the map, descriptions included.
		{name: "status map: description of its values", old: one(conditions), new: one(strings.Replace(conditions, "a condition", "one condition", 1)),
			want: []string{"unhandled-change status.conditions: additionalProperties changed: the preflight compares it with this field as a whole (descriptions included) and refuses any change to it"}},
		{name: "status map: a new property of its values", old: one(counts), new: one(strings.Replace(counts, `"ready": {"type": "integer"}`, `"ready": {"type": "integer"}, "failed": {"type": "integer"}`, 1)),
			want: []string{"unhandled-change status.counts: additionalProperties changed"}},
		{name: "status map: any value allowed, then a schema", old: one(`"m": {"type": "object", "additionalProperties": true}`), new: one(`"m": {"type": "object", "additionalProperties": {"type": "string"}}`),
			want: []string{"unhandled-change status.m: additionalProperties changed"}},
		{name: "status map: a schema for values where there was none", old: one(`"m": {"type": "object"}`), new: one(`"m": {"type": "object", "additionalProperties": {"type": "string"}}`),
			want: []string{"unhandled-change status.m: additionalProperties added"}},
		{name: "status map: its values' type, said where it changed", old: one(conditions), new: one(strings.Replace(conditions, `"type": "string"`, `"type": "integer"`, 1)),
			want: []string{`type-changed status.conditions.*: type changed from "string" to "integer"`}},
		{name: "anyOf: a schema's description", old: one(`"n": {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true}`),
			new:  one(`"n": {"anyOf": [{"type": "integer", "description": "a count"}, {"type": "string"}], "x-kubernetes-int-or-string": true}`),
			want: []string{"unhandled-change status.n: anyOf changed"}},
		// Enum (pkg/validations/property/enum.go): values of the old enum
		// the new one lacks are removed values, when there is no new enum
		// too.
		{name: "enum removed", old: one(phase), new: one(`"phase": {"type": "string"}`),
			want: []string{`enum-removed status.phase: enum "Ready", "Failed", "Pending" removed: every value is allowed now, but the preflight counts its values as removed and refuses it`}},
		// Schemas are compared as Kubernetes decodes them
		// (JSONSchemaProps): a null default is none, an empty example or
		// externalDocs and a "" $ref are values (pointers), members
		// Kubernetes does not know are dropped.
		{name: "a null default is none", old: one(phase), new: one(strings.Replace(phase, `"enum"`, `"default": null, "enum"`, 1))},
		{name: "an empty example is one", old: one(phase), new: one(strings.Replace(phase, `"enum"`, `"example": {}, "enum"`, 1)),
			want: []string{"unhandled-change status.phase: example changed from none to {}"}},
		{name: "empty externalDocs are some", old: one(phase), new: one(strings.Replace(phase, `"enum"`, `"externalDocs": {}, "enum"`, 1)),
			want: []string{"unhandled-change status.phase: externalDocs changed from none to {}"}},
		{name: `a "" $ref is one`, old: one(phase), new: one(strings.Replace(phase, `"enum"`, `"$ref": "", "enum"`, 1)),
			want: []string{`unhandled-change status.phase: $ref changed from none to ""`}},
		{name: "unknown members of a CEL rule", old: one(`"r": {"type": "string", "x-kubernetes-validations": [{"rule": "self != ''"}]}`),
			new: one(`"r": {"type": "string", "x-kubernetes-validations": [{"rule": "self != ''", "x-note": "kept"}]}`)},
		// oneOf (pkg/validations/property/oneof.go) compares the schemas as
		// a set, and FlattenCRDVersion walks each one as a field of its own,
		// compared with the one at its index.
		{name: "oneOf schemas reordered", old: one(oneOf), new: one(strings.Replace(oneOf, `[{"required": ["mode"]}, {"required": ["secret"]}]`, `[{"required": ["secret"]}, {"required": ["mode"]}]`, 1)),
			want: []string{"required-added status.tls(oneOf[0]): new required fields secret", "required-added status.tls(oneOf[1]): new required fields mode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkChanges(t, Compare(readCRD(t, tt.old), readCRD(t, tt.new)), tt.want)
		})
	}
}

// checkChanges checks changes against want: "kind field: message" each,
// the message a prefix of the change's.
func checkChanges(t *testing.T, got []Change, want []string) {
	t.Helper()
	var gotText []string
	for _, c := range got {
		gotText = append(gotText, c.Kind+" "+c.Field+": "+c.Message)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes, want %d:\n%s", len(got), len(want), strings.Join(gotText, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(gotText[i], want[i]) {
			t.Errorf("change %d: %s\nwant %s", i, gotText[i], want[i])
		}
	}
}

// Served versions (pkg/validators/version/served/served.go): each served
// version of the new CRD is compared with each later one, and a problem
// the old CRD's same pair of versions had (same field, rule and message)
// is dropped.
func TestServedAsCrdify(t *testing.T) {
	obj := `"obj": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "object", "properties": {"c": {"type": "string"}}}}}`
	phase := `"phase": {"type": "string", "enum": ["Ready", "Failed", "Pending"]}`
	titled := `"phase": {"type": "string", "title": "phase"}`
	conditions := func(required string) string {
		return `"conditions": {"type": "array", "items": {"type": "object", "required": [` + required + `],
"properties": {"type": {"type": "string"}, "status": {"type": "string"}, "reason": {"type": "string"}}}}`
	}
	v1, v2 := conditions(`"type"`), conditions(`"type", "status", "reason"`)
	webhook := statusCRD(true, versionJSON{"v1", true, v1}, versionJSON{"v2", true, v2})
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		// crdify lists every node a later version lacks, one by one; one
		// the old CRD's pair lacked too is no new problem, even when the
		// old CRD lacked more around it.
		{name: "a field dropped in v2 comes back in part", old: served(obj, ``),
			new: served(obj, strings.Replace(obj, `, "b": {"type": "object", "properties": {"c": {"type": "string"}}}`, `, "b": {"type": "object"}`, 1))},
		{name: "a newly served v2 lacks a field", old: one(obj), new: served(obj, strings.Replace(obj, `"a": {"type": "string"}, `, ``, 1)),
			want: []string{"field-removed status.obj.a: field removed"}},
		// enum's message lists the removed values sorted.
		{name: "enum values removed, the enum reordered", old: served(phase, `"phase": {"type": "string"}`),
			new: served(`"phase": {"type": "string", "enum": ["Pending", "Failed", "Ready"]}`, `"phase": {"type": "string"}`)},
		// A node a later version lacks is compared with none by the rules:
		// one with nothing they refuse to lose (a description, children,
		// bounds) is no problem.
		{name: "a newly served v2 lacks a field with only a description", old: one(`"d": {"description": "free"}`), new: served(`"d": {"description": "free"}`, ``)},
		// The unhandled message is a diff of the two nodes, which shows
		// an empty list (from the bundle) apart from none (the cluster
		// writes the old CRD without empty lists).
		{name: "a node's unhandled change, and an empty list", old: served(`"phase": {"type": "string"}`, titled),
			new:  served(`"phase": {"type": "string"}`, strings.Replace(titled, `"title"`, `"x-kubernetes-list-map-keys": [], "title"`, 1)),
			want: []string{"unhandled-change status.phase: title changed from none to \"phase\""}},
		{name: "the same unhandled change", old: served(`"phase": {"type": "string"}`, titled), new: served(`"phase": {"type": "string"}`, titled)},
		// required's message lists the new required fields as a set's
		// unsorted list, in random order: the old CRD's problem is dropped
		// only when its list happens to be in the same order (crdify
		// refused these in 146 and 237 of 400 runs with two and three
		// fields; the datadog-operator 1.6.0 -> 1.7.0 shape: the old CRD
		// converted by a webhook, the new one not), and always with one.
		{name: "two new required fields, the old CRD's too", old: webhook, new: served(v1, v2),
			want: []string{"required-added status.conditions[*]: new required fields status, reason: existing objects without them no longer validate; make them optional (with a default set by the operator) (the old CRD's served versions differ the same way"}},
		{name: "the same CRD, two new required fields", old: served(v1, v2), new: served(v1, v2),
			want: []string{"required-added status.conditions[*]: new required fields status, reason: existing objects without them no longer validate; make them optional (with a default set by the operator) (the old CRD's served versions differ the same way"}},
		{name: "one new required field, the old CRD's too", old: statusCRD(true, versionJSON{"v1", true, v1}, versionJSON{"v2", true, conditions(`"type", "type", "status"`)}),
			new: served(v1, conditions(`"status", "type", "status"`))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(readCRD(t, tt.old), readCRD(t, tt.new))
			for i := range got {
				if got[i].Version != "served versions v1 and v2 (no conversion webhook)" {
					t.Errorf("change %+v: want one of the served versions", got[i])
				}
			}
			checkChanges(t, got, tt.want)
		})
	}
}
