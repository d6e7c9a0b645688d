package olmv1

import (
	"errors"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/value"
)

// A deployment spec as operator-controller writes it after reading it
// into apps/v1's DeploymentSpec: canonical quantities, no empty env
// value, no zero probe delay, the misplaced template.containers dropped
// with a warning at its line (that of its first item). The golden file is written by hand from
// Kubernetes' types, not by -update.
func TestManifestsTypedDeployment(t *testing.T) {
	r := mustManifests(t, mustBundle(t, "testdata/bundles/typed-demo_0.1.0"), ManifestOptions{InstallNamespace: "ops"})
	d := find(r.Objects, "Deployment", "typed-demo-controller")
	if d == nil {
		t.Fatal("no deployment")
	}
	golden(t, "typed-demo.deployment.yaml", yamlOf(t, []Object{*d}))
	if len(r.Warnings) != 1 {
		t.Fatalf("warnings %v, want one", r.Warnings)
	}
	w := r.Warnings[0]
	if w.Code != CodeUnknownField || !strings.HasSuffix(w.File, "manifests/typed-demo.clusterserviceversion.yaml") || w.Line != 31 ||
		!strings.Contains(w.Message, `"spec.template.containers"`) || !strings.Contains(w.Message, `"typed-demo-controller"`) {
		t.Errorf("warning %+v", w)
	}
	if !strings.Contains(NotesText(r.Notes), "# warning: "+w.String()) {
		t.Errorf("notes %q lack the warning", r.Notes)
	}
}

// typedSpec runs a deployment spec through the typed round trip and
// returns its compact JSON.
func typedSpec(t *testing.T, in string) (string, []string) {
	t.Helper()
	tree, dropped, err := typedDeploymentSpec([]byte(in))
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return string(value.Compact(tree)), dropped
}

func TestTypedDeploymentSpec(t *testing.T) {
	const head = `{"selector":null,"strategy":{},"template":{"metadata":{},"spec":{"containers":[`
	const tail = `]}}}`
	for _, tc := range []struct{ name, in, want string }{
		{"quantities",
			`{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1000m","memory":"1024Mi"},"requests":{"cpu":0.5,"memory":"1.5Gi","x":1e3}}}]}}}`,
			head + `{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m","memory":"1536Mi","x":"1e3"}}}` + tail},
		{"empty env value",
			`{"template":{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":""},{"name":"B","value":"b"}]}]}}}`,
			head + `{"env":[{"name":"A"},{"name":"B","value":"b"}],"name":"c","resources":{}}` + tail},
		{"zero probe delay",
			`{"template":{"spec":{"containers":[{"name":"c","readinessProbe":{"initialDelaySeconds":0,"timeoutSeconds":1,"exec":{"command":["true"]}}}]}}}`,
			head + `{"name":"c","readinessProbe":{"exec":{"command":["true"]},"timeoutSeconds":1},"resources":{}}` + tail},
		{"empty members",
			`{"paused":false,"template":{"metadata":{"labels":{},"creationTimestamp":null},"spec":{"containers":[{"name":"c","args":[],"ports":[{"containerPort":80,"protocol":""}]}]}}}`,
			head + `{"name":"c","ports":[{"containerPort":80}],"resources":{}}` + tail},
	} {
		got, dropped := typedSpec(t, tc.in)
		if got != tc.want || len(dropped) != 0 {
			t.Errorf("%s:\n got %s (dropped %q)\nwant %s", tc.name, got, dropped, tc.want)
		}
	}
}

