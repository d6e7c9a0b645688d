// operator-controller's checks of a CSV's webhook definitions.

package olmv1

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/fbcat/opm/registryv1"
)

// webhookChecker checks the webhook definitions of one CSV.
type webhookChecker struct {
	*checker
	webhooks []registryv1.WebhookDescription
}

// check runs the webhook checks in operator-controller's order.
func (w webhookChecker) check(s *registryv1.StrategyDetailsDeployment) {
	w.conversionInstallModes()
	w.deploymentReferences(s)
	w.nameUniqueness()
	w.names()
	w.conversionCRDUniqueness()
	w.conversionCRDsOwned()
	w.rules()
	w.conversionPreserveUnknownFields()
}

// at is where the webhook definitions are.
func (w webhookChecker) at() (string, int) { return w.b.csvAt("spec", "webhookdefinitions") }

// conversionInstallModes: a bundle with conversion webhooks must support
// AllNamespaces and nothing else (OLM v0's rule).
func (w webhookChecker) conversionInstallModes() {
	modes := w.b.supportedModes()
	if len(modes) == 1 && modes["AllNamespaces"] {
		return
	}
	file, line := w.at()
	for _, wh := range w.webhooks {
		if wh.Type == registryv1.ConversionWebhook {
			w.add(CodeConversionWebhook, file, line, "bundle contains conversion webhook %q and supports install modes %s - conversion webhooks are only supported for bundles that only support AllNamespaces install mode: mark the other install modes supported: false", wh.GenerateName, sortedModes(modes))
		}
	}
}

// deploymentReferences: each webhook names a deployment of the CSV.
func (w webhookChecker) deploymentReferences(s *registryv1.StrategyDetailsDeployment) {
	deployments := map[string]bool{}
	for _, d := range s.DeploymentSpecs {
		deployments[d.Name] = true
	}
	var missing []registryv1.WebhookDescription
	for _, wh := range w.webhooks {
		if !deployments[wh.DeploymentName] {
			missing = append(missing, wh)
		}
	}
	slices.SortStableFunc(missing, func(a, b registryv1.WebhookDescription) int {
		return cmp.Or(cmp.Compare(a.DeploymentName, b.DeploymentName), cmp.Compare(a.Type, b.Type), cmp.Compare(a.GenerateName, b.GenerateName))
	})
	file, line := w.at()
	for _, wh := range missing {
		w.add(CodeWebhook, file, line, "webhook of type '%s' with name '%s' references non-existent deployment '%s': set deploymentName to one of spec.install.spec.deployments", wh.Type, wh.GenerateName, wh.DeploymentName)
	}
}

// nameUniqueness: webhooks of one type have different names.
func (w webhookChecker) nameUniqueness() {
	seen := map[string]bool{}
	dups := map[string]map[string]bool{}
	for _, wh := range w.webhooks {
		key := wh.Type + "\x00" + wh.GenerateName
		if seen[key] {
			if dups[wh.Type] == nil {
				dups[wh.Type] = map[string]bool{}
			}
			dups[wh.Type][wh.GenerateName] = true
		}
		seen[key] = true
	}
	file, line := w.at()
	for _, t := range slices.Sorted(maps.Keys(dups)) {
		for _, n := range slices.Sorted(maps.Keys(dups[t])) {
			w.add(CodeWebhook, file, line, "duplicate webhook '%s' of type '%s': give each webhook its own generateName", n, t)
		}
	}
}

// names: each webhook's name is a DNS-1123 subdomain.
func (w webhookChecker) names() {
	bad := map[string]map[string][]string{}
	for _, wh := range w.webhooks {
		if errs := dns1123Subdomain(wh.GenerateName); len(errs) > 0 {
			if bad[wh.Type] == nil {
				bad[wh.Type] = map[string][]string{}
			}
			bad[wh.Type][wh.GenerateName] = errs
		}
	}
	file, line := w.at()
	for _, t := range slices.Sorted(maps.Keys(bad)) {
		for _, n := range slices.Sorted(maps.Keys(bad[t])) {
			w.add(CodeWebhook, file, line, "webhook of type '%s' has invalid name '%s': %s", t, n, strings.Join(bad[t][n], ","))
		}
	}
}

