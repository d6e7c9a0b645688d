package declcfgtest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// operator is what stays the same across a package's versions: its
// names, owned kinds, description, icon and permissions.
type operator struct {
	pkg, group  string
	kinds       []*kind
	description string
	icon        []byte
	rules       []any
}

// csvMetadata is the olm.csv.metadata value of a bundle: what OLM keeps of
// its ClusterServiceVersion when the bundle objects are left out.
func (o *operator) csvMetadata(r *rand.Rand, version string) map[string]any {
	var owned, examples []any
	for _, k := range o.kinds {
		var specs []any
		for d := 0; d < 3+r.IntN(8); d++ {
			w := word(r)
			specs = append(specs, map[string]any{
				"path": fmt.Sprintf("spec.%s%d", w, d), "displayName": title(w),
				"description":   sentence(r, 8+r.IntN(10)),
				"x-descriptors": []string{"urn:alm:descriptor:com.tectonic.ui:text", "urn:alm:descriptor:com.tectonic.ui:fieldGroup:" + w},
			})
		}
		owned = append(owned, map[string]any{
			"name": k.plural + "." + k.group, "version": k.version, "kind": k.kind, "displayName": k.kind,
			"description":       sentence(r, 10),
			"resources":         []map[string]string{{"kind": "Deployment", "name": "", "version": "v1"}, {"kind": "Service", "name": "", "version": "v1"}},
			"specDescriptors":   specs,
			"statusDescriptors": []map[string]any{{"path": "conditions", "displayName": "Conditions", "x-descriptors": []string{"urn:alm:descriptor:io.kubernetes.conditions"}}},
		})
		examples = append(examples, map[string]any{
			"apiVersion": k.group + "/" + k.version, "kind": k.kind,
			"metadata": map[string]any{"name": "example-" + strings.ToLower(k.kind), "labels": map[string]string{"app.kubernetes.io/name": o.pkg}},
			"spec":     map[string]any{"size": 1 + r.IntN(5), camel(r): word(r)},
		})
	}
	almExamples, err := json.MarshalIndent(examples, "", "  ")
	if err != nil {
		panic(err)
	}
	return map[string]any{
		"annotations": map[string]string{
			"alm-examples":                           string(almExamples), // pretty-printed, as operator-sdk writes it
			"capabilities":                           "Full Lifecycle",
			"categories":                             "Database, Storage",
			"containerImage":                         fmt.Sprintf("quay.io/example/%s@sha256:%016x%016x%016x%016x", o.pkg, r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()),
			"createdAt":                              fmt.Sprintf("2025-%02d-%02dT10:%02d:00Z", 1+r.IntN(12), 1+r.IntN(28), r.IntN(60)),
			"description":                            sentence(r, 10),
			"operators.operatorframework.io/builder": "operator-sdk-v1.34.1",
			"operators.operatorframework.io/project_layout": "go.kubebuilder.io/v4",
			"repository": "https://github.com/example/" + o.pkg,
			"support":    "Example, Inc.",
		},
		"apiServiceDefinitions": map[string]any{},
		"crdDescriptions":       map[string]any{"owned": owned},
		"description":           o.description,
		"displayName":           strings.ReplaceAll(o.pkg, "-", " "),
		"installModes": []map[string]any{
			{"supported": true, "type": "OwnNamespace"}, {"supported": true, "type": "SingleNamespace"},
			{"supported": false, "type": "MultiNamespace"}, {"supported": true, "type": "AllNamespaces"},
		},
		"keywords":       []string{word(r), word(r), "operator"},
		"links":          []map[string]string{{"name": "Documentation", "url": "https://example.com/docs/" + o.pkg}},
		"maintainers":    []map[string]string{{"email": "maintainers@example.com", "name": "Example Maintainers"}},
		"maturity":       "stable",
		"minKubeVersion": "1.25.0",
		"provider":       map[string]string{"name": "Example, Inc."},
	}
}

// csv is a whole ClusterServiceVersion built around its metadata, with the
// icon, install strategy and permissions that the metadata leaves out.
func (o *operator) csv(r *rand.Rand, name, version, replaces string, meta map[string]any, images []string) map[string]any {
	annotations := meta["annotations"].(map[string]string)
	spec := map[string]any{
		"apiservicedefinitions":     map[string]any{},
		"customresourcedefinitions": meta["crdDescriptions"],
		"description":               meta["description"],
		"displayName":               meta["displayName"],
		"icon":                      []any{map[string]any{"base64data": base64.StdEncoding.EncodeToString(o.icon), "mediatype": "image/png"}},
		"install": map[string]any{
			"strategy": "deployment",
			"spec": map[string]any{
				"clusterPermissions": []any{map[string]any{"rules": o.rules, "serviceAccountName": o.pkg + "-controller-manager"}},
				"permissions":        []any{map[string]any{"rules": o.rules[:min(3, len(o.rules))], "serviceAccountName": o.pkg + "-controller-manager"}},
				"deployments":        []any{deployment(r, o.pkg, annotations["containerImage"])},
			},
		},
		"installModes":   meta["installModes"],
		"keywords":       meta["keywords"],
		"links":          meta["links"],
		"maintainers":    meta["maintainers"],
		"maturity":       meta["maturity"],
		"minKubeVersion": meta["minKubeVersion"],
		"provider":       meta["provider"],
		"version":        version,
	}
	if replaces != "" {
		spec["replaces"] = replaces
	}
	var related []any
	for i, img := range images {
		related = append(related, map[string]any{"name": fmt.Sprintf("operand-%d", i), "image": img})
	}
	spec["relatedImages"] = related
	return map[string]any{
		"apiVersion": "operators.coreos.com/v1alpha1",
		"kind":       "ClusterServiceVersion",
		"metadata":   map[string]any{"annotations": annotations, "name": name, "namespace": "placeholder"},
		"spec":       spec,
	}
}

