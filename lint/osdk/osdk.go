package osdk

import (
	"crypto/sha256"
	"io/fs"

	apivalidation "github.com/operator-framework/api/pkg/validation"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	interfaces "github.com/operator-framework/api/pkg/validation/interfaces"

	"github.com/fbcat/opm/encoding/value"
)

// Bundle is a bundle directory to validate, as lint read it.
type Bundle struct {
	// Dir names the directory in messages, as the user named it.
	Dir string
	// FS holds its files: manifests/ and metadata/.
	FS fs.FS
	// Manifests are the files of manifests/ that lint decoded, by file
	// name: those whose first document is an object with a kind.
	Manifests map[string]Manifest
	// AnnotationsFile is metadata's annotations file, as a path from the
	// bundle directory ("metadata/annotations.yaml"), and Annotations its
	// annotations.
	AnnotationsFile string
	Annotations     map[string]Annotation
	// KubernetesVersion is the Kubernetes version the suites are given
	// (k8s-version), such as "1.34".
	KubernetesVersion string
}

// Manifest is a file of manifests/: its first document and the sum of
// its content.
type Manifest struct {
	Tree *value.Value
	Sum  [sha256.Size]byte
}

// Annotation is an annotation of metadata's annotations file: its value
// as text, and its line.
type Annotation struct {
	Value string
	Line  int
}

// Suite is an optional suite of operator-sdk bundle validate.
type Suite int

// The suites the pipeline runs.
const (
	// OperatorHub is --select-optional name=operatorhub: the deprecated
	// operatorhub validator alone.
	OperatorHub Suite = iota
	// OperatorFramework is --select-optional suite=operatorframework: the
	// operatorhubv2, capabilities, categories, alpha-deprecated-apis and
	// good-practices validators.
	OperatorFramework
)

// Output is one output of operator-sdk's JSON: an error or a warning,
// its message as printed, and the file and line it is about.
type Output struct {
	Error   bool
	Message string
	// File is the file the output is about, as a path from the bundle
	// directory ("manifests/x.clusterserviceversion.yaml"); "" for the
	// directory as a whole. Line is its line, 0 for the file.
	File string
	Line int
}

// Result is what operator-sdk prints for both suites.
type Result struct {
	// Stopped, when set, is why operator-sdk stops before it validates:
	// the bundle cannot be loaded. It then prints no JSON, and Default
	// and the suites are empty.
	Stopped error
	// Default are the outputs of the validators operator-sdk always runs,
	// which it prints whatever the suite.
	Default []Output
	// Optional are the outputs each suite adds, by Suite.
	Optional [2][]Output
}

// Outputs are the outputs operator-sdk prints for the suite s.
func (r *Result) Outputs(s Suite) []Output {
	out := make([]Output, 0, len(r.Default)+len(r.Optional[s]))
	return append(append(out, r.Default...), r.Optional[s]...)
}

// suites are the validators each suite selects, in operator-sdk's order.
var suites = [2][]interfaces.Validator{
	OperatorHub: {apivalidation.OperatorHubValidator}, //nolint:staticcheck // the pipeline selects the deprecated validator
	OperatorFramework: {
		apivalidation.OperatorHubV2Validator,
		apivalidation.StandardCapabilitiesValidator,
		apivalidation.StandardCategoriesValidator,
		apivalidation.AlphaDeprecatedAPIsValidator,
		apivalidation.GoodPracticesValidator,
	},
}

// Validate runs what operator-sdk bundle validate runs on the bundle b
// with each suite, loading it once; c (nil for none) keeps the costly
// verdicts by file content across bundles.
func Validate(b *Bundle, c *Cache) *Result {
	l, err := load(b, c)
	if err != nil {
		return &Result{Stopped: err}
	}
	res := &Result{Default: l.defaultOutputs(b)}
	if err := l.csvConverts(); err != nil {
		return &Result{Stopped: err}
	}
	objs := append(l.bundle.ObjectsToValidate(), map[string]string{k8sVersionKey: b.KubernetesVersion})
	for s, validators := range suites {
		for _, v := range validators {
			res.Optional[s] = append(res.Optional[s], l.outputs(v.Validate(objs...))...)
		}
	}
	return res
}

// k8sVersionKey is the optional value the suites read the Kubernetes
// version from.
const k8sVersionKey = "k8s-version"

// outputs turns validator results into outputs, warnings before errors
// in each result as operator-sdk prints them, each placed (see place).
func (l *loaded) outputs(results []apierrors.ManifestResult) []Output {
	var out []Output
	for _, r := range results {
		for _, w := range r.Warnings {
			out = append(out, l.place(w, false))
		}
		for _, e := range r.Errors {
			out = append(out, l.place(e, true))
		}
	}
	return out
}
