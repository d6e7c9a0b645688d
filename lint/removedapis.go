package lint

// The APIs Kubernetes stopped serving, from the Kubernetes "Deprecated API
// Migration Guide" (kubernetes.io/docs/reference/using-api/deprecation-guide,
// "Removed APIs by release"). A new removal is one more line here.

// removedAPI is an API version of a kind that a Kubernetes release no
// longer serves.
type removedAPI struct {
	apiVersion, kind string
	// removedIn is the Kubernetes minor version (1.removedIn) that stopped
	// serving it.
	removedIn int
	// replacement is the API version to move to and since is the
	// Kubernetes minor version it is served from; "" when there is none.
	replacement string
	since       int
	// note says what else to do, if moving is not all.
	note string
}

var removedAPIs = []removedAPI{
	// v1.16
	{"extensions/v1beta1", "NetworkPolicy", 16, "networking.k8s.io/v1", 8, ""},
	{"extensions/v1beta1", "PodSecurityPolicy", 16, "policy/v1beta1", 10, ""},
	{"extensions/v1beta1", "DaemonSet", 16, "apps/v1", 9, ""},
	{"apps/v1beta2", "DaemonSet", 16, "apps/v1", 9, ""},
	{"extensions/v1beta1", "Deployment", 16, "apps/v1", 9, ""},
	{"apps/v1beta1", "Deployment", 16, "apps/v1", 9, ""},
	{"apps/v1beta2", "Deployment", 16, "apps/v1", 9, ""},
	{"apps/v1beta1", "StatefulSet", 16, "apps/v1", 9, ""},
	{"apps/v1beta2", "StatefulSet", 16, "apps/v1", 9, ""},
	{"extensions/v1beta1", "ReplicaSet", 16, "apps/v1", 9, ""},
	{"apps/v1beta1", "ReplicaSet", 16, "apps/v1", 9, ""},
	{"apps/v1beta2", "ReplicaSet", 16, "apps/v1", 9, ""},
	// v1.22
	{"admissionregistration.k8s.io/v1beta1", "MutatingWebhookConfiguration", 22, "admissionregistration.k8s.io/v1", 16, ""},
	{"admissionregistration.k8s.io/v1beta1", "ValidatingWebhookConfiguration", 22, "admissionregistration.k8s.io/v1", 16, ""},
	{"apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", 22, "apiextensions.k8s.io/v1", 16, "v1 needs spec.scope, a structural schema per version (spec.versions[*].schema.openAPIV3Schema) and no spec.preserveUnknownFields: true"},
	{"apiregistration.k8s.io/v1beta1", "APIService", 22, "apiregistration.k8s.io/v1", 10, ""},
	{"authentication.k8s.io/v1beta1", "TokenReview", 22, "authentication.k8s.io/v1", 6, ""},
	{"authorization.k8s.io/v1beta1", "LocalSubjectAccessReview", 22, "authorization.k8s.io/v1", 6, ""},
	{"authorization.k8s.io/v1beta1", "SelfSubjectAccessReview", 22, "authorization.k8s.io/v1", 6, ""},
	{"authorization.k8s.io/v1beta1", "SubjectAccessReview", 22, "authorization.k8s.io/v1", 6, ""},
	{"certificates.k8s.io/v1beta1", "CertificateSigningRequest", 22, "certificates.k8s.io/v1", 19, ""},
	{"coordination.k8s.io/v1beta1", "Lease", 22, "coordination.k8s.io/v1", 14, ""},
	{"extensions/v1beta1", "Ingress", 22, "networking.k8s.io/v1", 19, ""},
	{"networking.k8s.io/v1beta1", "Ingress", 22, "networking.k8s.io/v1", 19, ""},
	{"networking.k8s.io/v1beta1", "IngressClass", 22, "networking.k8s.io/v1", 19, ""},
	{"rbac.authorization.k8s.io/v1beta1", "ClusterRole", 22, "rbac.authorization.k8s.io/v1", 8, ""},
	{"rbac.authorization.k8s.io/v1beta1", "ClusterRoleBinding", 22, "rbac.authorization.k8s.io/v1", 8, ""},
	{"rbac.authorization.k8s.io/v1beta1", "Role", 22, "rbac.authorization.k8s.io/v1", 8, ""},
	{"rbac.authorization.k8s.io/v1beta1", "RoleBinding", 22, "rbac.authorization.k8s.io/v1", 8, ""},
	{"scheduling.k8s.io/v1beta1", "PriorityClass", 22, "scheduling.k8s.io/v1", 14, ""},
	{"storage.k8s.io/v1beta1", "CSIDriver", 22, "storage.k8s.io/v1", 19, ""},
	{"storage.k8s.io/v1beta1", "CSINode", 22, "storage.k8s.io/v1", 17, ""},
	{"storage.k8s.io/v1beta1", "StorageClass", 22, "storage.k8s.io/v1", 6, ""},
	{"storage.k8s.io/v1beta1", "VolumeAttachment", 22, "storage.k8s.io/v1", 13, ""},
	// v1.25
	{"batch/v1beta1", "CronJob", 25, "batch/v1", 21, ""},
	{"discovery.k8s.io/v1beta1", "EndpointSlice", 25, "discovery.k8s.io/v1", 21, ""},
	{"events.k8s.io/v1beta1", "Event", 25, "events.k8s.io/v1", 19, ""},
	{"autoscaling/v2beta1", "HorizontalPodAutoscaler", 25, "autoscaling/v2", 23, ""},
	{"policy/v1beta1", "PodDisruptionBudget", 25, "policy/v1", 21, "in policy/v1 an empty spec.selector selects every pod of the namespace"},
	{"policy/v1beta1", "PodSecurityPolicy", 25, "", 0, "PodSecurityPolicy has no replacement: use Pod Security Admission (and, on OpenShift, security context constraints)"},
	{"node.k8s.io/v1beta1", "RuntimeClass", 25, "node.k8s.io/v1", 20, ""},
	// v1.26
	{"flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", 26, "flowcontrol.apiserver.k8s.io/v1", 29, "Kubernetes 1.26 to 1.28 serve flowcontrol.apiserver.k8s.io/v1beta3"},
	{"flowcontrol.apiserver.k8s.io/v1beta1", "PriorityLevelConfiguration", 26, "flowcontrol.apiserver.k8s.io/v1", 29, "Kubernetes 1.26 to 1.28 serve flowcontrol.apiserver.k8s.io/v1beta3"},
	{"autoscaling/v2beta2", "HorizontalPodAutoscaler", 26, "autoscaling/v2", 23, ""},
	// v1.27
	{"storage.k8s.io/v1beta1", "CSIStorageCapacity", 27, "storage.k8s.io/v1", 24, ""},
	// v1.29
	{"flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema", 29, "flowcontrol.apiserver.k8s.io/v1", 29, ""},
	{"flowcontrol.apiserver.k8s.io/v1beta2", "PriorityLevelConfiguration", 29, "flowcontrol.apiserver.k8s.io/v1", 29, ""},
	// v1.32
	{"flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema", 32, "flowcontrol.apiserver.k8s.io/v1", 29, ""},
	{"flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration", 32, "flowcontrol.apiserver.k8s.io/v1", 29, ""},
}

// removedIndex finds removals by "apiVersion kind".
var removedIndex = func() map[string]*removedAPI {
	m := make(map[string]*removedAPI, len(removedAPIs))
	for i := range removedAPIs {
		r := &removedAPIs[i]
		m[r.apiVersion+" "+r.kind] = r
	}
	return m
}()
