// The generators: operator-controller's registry+v1 resource generators,
// one method each, run in its order.

package olmv1

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// generator makes the objects of one bundle for one install.
type generator struct {
	b        *Bundle
	ns       string   // the install namespace
	targets  []string // the watched namespaces; [""] for all
	strategy *registryv1.StrategyDetailsDeployment
	webhooks []registryv1.WebhookDescription
	notes    []string
	warnings []Reason // what the typed decoding dropped
}

// newGenerator reads what the generators need of the bundle's CSV.
func newGenerator(b *Bundle, ns string, targets []string) (*generator, error) {
	s, err := b.csv.DeploymentStrategy()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.describe(), err)
	}
	wh, err := b.csv.Webhooks()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.describe(), err)
	}
	return &generator{b: b, ns: ns, targets: targets, strategy: s, webhooks: wh}, nil
}

// allNamespaces reports whether the install watches all namespaces.
func (g *generator) allNamespaces() bool { return len(g.targets) == 1 && g.targets[0] == "" }

// all runs every generator in operator-controller's order.
func (g *generator) all() ([]Object, error) {
	steps := []func() ([]Object, error){
		g.serviceAccounts, g.permissions, g.clusterPermissions, g.crds, g.others,
		g.deployments, g.webhookConfigurations, g.services, g.certificates,
	}
	var objs []Object
	for _, step := range steps {
		o, err := step()
		if err != nil {
			return nil, err
		}
		objs = append(objs, o...)
	}
	return objs, nil
}

// serviceAccounts makes one ServiceAccount per account the CSV's
// permissions name, but none for "default".
func (g *generator) serviceAccounts() ([]Object, error) {
	names := map[string]bool{}
	for _, p := range slices.Concat(g.strategy.Permissions, g.strategy.ClusterPermissions) {
		names[saNameOrDefault(p.ServiceAccountName)] = true
	}
	delete(names, "default")
	var objs []Object
	for _, n := range slices.Sorted(maps.Keys(names)) {
		objs = append(objs, toObject(newServiceAccount(n, g.ns)))
	}
	return objs, nil
}

// roleName is the generated name of the role of a permission: the CSV's
// name and the service account's, and a hash of the permission.
func (g *generator) roleName(p registryv1.StrategyDeploymentPermissions) string {
	return uniqueName(g.b.Name+"-"+saNameOrDefault(p.ServiceAccountName), p)
}

// permissions makes a Role and RoleBinding per permission and watched
// namespace; none when all namespaces are watched (they become cluster
// permissions).
func (g *generator) permissions() ([]Object, error) {
	if g.allNamespaces() {
		return nil, nil
	}
	var objs []Object
	for _, ns := range g.targets {
		for _, p := range g.strategy.Permissions {
			name, sa := g.roleName(p), saNameOrDefault(p.ServiceAccountName)
			objs = append(objs,
				toObject(newRole("Role", name, ns, p.Rules)),
				toObject(newBinding("RoleBinding", name, ns, "Role", name, sa, g.ns)))
		}
	}
	return objs, nil
}

// namespacesRule is the rule OLM adds to permissions promoted to cluster
// permissions, as OLM v0's operator groups do.
var namespacesRule = registryv1.PolicyRule{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{""}, Resources: []string{"namespaces"}}

// clusterPermissions makes a ClusterRole and ClusterRoleBinding per
// cluster permission, and per permission when all namespaces are watched.
func (g *generator) clusterPermissions() ([]Object, error) {
	perms := slices.Clone(g.strategy.ClusterPermissions)
	if g.allNamespaces() {
		for _, p := range g.strategy.Permissions {
			p.Rules = append(slices.Clone(p.Rules), namespacesRule)
			perms = append(perms, p)
		}
	}
	var objs []Object
	for _, p := range perms {
		name, sa := g.roleName(p), saNameOrDefault(p.ServiceAccountName)
		objs = append(objs,
			toObject(newRole("ClusterRole", name, "", p.Rules)),
			toObject(newBinding("ClusterRoleBinding", name, "", "ClusterRole", name, sa, g.ns)))
	}
	return objs, nil
}

