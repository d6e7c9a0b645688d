package osdk

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/operator-framework/api/pkg/encoding"
	"github.com/operator-framework/api/pkg/manifests"

	"github.com/fbcat/opm/lint/osdk/suites"
)

// The facts below were read in operator-sdk v1.36.1 (the version the
// pipeline's image installs), its operator-registry v1.39.0 and
// operator-framework/api v0.45.0 (the newest the module proxy serves;
// v1.36.1 builds with v0.23.0, whose validators print the same but for
// two checks v0.45.0 adds: see docs/lint.md):
//   - bundle validate loads manifests/ with manifests.GetBundleFromDir
//     and exits before printing JSON when that fails (a hidden file or a
//     subdirectory in manifests/, a file that is no object with a kind,
//     a second CSV, a CSV or CRD that does not decode into its type);
//   - it always runs the format check (annotations, dependencies), the
//     objects' kinds and metadata, and the bundle, CSV and CRD
//     validators; --select-optional name=operatorhub adds the deprecated
//     operatorhub validator, suite=operatorframework the operatorhubv2,
//     capabilities, categories, alpha-deprecated-apis and good-practices
//     validators, all given k8s-version;
//   - -o json-alpha1 prints each result's warnings ("warning") then its
//     errors ("error"), each message the error's Error().

// node is a real bundle that operator-sdk finds nothing wrong with but
// the operatorhub validator's deprecation warning.
const node = "../../testdata/bundles/node-healthcheck-operator_0.6.0"

// nodeCSV is its CSV manifest.
const nodeCSV = "manifests/node-healthcheck-operator.clusterserviceversion.yaml"

