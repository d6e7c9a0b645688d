package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
)

// tree parses YAML with lines.
func tree(t *testing.T, yaml string) *value.Value {
	t.Helper()
	v, err := parseConfigTree([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// config is a configuration file of that text.
func config(t *testing.T, file, yaml string) *Config {
	if yaml == "" {
		return &Config{File: file}
	}
	return &Config{File: file, V: tree(t, yaml)}
}

// goodCSV is a CSV that check_required_fields passes.
const goodCSV = `metadata:
  name: etcd.v1.0.0
  annotations:
    capabilities: Basic Install
    categories: Database, Storage
    containerImage: quay.io/example/etcd:v1.0.0
    createdAt: "2024-01-02T03:04:05Z"
    repository: https://github.com/example/etcd
    support: Example
    description: Runs etcd clusters.
spec:
  displayName: etcd
  description: Runs and manages etcd clusters on Kubernetes.
  icon:
  - base64data: iVBORw0KGgo=
    mediatype: image/png
  version: 1.0.0
  maintainers:
  - name: Example
    email: etcd@example.com
  provider:
    name: Example
  links:
  - name: Docs
    url: https://example.com
  keywords: [etcd]
`

// bundle makes a bundle directory operators/<op>/<dir> of a CSV (YAML)
// and annotations (YAML lines under annotations:).
func bundle(t *testing.T, op, dir, csv, ann string) *Bundle {
	t.Helper()
	d := "operators/" + op + "/" + dir
	b := &Bundle{Dir: d, CSV: tree(t, csv), CSVFile: d + "/manifests/csv.yaml", CSVLine: 1,
		AnnotationsFile: d + "/metadata/annotations.yaml", Annotations: map[string]*value.Value{},
		ReleaseConfig: &Config{File: d + "/release-config.yaml"}}
	b.Name = b.CSV.StringAt("metadata", "name")
	a := tree(t, "annotations:\n"+ann).At("annotations")
	if a != nil {
		for i := range a.Fields {
			b.Annotations[a.Fields[i].Key] = &a.Fields[i].Value
		}
	}
	if p := b.Annotations["operators.operatorframework.io.bundle.package.v1"]; p != nil {
		b.Package = p.Str
	}
	return b
}

// operator makes an operator directory of a ci.yaml and bundles.
func operator(t *testing.T, name, ci string, bundles ...*Bundle) *Operator {
	return &Operator{Dir: "operators/" + name, Name: name, Root: ".", CI: config(t, "operators/"+name+"/ci.yaml", ci),
		Repo: &Config{File: "config.yaml"}, Bundles: bundles}
}

// show writes findings one a line: "severity file:line: message".
func show(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s: %s\n", f.Severity, f.Location(), f.Message)
	}
	return b.String()
}

// expect compares findings with want, one "severity file:line: message"
// line each (a message may end with "..." to match its start).
func expect(t *testing.T, what string, got []finding.Finding, want ...string) {
	t.Helper()
	got = finding.Sort(got)
	lines := strings.Split(strings.TrimSuffix(show(got), "\n"), "\n")
	if len(got) == 0 {
		lines = nil
	}
	ok := len(lines) == len(want)
	for i := 0; ok && i < len(want); i++ {
		w, prefix := strings.CutSuffix(want[i], "...")
		ok = lines[i] == w || prefix && strings.HasPrefix(lines[i], w)
	}
	if !ok {
		t.Errorf("%s:\ngot:\n%s\nwant:\n%s", what, show(got), strings.Join(want, "\n"))
	}
}

// fieldOf is an object member holding a string.
func fieldOf(key, s string) value.Field {
	return value.Field{Key: key, Value: value.Value{Kind: value.String, Str: s}}
}