// Members the types do not know are dropped and reported by path;
// members that are case variants of known ones are unknown too, as
// Kubernetes decodes member names case-sensitively.
func TestTypedDeploymentSpecUnknown(t *testing.T) {
	got, dropped := typedSpec(t, `{"Replicas":3,"template":{"containers":[{"name":"x"}],"spec":{"containers":[{"name":"c","imagePullPolicy":"Always","foo":{"bar":1}}]}}}`)
	want := `{"selector":null,"strategy":{},"template":{"metadata":{},"spec":{"containers":[{"imagePullPolicy":"Always","name":"c","resources":{}}]}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if strings.Join(dropped, " ") != "Replicas template.containers template.spec.containers[0].foo" {
		t.Errorf("dropped %q", dropped)
	}
}

// A member of the wrong type fails, as operator-controller's decoding of
// the CSV does.
func TestTypedDeploymentSpecWrongType(t *testing.T) {
	if _, _, err := typedDeploymentSpec([]byte(`{"replicas":"two"}`)); err == nil {
		t.Error("replicas: \"two\" decoded")
	}
	tree, _, err := typedDeploymentSpec(nil)
	if err != nil || tree.Kind != value.Object {
		t.Errorf("no spec: %v %v", tree, err)
	}
}

func TestLookupPath(t *testing.T) {
	tree, err := parseTree([]byte(`{"a":{"b.c":{"d":[{"e":1},{"f":{"g":2}}]},"b":{"c":{"h":3}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"a.b.c.d[1].f.g": "2",
		"a.b.c.h":        "3", // not under "b.c": under "b", "c"
		"a.b.c.d":        `[{"e":1},{"f":{"g":2}}]`,
		"a.b.c.d[0].e":   "1",
		"a.b.c.d[2]":     "",
		"a.x":            "",
		"a.b.c.d[x]":     "",
	} {
		got := ""
		if v := lookupPath(tree, path); v != nil {
			got = string(value.Compact(v))
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", path, got, want)
		}
	}
}

// A webhook's object selector is read as meta/v1's LabelSelector: empty
// members go.
func TestTypedLabelSelector(t *testing.T) {
	v, err := typedLabelSelector([]byte(`{"matchLabels":{},"matchExpressions":[{"key":"k","operator":"Exists","values":[]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(value.Compact(v)); got != `{"matchExpressions":[{"key":"k","operator":"Exists"}]}` {
		t.Errorf("got %s", got)
	}
	if v, err := typedLabelSelector(nil); v != nil || err != nil {
		t.Errorf("none: %v %v", v, err)
	}
}

// A deliberate difference: operator-controller renders a bundle whose CRD
// is apiextensions.k8s.io/v1beta1 and the apply then fails; we refuse it
// up front, naming v1beta1.
func TestManifestsRefusesV1beta1CRD(t *testing.T) {
	crd := strings.Replace(testCRD, "apiextensions.k8s.io/v1\n", "apiextensions.k8s.io/v1beta1\n", 1)
	if crd == testCRD {
		t.Fatal("test CRD has no apiextensions.k8s.io/v1 line")
	}
	b := testBundle(t, "  - type: AllNamespaces\n    supported: true\n", false, map[string]string{"manifests/crd.yaml": crd})
	_, err := Manifests(b, ManifestOptions{InstallNamespace: "ops"})
	var u *UnsupportedError
	if !errors.As(err, &u) {
		t.Fatalf("err %v, want an UnsupportedError", err)
	}
	found := false
	for _, r := range u.Reasons {
		found = found || r.Code == CodeCRD && strings.Contains(r.Message, "apiextensions.k8s.io/v1beta1") && r.File == "demo/manifests/crd.yaml"
	}
	if !found {
		t.Errorf("reasons %v do not name the v1beta1 CRD", u.Reasons)
	}
}

// A CRD is read as apiextensions.k8s.io/v1's type: a member it does not
// know is dropped with a warning at its line (that of its content), an
// empty description goes.
func TestManifestsTypedCRD(t *testing.T) {
	crd := strings.Replace(testCRD, "  - {name: v1, served: true, storage: true}\n",
		"  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        description: \"\"\n        propertes:\n          spec: {type: object}\n", 1)
	b := testBundle(t, modesAll, false, map[string]string{"manifests/crd.yaml": crd})
	r := mustManifests(t, b, ManifestOptions{InstallNamespace: "ops"})
	o := find(r.Objects, "CustomResourceDefinition", "widgets.demo.io")
	got := string(value.Compact(o.Value.At("spec", "versions", "0", "schema")))
	if got != `{"openAPIV3Schema":{"type":"object"}}` {
		t.Errorf("schema %s", got)
	}
	var warned []string
	for _, w := range r.Warnings {
		warned = append(warned, w.String())
	}
	want := `demo/manifests/crd.yaml:18: custom resource definition "widgets.demo.io": unknown field "spec.versions[0].schema.openAPIV3Schema.propertes" dropped`
	if len(warned) != 1 || !strings.HasPrefix(warned[0], want) {
		t.Errorf("warnings %q, want %s…", warned, want)
	}
}
