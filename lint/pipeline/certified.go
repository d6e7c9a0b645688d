package pipeline

import (
	"fmt"
	"slices"

	"github.com/fbcat/opm/lint/finding"
)

// The certified repositories' suite (isv) adds two checks to the common
// ones: a skipRange without replaces that prunes the update graph of an
// operator not using FBC (check_pruned_graph, a warning), and the
// marketplace links of the redhat-marketplace organization's bundles
// (check_marketplace_annotation).

// The rules of the certified suite.
const (
	RulePrunedGraph           = "pruned-graph"
	RuleMarketplaceAnnotation = "marketplace-annotation"
)

// prunedGraphMessage is the pipeline's warning.
const prunedGraphMessage = "olm.skipRange annotation is set but replaces field is not set in the CSV. The definition may lead to unintentional pruning of the update graph. https://olm.operatorframework.io/docs/concepts/olm-architecture/operator-catalog/creating-an-update-graph/#skiprange. If this is intentional, you can skip the check by adding `/test skip check_pruned_graph` comment to a pull request."

// prunedGraph is check_pruned_graph: a CSV with olm.skipRange and no
// spec.replaces, in a channel of more than one bundle (a warning per
// such channel, as the pipeline gives one).
func prunedGraph(o *Operator, b *Bundle) []finding.Finding {
	sr := b.csv("metadata", "annotations", "olm.skipRange")
	if o.fbc() || !truthy(sr) || truthy(b.csv("spec", "replaces")) {
		return nil
	}
	var out []finding.Finding
	for _, ch := range channelsOf(b) {
		if len(o.channelBundles(ch)) != 1 {
			out = append(out, atCSV(RulePrunedGraph, finding.Warning, b, sr, "%s", prunedGraphMessage))
		}
	}
	return slices.CompactFunc(out, func(a, b finding.Finding) bool { return a.Message == b.Message })
}

// marketplaceAnnotation is check_marketplace_annotation: for the
// redhat-marketplace organization (config.yaml's organization), the CSV's
// remote-workflow and support-workflow annotations link to the
// operator's marketplace pages.
func marketplaceAnnotation(o *Operator, b *Bundle) []finding.Finding {
	if org := o.Repo.get("organization"); org == nil || pyStr(org) != "redhat-marketplace" {
		return nil
	}
	pkg := "None"
	if v, _ := b.annotation("operators.operatorframework.io.bundle.package.v1"); v != nil {
		pkg = pyStr(v)
	}
	var out []finding.Finding
	for _, w := range []struct{ key, page string }{
		{"marketplace.openshift.io/remote-workflow", "pricing"},
		{"marketplace.openshift.io/support-workflow", "support"},
	} {
		want := fmt.Sprintf("https://marketplace.redhat.com/en-us/operators/%s/%s?utm_source=openshift_console", pkg, w.page)
		got := b.csv("metadata", "annotations", w.key)
		if got != nil && got.Kind != 0 && pyStr(got) == want {
			continue
		}
		node := got
		if node == nil {
			node = b.csv("metadata")
		}
		out = append(out, atCSV(RuleMarketplaceAnnotation, finding.Error, b, node,
			"CSV %s annotation is set to '%s'. Expected value is %s. To fix this issue define the annotation in 'manifests/*.clusterserviceversion.yaml' file.", w.key, pyStr(got), want))
	}
	return out
}
