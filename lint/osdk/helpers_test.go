package osdk

import (
	"crypto/sha256"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/operator-framework/api/pkg/manifests"
	apivalidation "github.com/operator-framework/api/pkg/validation"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// readBundle reads a bundle directory as lint does: the first document
// of each manifest that is an object with a kind, and metadata/'s
// annotations.yaml.
func readBundle(t testing.TB, dir, k8s string) *Bundle {
	t.Helper()
	fsys := os.DirFS(dir)
	b := &Bundle{Dir: dir, FS: fsys, Manifests: map[string]Manifest{}, KubernetesVersion: k8s,
		AnnotationsFile: "metadata/annotations.yaml", Annotations: map[string]Annotation{}}
	entries, err := os.ReadDir(filepath.Join(dir, "manifests"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, "manifests", e.Name()))
		if err != nil || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if v, ok := registryv1.FirstObject(data, 30); ok && v.StringAt("kind") != "" {
			b.Manifests[e.Name()] = Manifest{Tree: v, Sum: sha256.Sum256(data)}
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, b.AnnotationsFile))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := registryv1.FirstObject(data, 30)
	if a := v.At("annotations"); a != nil {
		for i := range a.Fields {
			s, _ := value.Text(&a.Fields[i].Value)
			b.Annotations[a.Fields[i].Key] = Annotation{Value: s, Line: int(a.Fields[i].Value.Line)}
		}
	}
	return b
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
	for s, validators := range suites {
		results := slices.Clone(def)
		for _, v := range validators {
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
func ours(r *Result, s Suite) []string {
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
