package pipeline

import (
	"slices"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
)

// ci.yaml: the pipeline's schema (check_schema_operator_ci_config), one
// template per catalog (check_catalog_usage_ci_config) and the update
// graph mode of operators not using FBC (check_ci_upgrade_graph).

// The rules of ci.yaml.
const (
	RuleCISchema       = "ci-schema"
	RuleCatalogMapping = "catalog-mapping"
	RuleUpdateGraph    = "update-graph-mode"
)

// ciSchema is check_schema_operator_ci_config: one error per schema
// error, at the node it is about.
func ciSchema(o *Operator) []finding.Finding {
	if o.CI.Err != nil {
		return []finding.Finding{o.atConfig(RuleCISchema, finding.Error, o.CI, nil, "Operator's 'ci.yaml' cannot be read: %v", o.CI.Err)}
	}
	var out []finding.Finding
	for _, e := range ciConfigSchema.validate(o.CI.V) {
		out = append(out, o.atConfig(RuleCISchema, finding.Error, o.CI, e.at,
			"Operator's 'ci.yaml' contains invalid data which does not comply with the schema: %s", e.msg))
	}
	return out
}

// catalogMapping is check_catalog_usage_ci_config: a catalog that
// fbc.catalog_mapping maps from more than one template, at the second
// mapping of it.
func catalogMapping(o *Operator) []finding.Finding {
	mapping := o.CI.get("fbc", "catalog_mapping")
	if mapping == nil || mapping.Kind != value.Array {
		return nil
	}
	type use struct {
		templates []string
		at        *value.Value
	}
	uses := map[string]*use{}
	var order []string
	for i := range mapping.Items {
		m := &mapping.Items[i]
		names := m.At("catalog_names")
		if names == nil || names.Kind != value.Array {
			continue
		}
		for j := range names.Items {
			c := pyStr(&names.Items[j])
			u := uses[c]
			if u == nil {
				u = &use{}
				uses[c] = u
				order = append(order, c)
			}
			u.templates = append(u.templates, pyStr(m.At("template_name")))
			if len(u.templates) == 2 {
				u.at = &names.Items[j]
			}
		}
	}
	var out []finding.Finding
	for _, c := range order {
		if u := uses[c]; len(u.templates) > 1 {
			out = append(out, o.atConfig(RuleCatalogMapping, finding.Error, o.CI, u.at,
				"Operator's 'ci.yaml' contains multiple templates '%s' for the same catalog '%s'.", pyList(u.templates), c))
		}
	}
	return out
}

// updateGraphModes are the update graph modes an operator not using FBC
// may ask for.
var updateGraphModes = []string{"replaces-mode", "semver-mode"}

// updateGraph is check_ci_upgrade_graph (skipped for FBC operators): no
// updateGraph is a warning (replaces-mode applies), another mode an
// error.
func updateGraph(o *Operator) []finding.Finding {
	if o.fbc() {
		return nil
	}
	g := o.CI.get("updateGraph")
	if !truthy(g) {
		return []finding.Finding{o.atConfig(RuleUpdateGraph, finding.Warning, o.CI, nil,
			"The 'updateGraph' option is missing in ci.yaml. The default upgrade graph 'replaces-mode' will be used.")}
	}
	if g.Kind == value.String && slices.Contains(updateGraphModes, g.Str) {
		return nil
	}
	return []finding.Finding{o.atConfig(RuleUpdateGraph, finding.Error, o.CI, g,
		"The 'updateGraph' option in ci.yaml must be one of %s", pyList(updateGraphModes))}
}
