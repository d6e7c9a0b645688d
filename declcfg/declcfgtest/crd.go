package declcfgtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// kind is a custom resource an operator owns.
type kind struct {
	group, kind, version, plural string
	// schema is the openAPIV3Schema of the kind's CRD; it grows as the
	// operator's versions add fields.
	schema map[string]any
}

// newKind makes a kind whose CRD holds about size bytes of JSON schema.
func newKind(r *rand.Rand, group string, k int, size int) *kind {
	name := title(word(r)) + title(word(r))
	if k > 0 {
		name += fmt.Sprint(k)
	}
	budget := size
	spec := schemaObject(r, &budget, 1)
	return &kind{
		group: group, kind: name, version: "v1", plural: strings.ToLower(name) + "s",
		schema: map[string]any{
			"description": name + " is the Schema for the " + strings.ToLower(name) + "s API. " + sentence(r, 12),
			"type":        "object",
			"properties": map[string]any{
				"apiVersion": map[string]any{"description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources", "type": "string"},
				"kind":       map[string]any{"description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds", "type": "string"},
				"metadata":   map[string]any{"type": "object"},
				"spec":       spec,
				"status":     statusSchema(r),
			},
		},
	}
}

// logUniform draws an integer between lo and hi, small ones as often as
// large ones on a log scale, as CRD sizes are spread.
func logUniform(r *rand.Rand, lo, hi int) int {
	return int(float64(lo) * math.Exp(r.Float64()*math.Log(float64(hi)/float64(lo))))
}

// schemaObject is an object schema with nested properties, spending about
// budget bytes.
func schemaObject(r *rand.Rand, budget *int, depth int) map[string]any {
	props := map[string]any{}
	var required []string
	n := 2 + r.IntN(8)
	for i := 0; i < n && *budget > 0; i++ {
		name := camel(r)
		props[name] = schemaField(r, budget, depth)
		if r.IntN(4) == 0 {
			required = append(required, name)
		}
	}
	s := map[string]any{"description": sentence(r, 6+r.IntN(20)), "type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	*budget -= 80
	return s
}

func schemaField(r *rand.Rand, budget *int, depth int) map[string]any {
	desc := sentence(r, 5+r.IntN(30))
	*budget -= len(desc) + 60
	switch x := r.IntN(10); {
	case x < 3 && depth < 7 && *budget > 0:
		return schemaObject(r, budget, depth+1)
	case x < 4 && depth < 7 && *budget > 0:
		return map[string]any{"description": desc, "type": "array", "items": schemaObject(r, budget, depth+1)}
	case x < 6:
		f := map[string]any{"description": desc, "type": "string"}
		switch r.IntN(4) {
		case 0:
			f["enum"] = []string{word(r), word(r), word(r)}
		case 1:
			f["pattern"] = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
		}
		return f
	case x < 8:
		f := map[string]any{"description": desc, "type": "integer", "format": "int32"}
		if r.IntN(2) == 0 {
			f["minimum"] = 0
			f["default"] = r.IntN(100)
		}
		return f
	case x < 9:
		return map[string]any{"description": desc, "type": "boolean"}
	}
	return map[string]any{"description": desc, "anyOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}, "x-kubernetes-int-or-string": true}
}

func statusSchema(r *rand.Rand) map[string]any {
	return map[string]any{
		"description": sentence(r, 10),
		"type":        "object",
		"properties": map[string]any{
			"conditions": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type":     "object",
					"required": []string{"lastTransitionTime", "message", "reason", "status", "type"},
					"properties": map[string]any{
						"lastTransitionTime": map[string]any{"description": "lastTransitionTime is the last time the condition transitioned from one status to another.", "format": "date-time", "type": "string"},
						"message":            map[string]any{"description": "message is a human readable message indicating details about the transition.", "maxLength": 32768, "type": "string"},
						"observedGeneration": map[string]any{"format": "int64", "minimum": 0, "type": "integer"},
						"reason":             map[string]any{"maxLength": 1024, "minLength": 1, "type": "string"},
						"status":             map[string]any{"enum": []string{"True", "False", "Unknown"}, "type": "string"},
						"type":               map[string]any{"maxLength": 316, "type": "string"},
					},
				},
			},
			"observedGeneration": map[string]any{"format": "int64", "type": "integer"},
		},
	}
}

// evolve adds a field to the kind's spec, as a new operator version does.
func (k *kind) evolve(r *rand.Rand) {
	spec := k.schema["properties"].(map[string]any)["spec"].(map[string]any)
	budget := 400
	spec["properties"].(map[string]any)[camel(r)] = schemaField(r, &budget, 6)
}

// crd is the CustomResourceDefinition of the kind.
func (k *kind) crd() map[string]any {
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata": map[string]any{
			"annotations":       map[string]any{"controller-gen.kubebuilder.io/version": "v0.14.0"},
			"creationTimestamp": nil,
			"name":              k.plural + "." + k.group,
		},
		"spec": map[string]any{
			"group": k.group,
			"names": map[string]any{"kind": k.kind, "listKind": k.kind + "List", "plural": k.plural, "singular": strings.ToLower(k.kind)},
			"scope": "Namespaced",
			"versions": []any{map[string]any{
				"name":         k.version,
				"schema":       map[string]any{"openAPIV3Schema": k.schema},
				"served":       true,
				"storage":      true,
				"subresources": map[string]any{"status": map[string]any{}},
			}},
		},
		"status": map[string]any{"acceptedNames": map[string]any{"kind": "", "plural": ""}, "conditions": nil, "storedVersions": nil},
	}
}