// crds copies the bundle's CRDs, wiring the conversion webhooks.
func (g *generator) crds() ([]Object, error) {
	conv := map[string]registryv1.WebhookDescription{}
	for _, wh := range g.webhooks {
		if wh.Type != registryv1.ConversionWebhook {
			continue
		}
		for _, crd := range wh.ConversionCRDs {
			if _, dup := conv[crd]; dup {
				return nil, fmt.Errorf("custom resource definition '%s' is referenced by multiple conversion webhook definitions", crd)
			}
			conv[crd] = wh
		}
	}
	var objs []Object
	for _, m := range g.b.objects {
		if m.obj.StringAt("kind") != "CustomResourceDefinition" {
			continue
		}
		obj, dropped, err := typedCRDObject(m.obj)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: decoding the CRD as apiextensions.k8s.io/v1, as operator-controller does: %w", m.file, m.line, err)
		}
		name := obj.StringAt("metadata", "name")
		for _, path := range dropped {
			g.warnings = append(g.warnings, droppedCRDFieldNote(m, name, path))
		}
		if wh, ok := conv[name]; ok {
			if preserveUnknownFields(obj) {
				return nil, fmt.Errorf("custom resource definition '%s' must have .spec.preserveUnknownFields set to false to let API Server call webhook to do the conversion", name)
			}
			g.conversion(obj, wh)
		}
		objs = append(objs, Object{Value: obj})
	}
	return objs, nil
}

// conversion points a CRD's conversion at its webhook's service.
func (g *generator) conversion(crd *value.Value, wh registryv1.WebhookDescription) {
	path := "/"
	if wh.WebhookPath != nil {
		path = *wh.WebhookPath
	}
	names := certNamesFor(wh.DeploymentName)
	type service struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
		Path      string `json:"path"`
		Port      int32  `json:"port"`
	}
	conversion := struct {
		Strategy string `json:"strategy"`
		Webhook  struct {
			ClientConfig struct {
				Service service `json:"service"`
			} `json:"clientConfig"`
			ConversionReviewVersions []string `json:"conversionReviewVersions"`
		} `json:"webhook"`
	}{Strategy: "Webhook"}
	conversion.Webhook.ClientConfig.Service = service{g.ns, names.service, path, webhookPort(wh)}
	conversion.Webhook.ConversionReviewVersions = wh.AdmissionReviewVersions
	setField(objectAt(crd, "spec"), "conversion", toValue(conversion))
	g.injectCA(crd, names)
}

// webhookPort is the port a webhook is served on: its container port,
// 443 if none is set.
func webhookPort(wh registryv1.WebhookDescription) int32 {
	if wh.ContainerPort > 0 {
		return wh.ContainerPort
	}
	return 443
}

// injectCA annotates an object for cert-manager's CA injector.
func (g *generator) injectCA(obj *value.Value, names certNames) {
	setField(objectAt(obj, "metadata", "annotations"), "cert-manager.io/inject-ca-from", strValue(g.ns+"/"+names.cert))
}

// others copies the bundle's other manifests, in the install namespace
// when they are namespaced.
func (g *generator) others() ([]Object, error) {
	var objs []Object
	for _, m := range g.b.objects {
		kind := m.obj.StringAt("kind")
		if kind == "ClusterServiceVersion" || kind == "CustomResourceDefinition" {
			continue
		}
		namespaced, ok := supportedKinds[kind]
		if !ok {
			return nil, fmt.Errorf("bundle contains unsupported resource: Name: %v, Kind: %v", m.obj.StringAt("metadata", "name"), kind)
		}
		obj := clone(m.obj)
		if namespaced {
			setField(objectAt(obj, "metadata"), "namespace", strValue(g.ns))
		}
		objs = append(objs, Object{Value: obj})
	}
	return objs, nil
}

