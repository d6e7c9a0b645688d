package olmv1

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/registryv1"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -run %s -update rewrites it):\n%s", name, t.Name(), firstDiff(got, want))
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "line " + string(rune('0'+i%10)) + ": got " + la[i] + "\nwant " + lb[i]
		}
	}
	return "lengths differ"
}

func mustBundle(t *testing.T, dir string) *Bundle {
	t.Helper()
	b, err := BundleFromDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustManifests(t *testing.T, b *Bundle, opts ManifestOptions) *ManifestSet {
	t.Helper()
	r, err := Manifests(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func yamlOf(t *testing.T, objs []Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteYAML(&buf, objs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The rendered objects of real bundles, byte for byte: one plain, one
// with webhooks served with cert-manager certificates.
func TestManifestsGolden(t *testing.T) {
	for _, tc := range []struct{ dir, golden string }{
		{"../testdata/bundles/ack-ecrpublic-controller_1.0.14", "ack-ecrpublic-controller.manifests.yaml"},
		{"testdata/bundles/service-binding-operator_1.0.1", "service-binding-operator.manifests.yaml"},
	} {
		r := mustManifests(t, mustBundle(t, tc.dir), ManifestOptions{InstallNamespace: "operators"})
		golden(t, tc.golden, yamlOf(t, r.Objects))
		again := mustManifests(t, mustBundle(t, tc.dir), ManifestOptions{InstallNamespace: "operators"})
		if !bytes.Equal(yamlOf(t, r.Objects), yamlOf(t, again.Objects)) {
			t.Errorf("%s: two renders differ", tc.dir)
		}
	}
}

func find(objs []Object, kind, name string) *Object {
	for i := range objs {
		if objs[i].Kind() == kind && (name == "" || objs[i].Name() == name) {
			return &objs[i]
		}
	}
	return nil
}

func count(objs []Object, kind string) int {
	n := 0
	for _, o := range objs {
		if o.Kind() == kind {
			n++
		}
	}
	return n
}

// AllNamespaces: permissions become cluster roles with the namespaces
// rule; the deployments watch "".
func TestManifestsAllNamespaces(t *testing.T) {
	r := mustManifests(t, mustBundle(t, "../testdata/bundles/ack-ecrpublic-controller_1.0.14"), ManifestOptions{InstallNamespace: "ns"})
	if count(r.Objects, "Role") != 2 || count(r.Objects, "ClusterRole") != 2 || count(r.Objects, "ClusterRoleBinding") != 2 {
		t.Errorf("roles: %d Role, %d ClusterRole, %d ClusterRoleBinding", count(r.Objects, "Role"), count(r.Objects, "ClusterRole"), count(r.Objects, "ClusterRoleBinding"))
	}
	d := find(r.Objects, "Deployment", "")
	if got := d.Value.StringAt("spec", "template", "metadata", "annotations", "olm.targetNamespaces"); got != "" {
		t.Errorf("olm.targetNamespaces = %q", got)
	}
	if v := d.Value.At("spec", "revisionHistoryLimit"); v == nil || v.Num != 1 {
		t.Errorf("revisionHistoryLimit %v", v)
	}
	if d.Namespace() != "ns" {
		t.Errorf("deployment namespace %q", d.Namespace())
	}
	if len(r.TargetNamespaces) != 1 || r.TargetNamespaces[0] != "" {
		t.Errorf("targets %q", r.TargetNamespaces)
	}
}

// testCSV is a small CSV whose install modes, permissions and webhooks
// the tests choose.
const testCSV = `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: demo.v1.0.0
  annotations:
    shared: from-csv
spec:
  version: 1.0.0
  installModes:
MODES
  customresourcedefinitions:
    owned:
    - {name: widgets.demo.io, version: v1, kind: Widget}
  install:
    strategy: deployment
    spec:
      permissions:
      - serviceAccountName: demo
        rules:
        - {apiGroups: [""], resources: [configmaps], verbs: [get, list]}
      - rules:
        - {apiGroups: [""], resources: [pods], verbs: [get]}
      clusterPermissions:
      - serviceAccountName: demo
        rules:
        - {apiGroups: [demo.io], resources: [widgets], verbs: ["*"]}
      deployments:
      - name: demo.controller
        label: {app: demo}
        spec:
          selector: {matchLabels: {app: demo}}
          template:
            metadata:
              annotations: {shared: from-template}
            spec:
              serviceAccountName: demo
              containers:
              - name: manager
                image: demo:1
                volumeMounts:
                - {name: old-cert, mountPath: /tmp/k8s-webhook-server/serving-certs}
              volumes:
              - name: old-cert
                secret: {secretName: old}
  webhookdefinitions:
  - type: ValidatingAdmissionWebhook
    generateName: vwidget.demo.io
    deploymentName: demo.controller
    containerPort: 9443
    admissionReviewVersions: [v1]
    sideEffects: None
    failurePolicy: Fail
    rules:
    - {operations: [CREATE], apiGroups: [demo.io], apiVersions: [v1], resources: [widgets]}
  - type: MutatingAdmissionWebhook
    generateName: mwidget.demo.io
    deploymentName: demo.controller
    targetPort: 9444
    admissionReviewVersions: [v1]
    sideEffects: None
    reinvocationPolicy: IfNeeded
    webhookPath: /mutate
CONVERSION
`

const conversionWebhook = `  - type: ConversionWebhook
    generateName: cwidget.demo.io
    deploymentName: demo.controller
    containerPort: 9443
    admissionReviewVersions: [v1]
    sideEffects: None
    conversionCRDs: [widgets.demo.io]
`

// The install modes of test bundles.
const (
	modesAll = "  - {type: AllNamespaces, supported: true}\n"
	modesOwn = "  - {type: OwnNamespace, supported: true}\n  - {type: SingleNamespace, supported: true}\n  - {type: AllNamespaces, supported: false}\n"
	modesAny = modesAll + "  - {type: OwnNamespace, supported: true}\n  - {type: SingleNamespace, supported: true}\n"
)

const testCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.demo.io
spec:
  group: demo.io
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true}
`

// testBundle makes a bundle of the test CSV with the install modes, the
// conversion webhook if asked, and extra files.
func testBundle(t *testing.T, modes string, conversion bool, extra map[string]string) *Bundle {
	t.Helper()
	csv := strings.Replace(testCSV, "MODES\n", modes, 1)
	conv := ""
	if conversion {
		conv = conversionWebhook
	}
	csv = strings.Replace(csv, "CONVERSION\n", conv, 1)
	fsys := fstest.MapFS{
		"manifests/demo.csv.yaml": {Data: []byte(csv)},
		"manifests/crd.yaml":      {Data: []byte(testCRD)},
		"metadata/annotations.yaml": {Data: []byte(`annotations:
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: demo
  operators.operatorframework.io.bundle.channels.v1: alpha
`)},
	}
	for k, v := range extra {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	b, err := BundleFromFS(fsys, "demo")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A SingleNamespace install: Roles in the watched namespace, bound to
// the install namespace's accounts; webhooks limited to it; the
// conversion webhook and certificates wired.
func TestManifestsSingleNamespaceWebhooks(t *testing.T) {
	b := testBundle(t, modesOwn, false, map[string]string{"manifests/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\n"})
	r := mustManifests(t, b, ManifestOptions{InstallNamespace: "ops", WatchNamespace: "team"})
	golden(t, "demo.single.manifests.yaml", yamlOf(t, r.Objects))
	role := find(r.Objects, "Role", "")
	if role == nil || role.Namespace() != "team" {
		t.Fatalf("role %v", role)
	}
	if count(r.Objects, "Role") != 2 || count(r.Objects, "ServiceAccount") != 1 {
		t.Errorf("%d roles, %d service accounts", count(r.Objects, "Role"), count(r.Objects, "ServiceAccount"))
	}
	if cm := find(r.Objects, "ConfigMap", "cfg"); cm == nil || cm.Namespace() != "ops" {
		t.Errorf("config map %v", cm)
	}
	d := find(r.Objects, "Deployment", "demo.controller")
	ann := d.Value.At("spec", "template", "metadata", "annotations")
	if ann.StringAt("shared") != "from-template" || ann.StringAt("olm.targetNamespaces") != "team" {
		t.Errorf("annotations %v", stringMap(ann))
	}
	vols := itemsOf(d.Value.At("spec", "template", "spec", "volumes"))
	if len(vols) != 2 || vols[0].StringAt("secret", "secretName") != "demo-controller-service-cert" || vols[1].StringAt("name") != "apiservice-cert" {
		t.Errorf("volumes %v", vols)
	}
	svc := find(r.Objects, "Service", "demo-controller-service")
	if svc == nil || len(itemsOf(svc.Value.At("spec", "ports"))) != 2 {
		t.Fatalf("service %v", svc)
	}
	v := find(r.Objects, "ValidatingWebhookConfiguration", "vwidget.demo.io")
	if v == nil || v.Value.At("webhooks") == nil {
		t.Fatal("no validating webhook")
	}
	if m := find(r.Objects, "MutatingWebhookConfiguration", "mwidget.demo.io"); m == nil {
		t.Error("no mutating webhook (generateName's trailing - dropped)")
	}
	if find(r.Objects, "Issuer", "") == nil || find(r.Objects, "Certificate", "demo-controller-service-cert") == nil {
		t.Error("no cert-manager objects")
	}
	if len(r.Notes) < 2 {
		t.Errorf("notes %q", r.Notes)
	}
}

// A conversion webhook points the CRD at the webhook's service, with the
// CA injected.
func TestManifestsConversionWebhook(t *testing.T) {
	r := mustManifests(t, testBundle(t, modesAll, true, nil), ManifestOptions{InstallNamespace: "ops"})
	golden(t, "demo.conversion.manifests.yaml", yamlOf(t, r.Objects))
	crd := find(r.Objects, "CustomResourceDefinition", "widgets.demo.io")
	if crd.Value.StringAt("spec", "conversion", "webhook", "clientConfig", "service", "name") != "demo-controller-service" ||
		crd.Value.StringAt("metadata", "annotations", "cert-manager.io/inject-ca-from") != "ops/demo-controller-service-cert" {
		t.Errorf("conversion not wired: %s", yamlOf(t, []Object{*crd}))
	}
}

// OwnNamespace: the watch namespace is the install namespace.
func TestManifestsOwnNamespace(t *testing.T) {
	r := mustManifests(t, testBundle(t, modesOwn, false, nil), ManifestOptions{InstallNamespace: "ops", WatchNamespace: "ops"})
	if role := find(r.Objects, "Role", ""); role == nil || role.Namespace() != "ops" {
		t.Errorf("role %v", role)
	}
}

func TestManifestsRefusals(t *testing.T) {
	single := testBundle(t, modesOwn, false, nil)
	all := testBundle(t, modesAny, false, nil)
	for _, tc := range []struct {
		b    *Bundle
		opts ManifestOptions
		want string
	}{
		{all, ManifestOptions{}, "ManifestOptions.InstallNamespace is required"},
		{all, ManifestOptions{InstallNamespace: "Bad_NS"}, "RFC 1123 label"},
		{single, ManifestOptions{InstallNamespace: "ops"}, "does not support AllNamespaces"},
		{all, ManifestOptions{InstallNamespace: "ops", NoWebhooks: true}, "webhookDefinitions are not supported"},
		{single, ManifestOptions{InstallNamespace: "ops", WatchNamespace: "Bad"}, `ManifestOptions.WatchNamespace "Bad": a lowercase RFC 1123 subdomain`},
		{all, ManifestOptions{InstallNamespace: "ops", WatchNamespace: "team"}, ""},
	} {
		_, err := Manifests(tc.b, tc.opts)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.opts, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.opts, err, tc.want)
		}
	}
	_, err := Manifests(single, ManifestOptions{InstallNamespace: "ops"})
	var u *UnsupportedError
	if !errors.As(err, &u) || len(u.Reasons) == 0 || u.Reasons[0].Code != CodeAllNamespaces {
		t.Errorf("error %v is not an UnsupportedError with reasons", err)
	}
}

func TestTargetNamespaces(t *testing.T) {
	mk := func(modes ...string) *Bundle {
		b := &Bundle{Name: "x"}
		for _, m := range modes {
			b.meta.InstallModes = append(b.meta.InstallModes, registryv1.InstallMode{Type: m, Supported: true})
		}
		return b
	}
	for _, tc := range []struct {
		b              *Bundle
		install, watch string
		want           string // target, or "error"
	}{
		{mk("AllNamespaces"), "a", "", ""},
		{mk("SingleNamespace"), "a", "", "error"},
		{mk("AllNamespaces"), "a", "b", "error"},
		{mk("SingleNamespace"), "a", "a", "error"},
		{mk("OwnNamespace"), "a", "b", "error"},
		{mk("OwnNamespace"), "a", "a", "a"},
		{mk("SingleNamespace", "OwnNamespace"), "a", "b", "b"},
	} {
		targets, _, err := tc.b.targetNamespaces(ManifestOptions{InstallNamespace: tc.install, WatchNamespace: tc.watch})
		switch {
		case tc.want == "error" && err == nil:
			t.Errorf("%v %s/%s: no error", tc.b.meta.InstallModes, tc.install, tc.watch)
		case tc.want != "error" && (err != nil || len(targets) != 1 || targets[0] != tc.want):
			t.Errorf("%v %s/%s: %q, %v", tc.b.meta.InstallModes, tc.install, tc.watch, targets, err)
		}
	}
}

func TestManifestsCatalogBundleWithoutManifests(t *testing.T) {
	b := &Bundle{Name: "x", Image: "quay.io/x/y:1"}
	b.meta.InstallModes = []registryv1.InstallMode{{Type: "AllNamespaces", Supported: true}}
	if _, err := Manifests(b, ManifestOptions{InstallNamespace: "ns"}); err == nil || !strings.Contains(err.Error(), "quay.io/x/y:1") {
		t.Errorf("error %v", err)
	}
}

func TestWriteJSON(t *testing.T) {
	r := mustManifests(t, mustBundle(t, "../testdata/bundles/ack-ecrpublic-controller_1.0.14"), ManifestOptions{InstallNamespace: "ns"})
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r.Objects); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "{\n  \"apiVersion\": \"v1\",\n  \"items\": [") {
		t.Errorf("JSON starts %q", buf.String()[:40])
	}
}
