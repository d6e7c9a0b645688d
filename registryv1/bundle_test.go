package registryv1

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

const (
	testCSV = `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: foo.v1.0.0
spec:
  version: 1.0.0
  customresourcedefinitions:
    owned:
    - name: widgets.example.com
      version: v1
      kind: Widget
  relatedImages:
  - name: op
    image: quay.io/foo/op:1.0.0
  install:
    strategy: deployment
    spec:
      deployments:
      - spec:
          template:
            spec:
              containers:
              - image: quay.io/foo/op:1.0.0
              - image: quay.io/foo/sidecar:2
`
	testCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
  versions:
  - name: v1
`
	testAnnotations = `annotations:
  operators.operatorframework.io.bundle.package.v1: foo
  operators.operatorframework.io.bundle.channels.v1: stable,fast
  operators.operatorframework.io.bundle.channel.default.v1: stable
`
)

func testBundle() fstest.MapFS {
	return fstest.MapFS{
		"manifests/foo.csv.yaml":       {Data: []byte(testCSV)},
		"manifests/widgets.crd.yaml":   {Data: []byte(testCRD)},
		"manifests/.hidden.yaml":       {Data: []byte("kind: Secret\n")},
		"manifests/notes.txt":          {Data: []byte("not an object")},
		"metadata/annotations.yaml":    {Data: []byte(testAnnotations)},
		"metadata/dependencies.yaml":   {Data: []byte("dependencies:\n- type: olm.package\n  value:\n    packageName: bar\n    version: '>=1.0.0'\n")},
		"metadata/properties.yaml":     {Data: []byte("properties:\n- type: olm.maxOpenShiftVersion\n  value: 4.16\n")},
		"metadata/subdir/ignored.yaml": {Data: []byte("annotations: {}\n")},
	}
}

func TestParse(t *testing.T) {
	b, err := Parse(testBundle())
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "foo.v1.0.0" || b.Package != "foo" || b.Version != "1.0.0" || b.DefaultChannel != "stable" || strings.Join(b.Channels, ",") != "stable,fast" {
		t.Errorf("parsed %+v", b)
	}
	if len(b.Objects) != 2 {
		t.Errorf("%d objects, want the CSV and the CRD", len(b.Objects))
	}
	fbc, err := b.FBC("quay.io/foo/bundle:1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, p := range fbc.Properties {
		types = append(types, p.Type+"="+string(p.Value))
	}
	got := strings.Join(types, "\n")
	want := strings.Join([]string{
		`olm.bundle.object={"data":"` + "", /* checked below */
	}, "")
	if !strings.HasPrefix(got, want) {
		t.Errorf("properties:\n%s", got)
	}
	for _, w := range []string{
		`olm.gvk={"group":"example.com","kind":"Widget","version":"v1"}`,
		`olm.maxOpenShiftVersion=4.16`,
		`olm.package={"packageName":"foo","version":"1.0.0"}`,
		`olm.package.required={"packageName":"bar","versionRange":">=1.0.0"}`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("properties lack %s:\n%s", w, got)
		}
	}
	var images []string
	for _, ri := range fbc.RelatedImages {
		images = append(images, ri.Name+"@"+ri.Image)
	}
	if g := strings.Join(images, " "); g != "op@quay.io/foo/op:1.0.0 @quay.io/foo/bundle:1.0.0 @quay.io/foo/sidecar:2" {
		t.Errorf("related images (before render sorts them): %s", g)
	}
	if d := b.TemplateData(); d.Package != "foo" || d.Name != "foo.v1.0.0" || d.Version != "1.0.0" {
		t.Errorf("template data %+v", d)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(fstest.MapFS)
		want   string
	}{
		{"no manifests", func(m fstest.MapFS) {
			for k := range m {
				if strings.HasPrefix(k, "manifests/") {
					delete(m, k)
				}
			}
		}, "manifests: cannot read the manifests directory"},
		{"no objects", func(m fstest.MapFS) {
			delete(m, "manifests/foo.csv.yaml")
			delete(m, "manifests/widgets.crd.yaml")
		}, "no bundle objects found"},
		{"no csv", func(m fstest.MapFS) { delete(m, "manifests/foo.csv.yaml") }, "no csv in bundle"},
		{"no annotations", func(m fstest.MapFS) { delete(m, "metadata/annotations.yaml") }, "Could not find annotations file"},
		{"unreadable manifest", func(m fstest.MapFS) {
			m["manifests/foo.csv.yaml"] = &fstest.MapFile{Data: []byte("gone.yaml"), Mode: fs.ModeSymlink}
		}, "manifests/foo.csv.yaml: cannot read: file does not exist"},
		{"unreadable metadata", func(m fstest.MapFS) {
			m["metadata/annotations.yaml"] = &fstest.MapFile{Data: []byte("gone.yaml"), Mode: fs.ModeSymlink}
		}, "metadata/annotations.yaml: cannot read: file does not exist"},
		{"numeric version", func(m fstest.MapFS) {
			m["manifests/foo.csv.yaml"] = &fstest.MapFile{Data: []byte(strings.Replace(testCSV, "version: 1.0.0", "version: 1.0", 1))}
		}, "manifests/foo.csv.yaml:6: ClusterServiceVersion spec.version must be a string"},
		{"owned CRD missing", func(m fstest.MapFS) { delete(m, "manifests/widgets.crd.yaml") }, "manifests/foo.csv.yaml:9: error checking provided apis in bundle foo.v1.0.0: couldn't find example.com/v1/Widget (widgets)"},
		{"bad dependency", func(m fstest.MapFS) {
			m["metadata/dependencies.yaml"] = &fstest.MapFile{Data: []byte("dependencies:\n- type: olm.gvk\n  value: [1]\n")}
		}, "metadata/dependencies.yaml:2: dependency[0] (olm.gvk)"},
		{"bad release", func(m fstest.MapFS) {
			m["manifests/foo.csv.yaml"] = &fstest.MapFile{Data: []byte(strings.Replace(testCSV, "version: 1.0.0", "version: 1.0.0\n  release: [1]", 1))}
		}, "manifests/foo.csv.yaml:7: ClusterServiceVersion spec.release field must be a string or number"},
		{"bad owned name", func(m fstest.MapFS) {
			m["manifests/foo.csv.yaml"] = &fstest.MapFile{Data: []byte(strings.Replace(testCSV, "- name: widgets.example.com", "- name: widgets", 1))}
		}, "manifests/foo.csv.yaml:9: couldn't parse plural.group from crd name: widgets"},
		{"bad required name", func(m fstest.MapFS) {
			m["manifests/foo.csv.yaml"] = &fstest.MapFile{Data: []byte(strings.Replace(testCSV, "    owned:", "    required:\n    - name: gadgets\n      version: v1\n      kind: Gadget\n    owned:", 1))}
		}, "manifests/foo.csv.yaml:9: couldn't parse plural.group from crd name: gadgets"},
		{"bad property", func(m fstest.MapFS) {
			m["metadata/properties.yaml"] = &fstest.MapFile{Data: []byte("properties:\n- type: olm.package\n  value: 3\n")}
		}, "metadata/properties.yaml:2: property[0] (olm.package)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := testBundle()
			tt.change(fsys)
			b, err := Parse(fsys)
			if err == nil {
				_, err = b.FBC("")
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}