// deployments makes the CSV's deployments as OLM v0 does: the spec as
// apps/v1's type reads it, the CSV's annotations, olm.targetNamespaces and
// olm.operatorNamespace on the pod template, a revision
// history of 1, and the webhook certificate mounted where a deployment
// serves webhooks.
func (g *generator) deployments() ([]Object, error) {
	serves := map[string]bool{}
	for _, wh := range g.webhooks {
		serves[wh.DeploymentName] = true
	}
	var objs []Object
	for i, d := range g.strategy.DeploymentSpecs {
		spec, dropped, err := typedDeploymentSpec(d.Spec)
		if err != nil {
			file, line := g.b.csvAt("spec", "install", "spec", "deployments")
			return nil, fmt.Errorf("%s:%d: deployment %q: decoding its spec as apps/v1 DeploymentSpec, as operator-controller does: %w", file, line, d.Name, err)
		}
		for _, path := range dropped {
			g.warnings = append(g.warnings, g.b.droppedFieldNote(i, d.Name, path))
		}
		annotations := objectAt(spec, "template", "metadata", "annotations")
		own := stringMap(annotations)
		for _, k := range slices.Sorted(maps.Keys(g.b.csv.Metadata.Annotations)) {
			if _, ok := own[k]; !ok {
				setField(annotations, k, strValue(g.b.csv.Metadata.Annotations[k]))
			}
		}
		setField(annotations, "olm.targetNamespaces", strValue(strings.Join(g.targets, ",")))
		setField(annotations, "olm.operatorNamespace", strValue(g.ns))
		setField(spec, "revisionHistoryLimit", intValue(1))
		if serves[d.Name] {
			mountCertificate(spec, certNamesFor(d.Name).cert)
		}
		// The empty status is what apps/v1's Deployment writes of its
		// own; the rest of its marks came with the spec's round trip.
		obj := toValue(struct {
			typeMeta
			Metadata objectMeta `json:"metadata"`
			Status   struct{}   `json:"status"`
		}{typeMeta: typeMeta{"apps/v1", "Deployment"}, Metadata: objectMeta{Name: d.Name, Namespace: g.ns, Labels: d.Label}})
		setField(&obj, "spec", *spec)
		objs = append(objs, Object{Value: &obj})
	}
	return objs, nil
}

// certMount is a volume of the serving certificate that
// operator-controller mounts into deployments that serve webhooks: its
// name, where it is mounted, and the files of the certificate and key.
type certMount struct {
	name, path, certFile, keyFile string
}

// certMounts are OLM v0's certificate volumes, which current
// operator-controller mounts both of.
var certMounts = []certMount{
	{"webhook-cert", "/tmp/k8s-webhook-server/serving-certs", "tls.crt", "tls.key"},
	{"apiservice-cert", "/apiserver.local.config/certificates", "apiserver.crt", "apiserver.key"},
}

// mountCertificate replaces the certificate volumes and mounts of a
// deployment spec (by name, or by mount path) with the secret of
// certificate cert, in every container.
func mountCertificate(spec *value.Value, cert string) {
	pod := objectAt(spec, "template", "spec")
	replace, paths := map[string]bool{}, map[string]bool{}
	for _, m := range certMounts {
		replace[m.name], paths[m.path] = true, true
	}
	containers := pod.At("containers")
	for _, c := range itemsOf(containers) {
		for _, m := range itemsOf(c.At("volumeMounts")) {
			if paths[m.StringAt("mountPath")] {
				replace[m.StringAt("name")] = true
			}
		}
	}
	keep := func(items []value.Value) []value.Value {
		return slices.DeleteFunc(slices.Clone(items), func(v value.Value) bool { return replace[v.StringAt("name")] })
	}
	type keyToPath struct {
		Key  string `json:"key"`
		Path string `json:"path"`
	}
	type volume struct {
		Name   string `json:"name"`
		Secret struct {
			SecretName string      `json:"secretName"`
			Items      []keyToPath `json:"items"`
		} `json:"secret"`
	}
	volumes := keep(itemsOf(pod.At("volumes")))
	var mounts []value.Value
	for _, m := range certMounts {
		v := volume{Name: m.name}
		v.Secret.SecretName = cert
		v.Secret.Items = []keyToPath{{"tls.crt", m.certFile}, {"tls.key", m.keyFile}}
		volumes = append(volumes, toValue(v))
		mounts = append(mounts, toValue(map[string]string{"name": m.name, "mountPath": m.path}))
	}
	setField(pod, "volumes", value.Value{Kind: value.Array, Items: volumes})
	if containers == nil || containers.Kind != value.Array {
		return
	}
	for i := range containers.Items {
		c := &containers.Items[i]
		setField(c, "volumeMounts", value.Value{Kind: value.Array, Items: append(keep(itemsOf(c.At("volumeMounts"))), mounts...)})
	}
}

// itemsOf returns the items of an array, none for anything else.
func itemsOf(v *value.Value) []value.Value {
	if v == nil || v.Kind != value.Array {
		return nil
	}
	return v.Items
}
