package declcfg

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReloadBundle(t *testing.T) {
	obj := `{"data":"eyJraW5kIjoiU2VydmljZSJ9"}` // {"kind":"Service"}
	bundle := func(name string) string {
		return `{"schema":"olm.bundle","package":"foo","name":"` + name + `","image":"quay.io/x/y:1","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}},{"type":"olm.bundle.object","value":` + obj + `},{"type":"olm.csv.metadata","value":{"displayName":"Foo"}}]}`
	}
	yamlBundle := func(name string) string {
		return "schema: olm.bundle\r\npackage: foo\r\nname: " + name + "\r\nproperties:\r\n- type: olm.bundle.object\r\n  value:\r\n    data: eyJraW5kIjoiU2VydmljZSJ9\r\n- type: olm.csv.metadata\r\n  value: {displayName: Foo}\r\n"
	}
	fsys := fstest.MapFS{
		"a/stream.json": file(pkgJSON + "\n\n  " + bundle("foo.a") + bundle("foo.b") + "\n"),
		"b/docs.yaml":   file("---\n" + yamlBundle("foo.c") + "---\n# comment\n" + yamlBundle("foo.d")),
		// One JSON object, then YAML: upstream's fallback.
		"c/mixed": file(bundle("foo.e") + "\n---\n" + yamlBundle("foo.f")),
	}
	full, problems := load(t, fsys)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	lean, problems := load(t, fsys, WithoutBulkValues())
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	if len(lean.Bundles) != 6 {
		t.Fatalf("%d bundles", len(lean.Bundles))
	}
	for i, b := range lean.Bundles {
		if b.Properties[len(b.Properties)-1].Value != nil {
			t.Fatalf("%s: bulk values kept", b.Name)
		}
		got, err := ReloadBundle(fsys, &b)
		if err != nil {
			t.Fatalf("%s: %v", b.Name, err)
		}
		if !reflect.DeepEqual(got, &full.Bundles[i]) {
			t.Errorf("%s: reloaded\n%+v\nloaded\n%+v", b.Name, got, full.Bundles[i])
		}
	}

	// A catalog that changed under the server is noticed.
	b := lean.Bundles[0]
	fsys["a/stream.json"] = file(pkgJSON + "\n\n  " + bundle("foo.x") + bundle("foo.b") + "\n")
	if _, err := ReloadBundle(fsys, &b); err == nil || !strings.Contains(err.Error(), `found olm.bundle "foo.x"`) {
		t.Errorf("changed file: %v", err)
	}
	delete(fsys, "a/stream.json")
	if _, err := ReloadBundle(fsys, &b); err == nil || !strings.Contains(err.Error(), "a/stream.json") {
		t.Errorf("missing file: %v", err)
	}
}