// seeded copies the bundle src to a temporary directory and makes the
// edits (file from the bundle directory, then old and new text, "" old
// to write the file anew).
func seeded(t *testing.T, src string, edits ...[3]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		p := filepath.Join(dir, e[0])
		data, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		text := e[2]
		if e[1] != "" {
			if !strings.Contains(string(data), e[1]) {
				t.Fatalf("%s has no %q", p, e[1])
			}
			text = strings.Replace(string(data), e[1], e[2], 1)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// outputOf finds the output of suite s whose message has want in it.
func outputOf(t *testing.T, r *suites.Result, s suites.Suite, want string) suites.Output {
	t.Helper()
	for _, o := range r.Outputs(s) {
		if strings.Contains(o.Message, want) {
			return o
		}
	}
	t.Fatalf("suite %d: no output with %q in %+v", s, want, r.Outputs(s))
	return suites.Output{}
}

func TestRealBundleClean(t *testing.T) {
	r := Validate(readBundle(t, node, "1.34"), nil)
	if r.Stopped != nil || len(r.Default) != 0 || len(r.Optional[suites.OperatorFramework]) != 0 || len(r.Optional[suites.OperatorHub]) != 1 {
		t.Fatalf("want the deprecation warning only: %+v", r)
	}
	o := r.Optional[suites.OperatorHub][0]
	want := `Warning: Value : The "operatorhub" validator is deprecated; for equivalent validation use "operatorhub/v2", "standardcapabilities" and "standardcategories" validators`
	if o.Error || o.Message != want || o.File != nodeCSV {
		t.Fatalf("got %+v", o)
	}
}

// A category OperatorHub does not know fails both suites: the deprecated
// operatorhub validator and the categories validator check it.
func TestBadCategory(t *testing.T) {
	dir := seeded(t, node, [3]string{nodeCSV, "categories: OpenShift Optional", "categories: OpenShift Optional,Databases"})
	r := Validate(readBundle(t, dir, "1.34"), nil)
	want := `Error: Value : (node-healthcheck-operator.v0.6.0) csv.Metadata.Annotations["categories"] value "Databases" is not in the set of standard categories`
	for _, s := range []suites.Suite{suites.OperatorHub, suites.OperatorFramework} {
		o := outputOf(t, r, s, "categories")
		if !o.Error || o.Message != want || o.File != nodeCSV || o.Line != 45 {
			t.Errorf("suite %d: got %+v", s, o)
		}
	}
}

// A capability level OperatorHub does not know fails the operatorframework
// suite (its capabilities validator) and the operatorhub suite: every
// error of the first is one of the second's too, or (no deployments) of
// the CSV validator's, which both suites print.
func TestBadCapability(t *testing.T) {
	dir := seeded(t, node, [3]string{nodeCSV, "capabilities: Basic Install", "capabilities: Fancy"})
	r := Validate(readBundle(t, dir, "1.34"), nil)
	want := `Error: Value : (node-healthcheck-operator.v0.6.0) csv.Metadata.Annotations.Capabilities "Fancy" is not a valid capabilities level`
	for _, s := range []suites.Suite{suites.OperatorFramework, suites.OperatorHub} {
		o := outputOf(t, r, s, "capabilities level")
		if !o.Error || o.Message != want || o.File != nodeCSV || o.Line != 44 {
			t.Errorf("suite %d: got %+v", s, o)
		}
	}
	dir = seeded(t, node, [3]string{nodeCSV, "      deployments:", "      deploymentz:"})
	r = Validate(readBundle(t, dir, "1.34"), nil)
	if o := outputOf(t, r, suites.OperatorFramework, "unable to find a deployment"); !o.Error || o.Message != "Error: Value node-healthcheck-operator.v0.6.0: unable to find a deployment to install in the CSV" {
		t.Errorf("got %+v", o)
	}
	if o := outputOf(t, r, suites.OperatorHub, "DeploymentSpecs"); !o.Error || o.Message != "Error: Field Spec.InstallStrategy.StrategySpec.DeploymentSpecs, Value field: required field missing" || o.Line != 239 {
		t.Errorf("got %+v", o)
	}
}

// A removed API is an error for a Kubernetes version that no longer
// serves it and a warning for one that does, in both suites, at the
// object's manifest.
func TestRemovedAPI(t *testing.T) {
	pdb := "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: zz-pdb\nspec:\n  minAvailable: 1\n"
	dir := seeded(t, node, [3]string{"manifests/zz-pdb.yaml", "", pdb})
	for k8s, isErr := range map[string]bool{"1.24": false, "1.25": true} {
		r := Validate(readBundle(t, dir, k8s), nil)
		for _, s := range []suites.Suite{suites.OperatorHub, suites.OperatorFramework} {
			o := outputOf(t, r, s, "removed in v1.25")
			if o.Error != isErr || o.File != "manifests/zz-pdb.yaml" || !strings.HasSuffix(o.Message, `Migrate the API(s) for PodDisruptionBudget: (["zz-pdb"])`) {
				t.Errorf("k8s %s, suite %d: got %+v", k8s, s, o)
			}
		}
	}
}

// What stops the loader stops operator-sdk: no JSON. The library's own
// loader agrees on each.
func TestStopped(t *testing.T) {
	tests := map[string][3]string{
		"hidden file":   {"manifests/.keep", "", ""},
		"subdirectory":  {"manifests/sub/x.yaml", "", "kind: ConfigMap\n"},
		"no object":     {"manifests/notes.yaml", "", "just: text\n"},
		"second CSV":    {"manifests/other.yaml", "", "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: other.v1.0.0\n"},
		"bad version":   {nodeCSV, "  version: 0.6.0", "  version: not-a-version"},
		"CRD version":   {"manifests/remediation.medik8s.io_nodehealthchecks.yaml", "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v2"},
		"CRD not typed": {"manifests/remediation.medik8s.io_nodehealthchecks.yaml", "  scope: Cluster", "  scope: [Cluster]"},
	}
	for name, edit := range tests {
		t.Run(name, func(t *testing.T) {
			dir := seeded(t, node, edit)
			if r := Validate(readBundle(t, dir, "1.34"), nil); r.Stopped == nil {
				t.Errorf("not stopped: %+v", r)
			}
			if _, err := manifests.GetBundleFromDir(filepath.Join(dir, "manifests")); err == nil {
				t.Errorf("the library's loader reads it")
			}
		})
	}
}

// The format check: one error naming every problem, sorted, at the first
// annotation it names.
func TestFormat(t *testing.T) {
	dir := seeded(t, node,
		[3]string{"metadata/annotations.yaml", "mediatype.v1: registry+v1", "mediatype.v1: plain"},
		[3]string{"metadata/annotations.yaml", "channels.v1: stable", "channels.v1: \"\""},
		[3]string{"metadata/dependencies.yaml", "    version: v1alpha1", "    version: \"\""})
	r := Validate(readBundle(t, dir, "1.34"), nil)
	o := outputOf(t, r, suites.OperatorHub, "error validating format")
	want := "error validating format in " + dir + `: Bundle validation errors: Expecting annotation "operators.operatorframework.io.bundle.channels.v1" to have non-empty value,` +
		`Expecting annotation "operators.operatorframework.io.bundle.mediatype.v1" to have value "registry+v1" instead of "plain",API Version is empty`
	if !o.Error || o.Message != want || o.File != "metadata/annotations.yaml" || o.Line != 3 {
		t.Errorf("got %+v\nwant %s", o, want)
	}
}

// The objects but the CSV and CRDs: a kind a registry+v1 bundle may not
// hold, and metadata Kubernetes refuses.
func TestObjects(t *testing.T) {
	dir := seeded(t, node,
		[3]string{"manifests/zz-deploy.yaml", "", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n"},
		[3]string{"manifests/zz-cm.yaml", "", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    bad key: x\n"})
	r := Validate(readBundle(t, dir, "1.34"), nil)
	o := outputOf(t, r, suites.OperatorHub, "unsupported media type")
	if o.Message != "Error: Value apps/v1, Kind=Deployment: unsupported media type registry+v1 for bundle object" || o.File != "manifests/zz-deploy.yaml" || o.Line != 2 {
		t.Errorf("got %+v", o)
	}
	o = outputOf(t, r, suites.OperatorFramework, "error validating object")
	if !strings.HasPrefix(o.Message, `Error: Value c: error validating object: metadata.labels: Invalid value: "bad key"`) || o.File != "manifests/zz-cm.yaml" || o.Line != 6 {
		t.Errorf("got %+v", o)
	}
}

// Where outputs point: the CSV field or the object a message names.
func TestPlaces(t *testing.T) {
	dir := seeded(t, node,
		[3]string{nodeCSV, "  minKubeVersion: 1.20.0", "  minKubeVersion: one"},
		[3]string{nodeCSV, "  - email: medik8s@googlegroups.com", "  - email: not an address"},
		[3]string{"manifests/zz-sa.yaml", "", "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: node-healthcheck-controller-manager\n"},
		[3]string{nodeCSV, `"kind": "NodeHealthCheck",`, `"kind": "NodeHealthChecks",`})
	r := Validate(readBundle(t, dir, "1.34"), nil)
	for _, tt := range []struct {
		want, file string
		line       int
	}{
		{"csv.Spec.MinKubeVersion has an invalid value: one", nodeCSV, 612},
		{"csv.Spec.Maintainers email not an address is invalid", nodeCSV, 609},
		{"This service account node-healthcheck-controller-manager", "manifests/zz-sa.yaml", 1},
		{"Kind=NodeHealthCheck: provided API should have an example annotation", nodeCSV, 5},
		{"Kind=NodeHealthChecks: example must have a provided API", nodeCSV, 5},
	} {
		if o := outputOf(t, r, suites.OperatorHub, tt.want); o.File != tt.file || o.Line != tt.line {
			t.Errorf("%q at %s:%d, want %s:%d", tt.want, o.File, o.Line, tt.file, tt.line)
		}
	}
}

// The CRD validator's bad values are pointers: printed as the value, not
// an address that changes from run to run.
func TestCRDMessageStable(t *testing.T) {
	dir := seeded(t, node, [3]string{"manifests/remediation.medik8s.io_nodehealthchecks.yaml", "  scope: Cluster", "  scope: Cluster\n  preserveUnknownFields: true"})
	r := Validate(readBundle(t, dir, "1.34"), nil)
	o := outputOf(t, r, suites.OperatorHub, "preserveUnknownFields")
	want := "Error: Field spec.preserveUnknownFields, Value true: spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema"
	if !o.Error || o.Message != want || o.File != "manifests/remediation.medik8s.io_nodehealthchecks.yaml" || o.Line != 20 {
		t.Errorf("got %+v", o)
	}
	if got := sortRemovedAPIs(`x. Migrate the API(s) for Role: (["b"]),CRD: (["a"])`); got != `x. Migrate the API(s) for CRD: (["a"]),Role: (["b"])` {
		t.Errorf("sorted: %s", got)
	}
}

// compressedBound is never below the size the loader measures, and
// gzipBase64Size is that size.
func TestCompressedBound(t *testing.T) {
	random := make([]byte, 300_000)
	if _, err := rand.Read(random); err != nil {
		t.Fatal(err)
	}
	samples := [][]byte{nil, []byte("x"), random, []byte(strings.Repeat("abc", 100_000))}
	for _, dir := range conformanceBundles(t) {
		files, _ := filepath.Glob(filepath.Join(dir, "manifests", "*"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				samples = append(samples, data)
			}
		}
	}
	for _, data := range samples {
		enc, err := encoding.GzipBase64Encode(data)
		if err != nil {
			t.Fatal(err)
		}
		if bound := compressedBound(int64(len(data))); int64(len(enc)) > bound {
			t.Errorf("%d bytes compress to %d, over the bound %d", len(data), len(enc), bound)
		}
		if n := gzipBase64Size(data, nil); n != int64(len(enc)) {
			t.Errorf("%d bytes: size %d, the library's %d", len(data), n, len(enc))
		}
	}
}
