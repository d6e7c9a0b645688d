package lint

import (
	"github.com/fbcat/opm/lint/linttest"
	"slices"

	"context"
	"encoding/base64"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/osdk"
)

// csvOpts shape a test CSV after real ones.
type csvOpts struct {
	name, version string
	// properties is the olm.properties annotation ("" for none).
	properties string
	// installModes lists the supported install modes (default: all four).
	installModes []string
	// extraAnnotations are added to metadata.annotations, as YAML lines.
	extraAnnotations string
	// webhooks is a spec.webhookdefinitions YAML block ("" for none).
	webhooks string
}

// testCSV writes a CSV of package etcd, shaped like community bundles.
func testCSV(o csvOpts) string {
	if o.name == "" {
		o.name = "etcdoperator.v0.9.4"
	}
	if o.version == "" {
		o.version = "0.9.4"
	}
	if o.installModes == nil {
		o.installModes = []string{"OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces"}
	}
	var modes strings.Builder
	for _, m := range []string{"OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces"} {
		supported := false
		for _, s := range o.installModes {
			supported = supported || s == m
		}
		modes.WriteString("  - type: " + m + "\n    supported: " + map[bool]string{true: "true", false: "false"}[supported] + "\n")
	}
	props := ""
	if o.properties != "" {
		props = "    olm.properties: '" + o.properties + "'\n"
	}
	return strings.NewReplacer("NAME", o.name, "VERSION", o.version, "PROPS\n", props+o.extraAnnotations,
		"MODES\n", modes.String(), "WEBHOOKS\n", o.webhooks).Replace(csvTemplate)
}

// csvTemplate is the CSV testCSV fills in.
const csvTemplate = `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: NAME
  namespace: placeholder
  annotations:
    alm-examples: '[{"apiVersion":"etcd.database.coreos.com/v1beta2","kind":"EtcdCluster","metadata":{"name":"example"},"spec":{"size":3}}]'
    capabilities: Full Lifecycle
    categories: Database
    containerImage: quay.io/coreos/etcd-operator@sha256:c0301e4686c3ed4206e370b42de5a3bd2229b9fb4906cf85f3f30650424abec2
    createdAt: "2019-02-28 01:03:00"
    description: Create and maintain highly-available etcd clusters on Kubernetes
    repository: https://github.com/coreos/etcd-operator
    support: etcd community
PROPS
spec:
  displayName: etcd
  description: |
    etcd is a distributed key value store that provides a reliable way to store data across a cluster of machines.
  keywords: [etcd, key value, database]
  version: VERSION
  maturity: alpha
  maintainers:
  - name: etcd community
    email: etcd-dev@googlegroups.com
  provider:
    name: CNCF
  links:
  - name: Blog
    url: https://coreos.com/etcd
  icon:
  - base64data: iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==
    mediatype: image/png
  installModes:
MODES
  customresourcedefinitions:
    owned:
    - name: etcdclusters.etcd.database.coreos.com
      version: v1beta2
      kind: EtcdCluster
      displayName: etcd Cluster
      description: Represents a cluster of etcd nodes.
  install:
    strategy: deployment
    spec:
      deployments:
      - name: etcd-operator
        spec:
          replicas: 1
          selector:
            matchLabels:
              name: etcd-operator-alm-owned
          template:
            metadata:
              labels:
                name: etcd-operator-alm-owned
            spec:
              serviceAccountName: etcd-operator
              containers:
              - name: etcd-operator
                image: quay.io/coreos/etcd-operator@sha256:c0301e4686c3ed4206e370b42de5a3bd2229b9fb4906cf85f3f30650424abec2
                command: [etcd-operator, --create-crd=false]
                resources:
                  requests:
                    cpu: 100m
                    memory: 64Mi
      permissions:
      - serviceAccountName: etcd-operator
        rules:
        - apiGroups: [etcd.database.coreos.com]
          resources: [etcdclusters]
          verbs: ['*']
WEBHOOKS
`

// testCRD is an apiextensions.k8s.io/v1 CRD of EtcdCluster with the
// given spec properties (YAML, indented for spec.properties) and spec
// fields required.
func testCRD(specProps string, required ...string) string {
	req := ""
	if len(required) > 0 {
		req = "            required: [" + strings.Join(required, ", ") + "]\n"
	}
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: etcdclusters.etcd.database.coreos.com
spec:
  group: etcd.database.coreos.com
  names:
    kind: EtcdCluster
    listKind: EtcdClusterList
    plural: etcdclusters
    singular: etcdcluster
  scope: Namespaced
  versions:
  - name: v1beta2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
` + req + `            properties:
` + specProps
}

// annotationsYAML is a bundle's metadata/annotations.yaml, with an
// extra annotation line if given.
func annotationsYAML(extra string) string {
	return `annotations:
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: etcd
  operators.operatorframework.io.bundle.channels.v1: alpha
  operators.operatorframework.io.bundle.channel.default.v1: alpha
` + extra
}

// bundleDir writes a bundle directory: the CSV, the annotations and any
// other manifests (file name: content).
func bundleDir(t *testing.T, dir, csv, annotations string, manifests map[string]string) string {
	t.Helper()
	files := map[string]string{
		"manifests/etcdoperator.clusterserviceversion.yaml": csv,
		"metadata/annotations.yaml":                         annotations,
	}
	for name, data := range manifests {
		files["manifests/"+name] = data
	}
	linttest.WriteFiles(t, dir, files)
	return dir
}

// run lints paths and fails the test if linting cannot run.
//
// The tests of the rules check every bundle directory as a pull request's
// own: without a baseline and a choice, run checks history as news
// (ReleasedCheck); the tests of history (history_test.go) choose.
func run(t *testing.T, paths []string, opts Options) *Result {
	t.Helper()
	if opts.Released == "" && opts.Baseline == "" {
		opts.Released = ReleasedCheck
	}
	res, err := lintInProcess(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// lintInProcess is Lint with operator-sdk's suites run in this process
// (lint/osdk's InProcess: the helper's protocol over pipes) unless the
// options say otherwise: lint's tests need no opm-osdk executable.
func lintInProcess(ctx context.Context, paths []string, opts Options) (*Result, error) {
	if opts.OSDK == nil {
		opts.OSDK = osdk.InProcess
	}
	return Lint(ctx, paths, opts)
}

// only keeps the findings of one rule: those that stand for it (see
// Finding.Rules), whichever rule names them.
func only(fs []finding.Finding, rule string) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if f.Rule == rule || slices.Contains(f.Rules, rule) {
			out = append(out, f)
		}
	}
	return out
}

// lineOf is the 1-based line of the first line of file containing s.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, s)
	return 0
}

// dump lists findings for failure messages.
func dump(fs []finding.Finding) string {
	var b strings.Builder
	for i := range fs {
		b.WriteString("\n  " + fs[i].String())
	}
	return b.String()
}

// jsonOf converts a YAML manifest to JSON.
func jsonOf(t *testing.T, y string) []byte {
	t.Helper()
	data, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func b64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }

// lastLineOf is the 1-based line of the last line of file containing s.
func lastLineOf(t *testing.T, file, s string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	last := 0
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, s) {
			last = i + 1
		}
	}
	if last == 0 {
		t.Fatalf("%s has no line with %q", file, s)
	}
	return last
}
