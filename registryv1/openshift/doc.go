// Package openshift reads the OpenShift versions bundles and catalogs are
// for, as OLM and the community and certified pipelines read them: a
// release (Version, read by the one parser of "v4.17", ParseVersion), a
// set of releases (Range), a bundle's com.redhat.openshift.versions
// annotation (ParseVersionsAnnotation), a CSV's olm.maxOpenShiftVersion
// property (ParseMaxVersion), the newest release known (Newest), and the
// Kubernetes release each OpenShift release runs (OpenShift 4.N runs
// Kubernetes 1.(N+13)).
//
// ParseVersion takes "v4.17" or "4.17" of any major version; what a
// caller accepts beyond that (a catalog directory's name needs the v,
// the annotation OpenShift 4) is its own check on the result.
package openshift
