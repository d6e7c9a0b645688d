package osdk

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/operator-framework/api/pkg/manifests"
	apivalidation "github.com/operator-framework/api/pkg/validation"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"

	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/registryv1"
)

// readBundle reads a bundle directory as lint does (registryv1.ReadSkimmed).
func readBundle(t testing.TB, dir, k8s string) *suites.Bundle {
	t.Helper()
	f, err := registryv1.ReadSkimmed(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	return &suites.Bundle{Dir: dir, Files: f, KubernetesVersion: k8s}
}

// reference is what operator-framework/api's own loader and validators
// print for a bundle directory, composed as operator-sdk v1.36.1 composes
// them (bundle, CSV and CRD validators, then each suite's), leaving out
// what operator-sdk and operator-registry check themselves (the format
// and the objects' kinds and metadata): messages by suite, sorted.
func reference(t testing.TB, dir, k8s string) (stopped bool, msgs [2][]string) {
	t.Helper()
	b, err := manifests.GetBundleFromDir(filepath.Join(dir, "manifests"))
	if err != nil {
		return true, msgs
	}
	var def []apierrors.ManifestResult
	def = append(def, apivalidation.BundleValidator.Validate(b)...)
	def = append(def, apivalidation.ClusterServiceVersionValidator.Validate(b.CSV)...)
	var crds []any
	for _, c := range b.V1beta1CRDs {
		crds = append(crds, c)
	}
	for _, c := range b.V1CRDs {
		crds = append(crds, c)
	}
	def = append(def, apivalidation.CustomResourceDefinitionValidator.Validate(crds...)...)
	objs := append(b.ObjectsToValidate(), map[string]string{k8sVersionKey: k8s})
	for s, vs := range validators {
		results := slices.Clone(def)
		for _, v := range vs {
			results = append(results, v.Validate(objs...)...)
		}
		for _, r := range results {
			for _, e := range append(slices.Clone(r.Warnings), r.Errors...) {
				msgs[s] = append(msgs[s], levelOf(e)+" "+message(e))
			}
		}
		slices.Sort(msgs[s])
	}
	return false, msgs
}

// levelOf is the output type of a problem.
func levelOf(e apierrors.Error) string {
	if e.Level == apierrors.LevelError {
		return "error"
	}
	return "warning"
}

// ours lists the messages of a result's suite as reference does, leaving
// out the outputs reference cannot make: the format's and the objects'.
func ours(r *suites.Result, s suites.Suite) []string {
	var out []string
	for _, o := range r.Outputs(s) {
		if strings.HasPrefix(o.Message, "error validating format in ") || strings.Contains(o.Message, "for bundle object") ||
			strings.Contains(o.Message, "error validating object:") {
			continue
		}
		typ := "warning"
		if o.Error {
			typ = "error"
		}
		out = append(out, typ+" "+o.Message)
	}
	slices.Sort(out)
	return out
}

// conformanceBundles are the real bundle directories of the conformance
// data beside the checkout (or a worktree of it), and of testdata.
func conformanceBundles(t testing.TB) []string {
	t.Helper()
	var dirs []string
	for _, glob := range []string{"../../../shared/conformance/bundles/*", "../../../../shared/conformance/bundles/*",
		"../../../shared/conformance/releases/*/bundle", "../../../../shared/conformance/releases/*/bundle", "../../testdata/bundles/*"} {
		found, _ := filepath.Glob(glob)
		for _, d := range found {
			if _, err := os.Stat(path.Join(d, "manifests")); err == nil {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}
