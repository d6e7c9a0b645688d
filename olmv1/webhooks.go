// The webhook generators: admission webhook configurations, the services
// in front of the deployments that serve them, and cert-manager's
// Issuer and Certificate for each such deployment.

package olmv1

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// webhookConfigurations makes a ValidatingWebhookConfiguration or
// MutatingWebhookConfiguration per admission webhook, validating ones
// first, each annotated for cert-manager's CA injection.
func (g *generator) webhookConfigurations() ([]Object, error) {
	var objs []Object
	for _, typ := range []string{registryv1.ValidatingAdmissionWebhook, registryv1.MutatingAdmissionWebhook} {
		for _, wh := range g.webhooks {
			if wh.Type != typ {
				continue
			}
			obj, err := g.webhookConfiguration(wh)
			if err != nil {
				return nil, err
			}
			objs = append(objs, obj)
		}
	}
	return objs, nil
}

// webhookConfiguration makes the configuration of one admission webhook.
func (g *generator) webhookConfiguration(wh registryv1.WebhookDescription) (Object, error) {
	name := strings.TrimSuffix(wh.GenerateName, "-")
	names := certNamesFor(wh.DeploymentName)
	kind := "ValidatingWebhookConfiguration"
	if wh.Type == registryv1.MutatingAdmissionWebhook {
		kind = "MutatingWebhookConfiguration"
	}
	type service struct {
		Namespace string  `json:"namespace"`
		Name      string  `json:"name"`
		Path      *string `json:"path,omitempty"`
		Port      int32   `json:"port"`
	}
	hook := toValue(struct {
		Name                    string                          `json:"name"`
		Rules                   []registryv1.RuleWithOperations `json:"rules,omitempty"`
		AdmissionReviewVersions []string                        `json:"admissionReviewVersions"`
	}{Name: name, Rules: wh.Rules, AdmissionReviewVersions: wh.AdmissionReviewVersions})
	setField(&hook, "clientConfig", toValue(map[string]service{"service": {g.ns, names.service, wh.WebhookPath, webhookPort(wh)}}))
	raw := []struct {
		key string
		val json.RawMessage
	}{
		{"failurePolicy", wh.FailurePolicy}, {"matchPolicy", wh.MatchPolicy}, {"objectSelector", wh.ObjectSelector},
		{"sideEffects", wh.SideEffects}, {"timeoutSeconds", wh.TimeoutSeconds},
	}
	if kind == "MutatingWebhookConfiguration" {
		raw = append(raw, struct {
			key string
			val json.RawMessage
		}{"reinvocationPolicy", wh.ReinvocationPolicy})
	}
	for _, r := range raw {
		if len(r.val) == 0 || string(r.val) == "null" {
			continue
		}
		parse := parseTree
		if r.key == "objectSelector" { // a meta/v1 LabelSelector
			parse = typedLabelSelector
		}
		v, err := parse(r.val)
		if err != nil {
			return Object{}, fmt.Errorf("webhook %q: %s: %w", wh.GenerateName, r.key, err)
		}
		setField(&hook, r.key, *v)
	}
	if sel := g.namespaceSelector(); sel != nil {
		setField(&hook, "namespaceSelector", *sel)
	}
	obj := toValue(struct {
		typeMeta
		Metadata objectMeta `json:"metadata"`
		// operator-controller sets the install namespace on these
		// cluster-scoped objects too; Kubernetes ignores it.
	}{typeMeta{"admissionregistration.k8s.io/v1", kind}, objectMeta{Name: name, Namespace: g.ns}})
	setField(&obj, "webhooks", value.Value{Kind: value.Array, Items: []value.Value{hook}})
	g.injectCA(&obj, names)
	return Object{Value: &obj}, nil
}

// namespaceSelector limits webhooks to the watched namespaces; nil when
// all are watched.
func (g *generator) namespaceSelector() *value.Value {
	if len(g.targets) == 0 || slices.Contains(g.targets, "") {
		return nil
	}
	type requirement struct {
		Key      string   `json:"key"`
		Operator string   `json:"operator"`
		Values   []string `json:"values"`
	}
	v := toValue(map[string][]requirement{"matchExpressions": {{"kubernetes.io/metadata.name", "In", g.targets}}})
	return &v
}

// servicePort is one port of a webhook service.
type servicePort struct {
	Name       string          `json:"name"`
	Port       int32           `json:"port"`
	TargetPort json.RawMessage `json:"targetPort"`
}