// conversionCRDUniqueness: no two conversion webhooks convert one CRD.
func (w webhookChecker) conversionCRDUniqueness() {
	byCRD := map[string][]string{}
	for _, wh := range w.webhooks {
		if wh.Type != registryv1.ConversionWebhook {
			continue
		}
		for _, crd := range wh.ConversionCRDs {
			byCRD[crd] = append(byCRD[crd], wh.GenerateName)
		}
	}
	file, line := w.at()
	for _, crd := range slices.Sorted(maps.Keys(byCRD)) {
		if whs := byCRD[crd]; len(whs) > 1 {
			w.add(CodeConversionWebhook, file, line, "conversion webhooks [%s] reference same custom resource definition '%s': let one webhook convert it", strings.Join(slices.Sorted(slices.Values(whs)), ","), crd)
		}
	}
}

// conversionCRDsOwned: conversion webhooks convert CRDs the CSV owns.
func (w webhookChecker) conversionCRDsOwned() {
	owned := map[string]bool{}
	for _, d := range w.b.meta.CRDDescriptions.Owned {
		owned[d.Name] = true
	}
	var conv []registryv1.WebhookDescription
	for _, wh := range w.webhooks {
		if wh.Type == registryv1.ConversionWebhook {
			conv = append(conv, wh)
		}
	}
	slices.SortStableFunc(conv, func(a, b registryv1.WebhookDescription) int { return cmp.Compare(a.GenerateName, b.GenerateName) })
	file, line := w.at()
	for _, wh := range conv {
		for _, crd := range slices.Sorted(slices.Values(wh.ConversionCRDs)) {
			if !owned[crd] {
				w.add(CodeConversionWebhook, file, line, "conversion webhook '%s' references custom resource definition '%s' not owned bundle: list it in spec.customresourcedefinitions.owned", wh.GenerateName, crd)
			}
		}
	}
}

// forbiddenGroups and forbiddenAdmissionResources are what admission
// webhook rules may not match (OLM v0's and v1's rule: a faulty webhook
// must not lock OLM or webhook configurations up).
var (
	forbiddenGroups             = map[string]bool{"olm.operatorframework.io": true, "*": true}
	forbiddenAdmissionResources = map[string]bool{
		"*": true, "mutatingwebhookconfiguration": true, "mutatingwebhookconfigurations": true,
		"validatingwebhookconfiguration": true, "validatingwebhookconfigurations": true,
	}
)

// rules: admission webhook rules avoid the forbidden groups and resources.
func (w webhookChecker) rules() {
	file, line := w.at()
	for _, wh := range w.webhooks {
		if wh.Type == registryv1.ConversionWebhook {
			continue
		}
		for _, r := range wh.Rules {
			for _, g := range r.APIGroups {
				if forbiddenGroups[g] {
					w.add(CodeWebhook, file, line, "webhook %q contains forbidden rule: admission webhook rules cannot reference API group %q: name the groups the webhook needs", wh.GenerateName, g)
				}
				if g != "admissionregistration.k8s.io" {
					continue
				}
				for _, res := range r.Resources {
					if forbiddenAdmissionResources[strings.ToLower(res)] {
						w.add(CodeWebhook, file, line, "webhook %q contains forbidden rule: admission webhook rules cannot reference resource %q for API group %q", wh.GenerateName, res, g)
					}
				}
			}
		}
	}
}

// conversionPreserveUnknownFields: the renderer refuses to give a CRD
// with spec.preserveUnknownFields a conversion webhook.
func (w webhookChecker) conversionPreserveUnknownFields() {
	seen := map[string]bool{}
	for _, wh := range w.webhooks {
		if wh.Type != registryv1.ConversionWebhook {
			continue
		}
		for _, name := range wh.ConversionCRDs {
			m := w.b.crdObject(name)
			if m == nil || seen[name] || !preserveUnknownFields(m.obj) {
				continue
			}
			seen[name] = true
			w.add(CodeConversionWebhook, m.file, m.line, "custom resource definition '%s' must have .spec.preserveUnknownFields set to false to let API Server call webhook to do the conversion", name)
		}
	}
}