func deployment(r *rand.Rand, pkg, image string) map[string]any {
	labels := map[string]any{"app.kubernetes.io/name": pkg, "control-plane": "controller-manager"}
	var env []any
	for i := 0; i < 2+r.IntN(10); i++ {
		env = append(env, map[string]any{"name": strings.ToUpper(word(r) + "_" + word(r)), "value": word(r)})
	}
	probe := func(path string) map[string]any {
		return map[string]any{"httpGet": map[string]any{"path": path, "port": 8081}, "initialDelaySeconds": 15, "periodSeconds": 20}
	}
	return map[string]any{
		"name":  pkg + "-controller-manager",
		"label": labels,
		"spec": map[string]any{
			"replicas": 1,
			"selector": map[string]any{"matchLabels": labels},
			"strategy": map[string]any{},
			"template": map[string]any{
				"metadata": map[string]any{"annotations": map[string]any{"kubectl.kubernetes.io/default-container": "manager"}, "labels": labels},
				"spec": map[string]any{
					"containers": []any{map[string]any{
						"args":           []string{"--leader-elect", "--health-probe-bind-address=:8081", "--metrics-bind-address=127.0.0.1:8080"},
						"command":        []string{"/manager"},
						"env":            env,
						"image":          image,
						"livenessProbe":  probe("/healthz"),
						"name":           "manager",
						"readinessProbe": probe("/readyz"),
						"resources": map[string]any{
							"limits":   map[string]any{"cpu": "500m", "memory": "512Mi"},
							"requests": map[string]any{"cpu": "10m", "memory": "64Mi"},
						},
						"securityContext": map[string]any{"allowPrivilegeEscalation": false, "capabilities": map[string]any{"drop": []string{"ALL"}}},
					}},
					"securityContext":               map[string]any{"runAsNonRoot": true},
					"serviceAccountName":            pkg + "-controller-manager",
					"terminationGracePeriodSeconds": 10,
				},
			},
		},
	}
}

// rbacRules are the permissions of an operator over its own kinds and a
// few core ones.
func rbacRules(r *rand.Rand, kinds []*kind) []any {
	rules := []any{
		map[string]any{"apiGroups": []string{""}, "resources": []string{"configmaps", "secrets", "services", "pods", "events"}, "verbs": []string{"create", "delete", "get", "list", "patch", "update", "watch"}},
		map[string]any{"apiGroups": []string{"apps"}, "resources": []string{"deployments", "statefulsets"}, "verbs": []string{"create", "delete", "get", "list", "patch", "update", "watch"}},
		map[string]any{"apiGroups": []string{"coordination.k8s.io"}, "resources": []string{"leases"}, "verbs": []string{"create", "get", "list", "update"}},
	}
	for _, k := range kinds {
		rules = append(rules,
			map[string]any{"apiGroups": []string{k.group}, "resources": []string{k.plural}, "verbs": []string{"create", "delete", "get", "list", "patch", "update", "watch"}},
			map[string]any{"apiGroups": []string{k.group}, "resources": []string{k.plural + "/finalizers", k.plural + "/status"}, "verbs": []string{"get", "patch", "update"}},
		)
	}
	for i := 0; i < r.IntN(6); i++ {
		rules = append(rules, map[string]any{"apiGroups": []string{word(r) + ".example.io"}, "resources": []string{word(r) + "s"}, "verbs": []string{"get", "list", "watch"}})
	}
	return rules
}

// smallObjects are the other manifests a bundle ships: a metrics
// service, a role, a config map.
func (o *operator) smallObjects(r *rand.Rand) []any {
	objs := []any{
		map[string]any{
			"apiVersion": "v1", "kind": "Service",
			"metadata": map[string]any{"creationTimestamp": nil, "labels": map[string]any{"control-plane": "controller-manager"}, "name": o.pkg + "-metrics-service"},
			"spec":     map[string]any{"ports": []any{map[string]any{"name": "https", "port": 8443, "protocol": "TCP", "targetPort": "https"}}, "selector": map[string]any{"control-plane": "controller-manager"}},
			"status":   map[string]any{"loadBalancer": map[string]any{}},
		},
		map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
			"metadata": map[string]any{"creationTimestamp": nil, "name": o.pkg + "-metrics-reader"},
			"rules":    []any{map[string]any{"nonResourceURLs": []string{"/metrics"}, "verbs": []string{"get"}}},
		},
	}
	if r.IntN(2) == 0 {
		objs = append(objs, map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": o.pkg + "-manager-config"},
			"data":     map[string]any{"controller_manager_config.yaml": "apiVersion: controller-runtime.sigs.k8s.io/v1alpha1\nkind: ControllerManagerConfig\nhealth:\n  healthProbeBindAddress: :8081\nleaderElection:\n  leaderElect: true\n  resourceName: " + word(r) + ".example.io\n"},
		})
	}
	return objs
}
