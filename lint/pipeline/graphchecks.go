package pipeline

import (
	"slices"
	"strings"

	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/lint/finding"
)

// The checks of the update graph of an operator not using FBC (each
// skipped for FBC operators, as the pipeline's skip_fbc skips them):
// dangling bundles (check_dangling_bundles), loops
// (check_upgrade_graph_loop), what spec.replaces names
// (check_replaces_availability), and the suggestion to use FBC
// (check_using_fbc).

// The rules of the update graph.
const (
	RuleDanglingBundles   = "dangling-bundles"
	RuleUpgradeGraphLoop  = "upgrade-graph-loop"
	RuleReplacesAvailable = "replaces-available"
	RuleUsingFBC          = "not-file-based"
)

// danglingBundles is check_dangling_bundles for a bundle: in each of its
// channels, the bundles that nothing replaces and that are not the head.
func danglingBundles(o *Operator, b *Bundle) []finding.Finding {
	if o.fbc() {
		return nil
	}
	channels := channelsOf(b)
	if d, ok := defaultChannelOf(b); ok {
		channels = addName(channels, d)
	}
	slices.Sort(channels)
	_, line := b.annotation(labels.Channels)
	var out []finding.Finding
	for _, ch := range channels {
		bundles := o.channelBundles(ch)
		g, err := o.updateGraphOf(ch)
		if err != nil {
			return append(out, inBundle(RuleDanglingBundles, finding.Error, b, b.AnnotationsFile, line, "%s", err.Error()))
		}
		var dangling []*Bundle
		for i, x := range bundles {
			if _, replaced := g[x]; !replaced && i != len(bundles)-1 {
				dangling = append(dangling, x)
			}
		}
		if len(dangling) > 0 {
			out = append(out, inBundle(RuleDanglingBundles, finding.Error, b, b.AnnotationsFile, line,
				"Channel %s has dangling bundles: %s", ch, o.refs(dangling)))
		}
	}
	return out
}

// upgradeGraphLoop is check_upgrade_graph_loop: the first loop of the
// first channel that has one (channels by name, bundles by version), at
// the CSV of the bundle that closes it.
func upgradeGraphLoop(o *Operator) []finding.Finding {
	if o.fbc() {
		return nil
	}
	var out []finding.Finding
	for _, ch := range o.channelsOfOperator() {
		g, err := o.updateGraphOf(ch)
		if err != nil {
			return append(out, o.atConfig(RuleUpgradeGraphLoop, finding.Error, o.CI, o.CI.get("updateGraph"), "%s", err.Error()))
		}
		if from, to, ok := g.cycle(o.channelBundles(ch)); ok {
			out = append(out, o.finding(RuleUpgradeGraphLoop, finding.Error, to.CSVFile, to.at(to.csv("spec", "replaces")),
				"Upgrade graph loop detected: %s -> %s (channel %s)", o.ref(from), o.ref(to), ch))
		}
	}
	return out
}

// cycle finds an edge that closes a loop, by depth-first search from
// each node in order.
func (g graph) cycle(order []*Bundle) (from, to *Bundle, ok bool) {
	visited, onStack := map[*Bundle]bool{}, map[*Bundle]bool{}
	var visit func(n *Bundle) (*Bundle, *Bundle, bool)
	visit = func(n *Bundle) (*Bundle, *Bundle, bool) {
		visited[n], onStack[n] = true, true
		next := slices.Clone(g[n])
		slices.SortStableFunc(next, compareBundles)
		for _, m := range next {
			if !visited[m] {
				if f, t, ok := visit(m); ok {
					return f, t, true
				}
			} else if onStack[m] {
				return n, m, true
			}
		}
		onStack[n] = false
		return nil, nil, false
	}
	for _, n := range order {
		if _, has := g[n]; has && !visited[n] {
			if f, t, ok := visit(n); ok {
				return f, t, true
			}
		}
	}
	return nil, nil, false
}

// replacesAvailable is the offline part of check_replaces_availability:
// spec.replaces names neither the bundle itself nor a version no bundle
// directory has. (When it names another bundle whose
// com.redhat.openshift.versions differs, the pipeline also asks Pyxis
// which OpenShift indices each range covers: that needs the network.)
func replacesAvailable(o *Operator, b *Bundle) []finding.Finding {
	r := b.csv("spec", "replaces")
	if o.fbc() || !truthy(r) {
		return nil
	}
	replaces := pyStr(r)
	delim := "."
	if strings.Contains(replaces, ".v") {
		delim = ".v"
	}
	_, version, ok := strings.Cut(replaces, delim)
	switch {
	case !ok:
		return []finding.Finding{atCSV(RuleReplacesAvailable, finding.Error, b, r, "%s cannot be checked: spec.replaces %q names no version", o.ref(b), replaces)}
	case version == csvVersion(b):
		return []finding.Finding{atCSV(RuleReplacesAvailable, finding.Error, b, r,
			"%s attempts to replace itself. Please set 'spec.replaces' field to a different version in the CSV.", o.ref(b))}
	}
	var versions []string
	for _, x := range o.Bundles {
		versions = addName(versions, csvVersion(x))
	}
	if slices.Contains(versions, version) {
		return nil
	}
	slices.Sort(versions)
	return []finding.Finding{atCSV(RuleReplacesAvailable, finding.Error, b, r,
		"%s attempts to replace version '%s' which does not exist in the submitted PR branch. Available versions: %s. If you are submitting multiple versions in sequence, make sure your fork is up to date with origin (rebased) before each submission to include all previously merged versions.",
		o.ref(b), version, pyList(versions))}
}

// The pipeline's suggestions to use FBC, for an operator that has other
// bundles and for a new one.
const (
	nonFBCSuggestion = "[File Based Catalog (FBC)](https://github.com/redhat-openshift-ecosystem/community-operators-prod/discussions/5031#discussion-7097441) is a new way to manage operator metadata. This operator does not use FBC. Consider [migrating](https://redhat-openshift-ecosystem.github.io/operator-pipelines/users/fbc_onboarding/) for better maintainability."
	nonFBCWarning    = "[File Based Catalog (FBC)](https://github.com/redhat-openshift-ecosystem/community-operators-prod/discussions/5031#discussion-7097441) is a new way to manage operator metadata. This operator does not use FBC and it is recommended for new operators to [start directly with FBC](https://redhat-openshift-ecosystem.github.io/operator-pipelines/users/fbc_workflow/)."
)

// usingFBC is check_using_fbc: a warning for each bundle of an operator
// not using FBC, at ci.yaml.
func usingFBC(o *Operator, b *Bundle) []finding.Finding {
	if o.fbc() {
		return nil
	}
	msg := nonFBCWarning
	if len(o.Bundles) > 1 {
		msg = nonFBCSuggestion
	}
	f := o.atConfig(RuleUsingFBC, finding.Warning, o.CI, o.CI.get("fbc"), "%s", msg)
	f.Package, f.Bundle = b.Package, b.Name
	return []finding.Finding{f}
}