// targetPortInt is the number a target port names, 0 for a named port.
func (p servicePort) targetPortInt() int {
	n, _ := strconv.Atoi(string(p.TargetPort))
	return n
}

// services makes a Service per deployment that serves webhooks, with a
// port per distinct webhook port, selecting the deployment's pods.
func (g *generator) services() ([]Object, error) {
	ports := map[string]map[string]servicePort{}
	for _, wh := range g.webhooks {
		port := webhookPort(wh)
		target := json.RawMessage(strconv.Itoa(int(port)))
		if len(wh.TargetPort) > 0 && string(wh.TargetPort) != "null" {
			target = wh.TargetPort
		}
		p := servicePort{Name: strconv.Itoa(int(port)), Port: port, TargetPort: target}
		if ports[wh.DeploymentName] == nil {
			ports[wh.DeploymentName] = map[string]servicePort{}
		}
		ports[wh.DeploymentName][p.Name+"\x00"+string(p.TargetPort)] = p
	}
	var objs []Object
	for _, d := range g.strategy.DeploymentSpecs {
		set, ok := ports[d.Name]
		if !ok {
			continue
		}
		list := slices.SortedFunc(maps.Values(set), func(a, b servicePort) int {
			return cmp.Or(cmp.Compare(a.Port, b.Port), cmp.Compare(a.targetPortInt(), b.targetPortInt()), strings.Compare(string(a.TargetPort), string(b.TargetPort)))
		})
		spec := struct {
			Ports    []servicePort     `json:"ports"`
			Selector map[string]string `json:"selector,omitempty"`
		}{Ports: list}
		if tree, err := parseTree(d.Spec); err == nil {
			spec.Selector = stringMap(tree.At("selector", "matchLabels"))
		}
		objs = append(objs, toObject(struct {
			typeMeta
			Metadata objectMeta `json:"metadata"`
			Spec     any        `json:"spec"`
			Status   any        `json:"status"` // v1's type always has one
		}{typeMeta{"v1", "Service"}, objectMeta{Name: certNamesFor(d.Name).service, Namespace: g.ns}, spec, map[string]struct{}{"loadBalancer": {}}}))
	}
	return objs, nil
}

// certificates makes cert-manager's self-signed Issuer and serving
// Certificate for each deployment that serves webhooks, as
// operator-controller's cert-manager certificate provider does: two-year
// certificates renewed a day before they expire, for the service's DNS
// names.
func (g *generator) certificates() ([]Object, error) {
	deployments := map[string]bool{}
	for _, wh := range g.webhooks {
		deployments[wh.DeploymentName] = true
	}
	var objs []Object
	for _, d := range slices.Sorted(maps.Keys(deployments)) {
		names := certNamesFor(d)
		issuer := struct {
			typeMeta
			Metadata objectMeta                     `json:"metadata"`
			Spec     map[string]map[string]struct{} `json:"spec"`
		}{typeMeta{"cert-manager.io/v1", "Issuer"}, objectMeta{Name: names.issuer(), Namespace: g.ns}, map[string]map[string]struct{}{"selfSigned": {}}}
		host := names.service + "." + g.ns
		cert := struct {
			typeMeta
			Metadata objectMeta `json:"metadata"`
			Spec     certSpec   `json:"spec"`
		}{typeMeta{"cert-manager.io/v1", "Certificate"}, objectMeta{Name: names.cert, Namespace: g.ns}, certSpec{
			SecretName:  names.cert,
			CommonName:  host,
			Usages:      []string{"server auth"},
			DNSNames:    []string{host, host + ".svc", host + ".svc.cluster.local"},
			IssuerRef:   map[string]string{"name": names.issuer()},
			Duration:    "17520h0m0s", // 730 days
			RenewBefore: "24h0m0s",
		}}
		objs = append(objs, toObject(issuer), toObject(cert))
	}
	if len(objs) > 0 {
		g.notes = append(g.notes, "the bundle's webhooks get their certificates from cert-manager (operator-controller's default certificate provider): cert-manager must be installed, and the Issuer and Certificate objects are part of the install")
	}
	return objs, nil
}

// certSpec is the spec of a cert-manager Certificate.
type certSpec struct {
	SecretName  string            `json:"secretName"`
	CommonName  string            `json:"commonName"`
	Usages      []string          `json:"usages"`
	DNSNames    []string          `json:"dnsNames"`
	IssuerRef   map[string]string `json:"issuerRef"`
	Duration    string            `json:"duration"`
	RenewBefore string            `json:"renewBefore"`
}
