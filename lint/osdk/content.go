package osdk

import (
	"fmt"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	apivalidation "github.com/operator-framework/api/pkg/validation"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	k8svalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fbcat/opm/lint/osdk/suites"
)

// What operator-sdk v1.36.1 always validates, whatever the suite: the
// bundle format (format.go), then the content (its ValidateBundleContent):
// each object that is neither the CSV nor a CRD must be of a kind a
// registry+v1 bundle may hold (operator-registry v1.39.0's list) and have
// valid metadata, and the bundle, CSV and CRD validators of
// operator-framework/api run on the bundle, its CSV and its CRDs.

// supportedKinds are the kinds a registry+v1 bundle may hold besides
// the CSV and CRDs.
var supportedKinds = map[string]bool{
	"ClusterRole": true, "ClusterRoleBinding": true, "Service": true, "ServiceAccount": true,
	"Role": true, "RoleBinding": true, "PrometheusRule": true, "ServiceMonitor": true,
	"Secret": true, "ConfigMap": true, "PodDisruptionBudget": true, "PriorityClass": true,
	"VerticalPodAutoscaler": true, "ConsoleYAMLSample": true, "ConsoleQuickStart": true,
	"ConsoleCLIDownload": true, "ConsoleLink": true,
}

// defaultOutputs are the outputs of what operator-sdk always validates.
func (l *loaded) defaultOutputs(b *suites.Bundle) []suites.Output {
	out := formatOutputs(b)
	for _, f := range l.others {
		out = append(out, l.objectOutputs(f)...)
	}
	out = append(out, l.outputs(apivalidation.BundleValidator.Validate(l.bundle))...)
	out = append(out, l.outputs(apivalidation.ClusterServiceVersionValidator.Validate(l.bundle.CSV))...)
	for _, c := range l.crds {
		for _, p := range c.verdict.problems {
			o := suites.Output{Error: p.Level == apierrors.LevelError, Message: message(p)}
			o.File, o.Line = c.at(lookup(c.tree, p.Field))
			out = append(out, o)
		}
	}
	return out
}

// objectOutputs checks an object that is neither the CSV nor a CRD.
func (l *loaded) objectOutputs(f *file) []suites.Output {
	gvk := f.obj.GroupVersionKind()
	if !supportedKinds[gvk.Kind] {
		e := apierrors.ErrInvalidBundle(fmt.Sprintf("unsupported media type %s for bundle object", registryV1), gvk)
		o := suites.Output{Error: true, Message: message(e)}
		o.File, o.Line = f.at(f.tree.At("kind"))
		return []suites.Output{o}
	}
	noName := func(string, bool) []string { return nil }
	errs := k8svalidation.ValidateObjectMetaAccessor(metav1.Object(f.obj), false, noName, field.NewPath("metadata"))
	if len(errs) == 0 {
		return nil
	}
	err := fmt.Errorf("error validating object: %s. %v", errs.ToAggregate(), metav1.Object(f.obj))
	o := suites.Output{Error: true, Message: message(apierrors.ErrFailedValidation(err.Error(), f.obj.GetName()))}
	o.File, o.Line = f.at(lookup(f.tree, errs[0].Field))
	return []suites.Output{o}
}

// csvConverts checks that the CSV's object converts to its type: the
// removed-APIs check that both suites run converts it, and when that
// fails it prints the error on operator-sdk's standard output, before
// the JSON (which the pipeline then cannot read).
func (l *loaded) csvConverts() error {
	u := l.csv.obj
	if u.GetAPIVersion() != v1alpha1.SchemeGroupVersion.String() {
		return nil
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &v1alpha1.ClusterServiceVersion{}); err != nil {
		return fmt.Errorf("failed to convert unstructured.Unstructed to v1alpha1.ClusterServiceVersion: %v", err)
	}
	return nil
}
