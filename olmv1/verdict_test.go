package olmv1

import (
	"strings"
	"testing"
)

func TestUnsupportedRepositoryBundles(t *testing.T) {
	for _, tc := range []struct {
		dir   string
		codes []string
	}{
		{"../testdata/bundles/ack-ecrpublic-controller_1.0.14", nil},
		{"../testdata/bundles/node-healthcheck-operator_0.6.0", []string{CodeDependency}},
		{"../testdata/bundles/pelorus-operator_0.0.2", []string{CodeAllNamespaces, CodeDependency, CodeDependency}},
	} {
		b, err := BundleFromDir(tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, r := range Unsupported(b, CheckOptions{}) {
			codes = append(codes, r.Code)
			if r.File == "" || r.Line == 0 {
				t.Errorf("%s: reason without position: %v", tc.dir, r)
			}
		}
		if len(codes) != len(tc.codes) {
			t.Fatalf("%s: codes %v, want %v", tc.dir, codes, tc.codes)
		}
		for i := range codes {
			if codes[i] != tc.codes[i] {
				t.Errorf("%s: codes %v, want %v", tc.dir, codes, tc.codes)
			}
		}
	}
}

// Each dependency reason points at the entry that declares it, and its
// fix names that file (here a properties.yaml holding dependencies).
func TestDependencyPositions(t *testing.T) {
	b, err := BundleFromDir("../testdata/bundles/pelorus-operator_0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"prometheus": 2, "grafana-operator": 6}
	const file = "../testdata/bundles/pelorus-operator_0.0.2/metadata/properties.yaml"
	n := 0
	for _, r := range Unsupported(b, CheckOptions{}) {
		if r.Code != CodeDependency {
			continue
		}
		n++
		for pkg, line := range want {
			if strings.Contains(r.Message, `"packageName":"`+pkg+`"`) && (r.File != file || r.Line != line || !strings.HasSuffix(r.Message, "drop the dependency from "+file)) {
				t.Errorf("%s: at %s:%d, want %s:%d: %s", pkg, r.File, r.Line, file, line, r.Message)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d dependency reasons, want 2", n)
	}
}
