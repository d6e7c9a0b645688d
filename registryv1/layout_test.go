package registryv1

import (
	"errors"
	"testing"
	"testing/fstest"
)

// TestHasCSV checks what makes a directory look like a bundle even
// without its metadata: a ClusterServiceVersion in manifests/.
func TestHasCSV(t *testing.T) {
	tests := []struct {
		name string
		fsys fstest.MapFS
		want bool
	}{
		{"csv", fstest.MapFS{"manifests/csv.yaml": {Data: []byte(testCSV)}}, true},
		{"csv as json", fstest.MapFS{"manifests/csv.json": {Data: []byte(`{"kind":"ClusterServiceVersion"}`)}}, true},
		{"only a crd", fstest.MapFS{"manifests/crd.yaml": {Data: []byte("kind: CustomResourceDefinition\n")}}, false},
		{"catalog package named manifests", fstest.MapFS{"manifests/catalog.yaml": {Data: []byte("schema: olm.package\nname: manifests\n")}}, false},
		{"hidden csv", fstest.MapFS{"manifests/.csv.yaml": {Data: []byte(testCSV)}}, false},
		{"no manifests", fstest.MapFS{"csv.yaml": {Data: []byte(testCSV)}}, false},
	}
	for _, tt := range tests {
		if got := HasCSV(tt.fsys); got != tt.want {
			t.Errorf("%s: HasCSV = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestNoAnnotationsIsErrNoAnnotations checks that callers can tell a
// bundle without an annotations file from other problems.
func TestNoAnnotationsIsErrNoAnnotations(t *testing.T) {
	_, err := Parse(fstest.MapFS{"manifests/csv.yaml": {Data: []byte("kind: ClusterServiceVersion\nmetadata: {name: foo.v1.0.0}\nspec: {version: 1.0.0}\n")}, "metadata/x.yaml": {Data: []byte("a: 1\n")}})
	if !errors.Is(err, ErrNoAnnotations) {
		t.Fatalf("Parse = %v, want ErrNoAnnotations", err)
	}
}
