package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/linttest"
)

// A bundle directory's annotations are those of the file opm takes (see
// registryv1): the first of metadata/, by name, that sets the package,
// channels or default channel, whatever its name. lint took the first
// that named the package, and so told another package than opm render
// and OLM v1's verdict, which said the package was empty.
func TestBundleAnnotationsFile(t *testing.T) {
	const versions = "  com.redhat.openshift.versions: v4.12,v4.13\n"
	tests := []struct {
		name, other string
		file, pkg   string
	}{
		{"channels only, first", "annotations:\n  operators.operatorframework.io.bundle.channels.v1: alpha\n" + versions, "a.yaml", ""},
		{"no bundle annotation", "annotations:\n" + versions, "annotations.yaml", "etcd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML(versions), map[string]string{"etcdclusters.crd.yaml": testCRD("")})
			linttest.WriteFiles(t, dir, map[string]string{"metadata/a.yaml": tt.other})
			b, err := readBundleDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "metadata", tt.file)
			if b.pkg != tt.pkg || b.annotationsFile() != file {
				t.Fatalf("package %q in %s, want %q in %s", b.pkg, b.annotationsFile(), tt.pkg, file)
			}
			res := run(t, []string{dir}, Options{Rules: []string{ruleOpenShiftRange, ruleOLMv1}})
			ranges := only(res.Findings, ruleOpenShiftRange)
			if len(ranges) != 1 || ranges[0].File != file || ranges[0].Line != lineOf(t, file, "com.redhat.openshift.versions") {
				t.Errorf("openshift-range findings, want one in %s:%s", file, dump(ranges))
			}
			empty := false
			for _, f := range only(res.Findings, ruleOLMv1) {
				empty = empty || strings.Contains(f.Message, "package name is empty")
				if f.Package != tt.pkg {
					t.Errorf("a finding of package %q, want %q: %s", f.Package, tt.pkg, f.Message)
				}
			}
			if empty != (tt.pkg == "") {
				t.Errorf("OLM v1 says the package is empty: %v, want %v:%s", empty, tt.pkg == "", dump(res.Findings))
			}
		})
	}
}
