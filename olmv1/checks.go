// The checks that need the bundle's manifests: operator-controller's
// registry+v1 bundle validators, and what makes its renderer fail.

package olmv1

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// manifests runs the checks that read the CSV's install strategy, its
// webhooks and the bundle's objects.
func (c *checker) manifests() {
	strategy, err := c.b.csv.DeploymentStrategy()
	if err != nil {
		file, line := c.b.csvAt("spec", "install")
		c.add(CodeUnreadable, file, line, "%v: fix the CSV's install strategy (spec.install.spec: deployments, permissions, clusterPermissions)", err)
		strategy = &registryv1.StrategyDetailsDeployment{}
	}
	webhooks, err := c.b.csv.Webhooks()
	if err != nil {
		file, line := c.b.csvAt("spec", "webhookdefinitions")
		c.add(CodeUnreadable, file, line, "%v: fix the CSV's spec.webhookdefinitions", err)
	}
	c.deployments(strategy)
	c.crds()
	if c.b.Package == "" {
		c.add(CodePackageName, c.b.pos.csvFile, 0, "package name is empty: set the operators.operatorframework.io.bundle.package.v1 annotation in metadata/annotations.yaml")
	}
	if len(webhooks) > 0 {
		if c.opts.NoWebhooks {
			file, line := c.b.csvAt("spec", "webhookdefinitions")
			c.add(CodeWebhooks, file, line, "unsupported bundle: webhookDefinitions are not supported (%d defined): this OLM v1 (OpenShift 4.18) installs no webhooks; current operator-controller does, with cert-manager", len(webhooks))
		}
		w := webhookChecker{checker: c, webhooks: webhooks}
		w.check(strategy)
	}
	c.objectKinds()
}

// deployments checks the CSV's deployments: unique names, each a DNS-1123
// subdomain.
func (c *checker) deployments(s *registryv1.StrategyDetailsDeployment) {
	file, line := c.b.csvAt("spec", "install", "spec", "deployments")
	seen, dups := map[string]bool{}, map[string]bool{}
	bad := map[string][]string{}
	for _, d := range s.DeploymentSpecs {
		if seen[d.Name] {
			dups[d.Name] = true
		}
		seen[d.Name] = true
		if errs := dns1123Subdomain(d.Name); len(errs) > 0 {
			bad[d.Name] = errs
		}
	}
	for _, d := range slices.Sorted(maps.Keys(dups)) {
		c.add(CodeDeployment, file, line, "cluster service version contains duplicate strategy deployment spec '%s': give each deployment of spec.install.spec.deployments its own name", d)
	}
	for _, d := range slices.Sorted(maps.Keys(bad)) {
		c.add(CodeDeployment, file, line, "invalid cluster service version strategy deployment name '%s': %s", d, strings.Join(bad[d], ", "))
	}
}

// crds checks the bundle's CRDs: unique names, every owned CRD present,
// and an API version Kubernetes still serves.
func (c *checker) crds() {
	names, dups := map[string]bool{}, map[string]*manifest{}
	for i := range c.b.objects {
		m := &c.b.objects[i]
		if m.obj.StringAt("kind") != "CustomResourceDefinition" {
			continue
		}
		name := m.obj.StringAt("metadata", "name")
		if names[name] {
			dups[name] = m
		}
		names[name] = true
		if v := m.obj.StringAt("apiVersion"); v != "apiextensions.k8s.io/v1" {
			c.add(CodeCRD, m.file, m.line, "custom resource definition '%s' is %s: Kubernetes serves only apiextensions.k8s.io/v1 CRDs since 1.22, so OLM v1 cannot apply it; convert it to apiextensions.k8s.io/v1", name, v)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(dups)) {
		c.add(CodeCRD, dups[n].file, dups[n].line, "bundle contains duplicate custom resource definition '%s': keep one", n)
	}
	missing := map[string]bool{}
	for _, d := range c.b.meta.CRDDescriptions.Owned {
		if !names[d.Name] {
			missing[d.Name] = true
		}
	}
	file, line := c.b.csvAt("spec", "customresourcedefinitions", "owned")
	for _, n := range slices.Sorted(maps.Keys(missing)) {
		c.add(CodeCRD, file, line, "cluster service definition references owned custom resource definition '%s' not found in bundle: add the CRD to manifests/ or drop it from spec.customresourcedefinitions.owned", n)
	}
}

// supportedKinds are the kinds of objects, beside CSVs and CRDs, that a
// registry+v1 bundle may carry, and whether they are namespaced
// (operator-registry's supported resources, NetworkPolicy included).
var supportedKinds = map[string]bool{
	"ClusterServiceVersion":    true,
	"CustomResourceDefinition": false,
	"ClusterRole":              false,
	"ClusterRoleBinding":       false,
	"Service":                  true,
	"ServiceAccount":           true,
	"Role":                     true,
	"RoleBinding":              true,
	"PrometheusRule":           true,
	"ServiceMonitor":           true,
	"Secret":                   true,
	"ConfigMap":                true,
	"PodDisruptionBudget":      true,
	"PriorityClass":            false,
	"VerticalPodAutoscaler":    false,
	"ConsoleYAMLSample":        false,
	"NetworkPolicy":            true,
}

// objectKinds refuses objects of kinds OLM does not install.
func (c *checker) objectKinds() {
	for _, m := range c.b.objects {
		kind := m.obj.StringAt("kind")
		if m.obj.StringAt("apiVersion") == "" {
			c.add(CodeInvalidObject, m.file, m.line, "%s %q has no apiVersion: OLM v1 reads it, but the API server refuses to create it; add apiVersion", kind, m.obj.StringAt("metadata", "name"))
		}
		if _, ok := supportedKinds[kind]; !ok {
			c.add(CodeUnsupportedObject, m.file, m.line, "bundle contains unsupported resource: Name: %v, Kind: %v: a registry+v1 bundle may carry only %s; create it from the operator instead", m.obj.StringAt("metadata", "name"), kind, supportedKindList())
		}
	}
}

// supportedKindList names the supported kinds, for messages.
func supportedKindList() string {
	return strings.Join(slices.Sorted(maps.Keys(supportedKinds)), ", ")
}

// dns1123 matches a lowercase RFC 1123 subdomain.
var dns1123 = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// dns1123Subdomain returns Kubernetes' complaints about a name that is
// not a DNS-1123 subdomain, sorted; none for a good name.
func dns1123Subdomain(s string) []string {
	var errs []string
	if len(s) > 253 {
		errs = append(errs, "must be no more than 253 characters")
	}
	if !dns1123.MatchString(s) {
		errs = append(errs, `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`)
	}
	slices.Sort(errs)
	return errs
}

// preserveUnknownFields reports whether a CRD sets
// spec.preserveUnknownFields to true.
func preserveUnknownFields(crd *value.Value) bool {
	p := crd.At("spec", "preserveUnknownFields")
	return p != nil && p.Kind == value.Bool && p.Bool
}

// crdObject returns the bundle's CRD of a name, nil if none.
func (b *Bundle) crdObject(name string) *manifest {
	for i := range b.objects {
		m := &b.objects[i]
		if m.obj.StringAt("kind") == "CustomResourceDefinition" && m.obj.StringAt("metadata", "name") == name {
			return m
		}
	}
	return nil
}
