package suites

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/registryv1"
)

// A result is stored and read back as it was, under a key that changes
// with any file of the bundle, its name, the Kubernetes version and the
// salt; a store that cannot be written keeps nothing, and says nothing.
func TestStore(t *testing.T) {
	fsys := fstest.MapFS{
		"manifests/csv.yaml":        {Data: []byte("kind: ClusterServiceVersion\n")},
		"metadata/annotations.yaml": {Data: []byte("annotations: {}\n")},
	}
	s := &Store{Dir: t.TempDir(), Salt: "v1"}
	b := &Bundle{Dir: "operators/x/1.0.0", Files: readFiles(t, fsys), KubernetesVersion: "1.33"}
	key := s.Key(b)
	r := &Result{Default: []Output{{Error: true, Message: "m", File: "manifests/csv.yaml", Line: 3, Causes: []string{"csv-field:spec.icon"}}},
		Optional: [2][]Output{{{Message: "w"}}, nil}}
	if _, ok := s.Load(key); ok {
		t.Fatal("an empty store holds something")
	}
	s.Save(key, r)
	got, ok := s.Load(key)
	if !ok || !got.Equal(r) {
		t.Fatalf("got %+v", got)
	}
	stopped := &Result{Stopped: errors.New("no CSV")}
	s.Save(key, stopped)
	if got, ok := s.Load(key); !ok || !got.Equal(stopped) {
		t.Fatalf("stopped: %+v", got)
	}
	changed := fstest.MapFS{"manifests/csv.yaml": fsys["manifests/csv.yaml"], "metadata/annotations.yaml": {Data: []byte("annotations: {a: b}\n")}}
	hidden := fstest.MapFS{"manifests/.x": {Data: []byte("x")}, "manifests/csv.yaml": fsys["manifests/csv.yaml"], "metadata/annotations.yaml": fsys["metadata/annotations.yaml"]}
	for name, other := range map[string]string{
		"a file":        s.Key(&Bundle{Dir: b.Dir, Files: readFiles(t, changed), KubernetesVersion: "1.33"}),
		"a hidden file": s.Key(&Bundle{Dir: b.Dir, Files: readFiles(t, hidden), KubernetesVersion: "1.33"}),
		"the name":      s.Key(&Bundle{Dir: "y", Files: b.Files, KubernetesVersion: "1.33"}),
		"the version":   s.Key(&Bundle{Dir: b.Dir, Files: b.Files, KubernetesVersion: "1.34"}),
		"the salt":      (&Store{Dir: s.Dir, Salt: "v2"}).Key(b),
	} {
		if other == key || other == "" {
			t.Errorf("%s: same key", name)
		}
	}
	if s.Key(b) != key {
		t.Error("the key of the same bundle differs")
	}
	gone := fstest.MapFS{"manifests/.x": {Data: []byte("nowhere"), Mode: fs.ModeSymlink}, "manifests/csv.yaml": fsys["manifests/csv.yaml"], "metadata/annotations.yaml": fsys["metadata/annotations.yaml"]}
	if k := s.Key(&Bundle{Dir: b.Dir, Files: readFiles(t, gone), KubernetesVersion: "1.33"}); k != "" {
		t.Errorf("a bundle with a file that cannot be read has the key %s", k)
	}
	var none *Store
	if none.Key(b) != "" {
		t.Error("no store, a key")
	}
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := &Store{Dir: blocked}
	bad.Save(bad.Key(b), r)
	if _, ok := bad.Load(bad.Key(b)); ok {
		t.Error("a store that cannot be written holds something")
	}
}

// readFiles reads a bundle's files as lint does.
func readFiles(t *testing.T, fsys fs.FS) *registryv1.Files {
	t.Helper()
	f, err := registryv1.ReadSkimmed(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
