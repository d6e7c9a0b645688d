package olmv1

import (
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
