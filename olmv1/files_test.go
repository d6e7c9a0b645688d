package olmv1

import (
	"io/fs"
	"os"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/registryv1"
)

// withFiles is a bundle directory's files with some replaced or added.
func withFiles(t *testing.T, dir string, files map[string]string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(dir + "/" + p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		m[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return m
}

// The verdict's bundle read from files read already, whole or skimmed,
// is the one read from the directory, and the documents of each manifest
// taken from its first tree are those decoding the file gives: on real
// bundles and on the manifests the two readings of manifests/ disagree
// about (more documents, lists, JSON, hidden files, documents that are
// not objects, subdirectories).
func TestBundleFromFilesIsBundleFromFS(t *testing.T) {
	const nhc = "../testdata/bundles/node-healthcheck-operator_0.6.0"
	cases := []struct {
		name  string
		fsys  fs.FS
		fails bool
	}{
		{"ack", os.DirFS("../testdata/bundles/ack-ecrpublic-controller_1.0.14"), false},
		{"nhc", os.DirFS(nhc), false},
		{"pelorus", os.DirFS("../testdata/bundles/pelorus-operator_0.0.2"), false},
		{"typed", os.DirFS("testdata/bundles/typed-demo_0.1.0"), false},
		{"more documents", withFiles(t, nhc, map[string]string{"manifests/two.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n"}), false},
		{"list", withFiles(t, nhc, map[string]string{"manifests/list.yaml": "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n"}), false},
		{"json", withFiles(t, nhc, map[string]string{"manifests/cm.json": `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}` + "\n" + `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"b"}}`}), false},
		{"hidden", withFiles(t, nhc, map[string]string{"manifests/.hidden.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"}), false},
		{"not an object", withFiles(t, nhc, map[string]string{"manifests/notes.yaml": "- just\n- a list\n"}), true},
		{"subdirectory", withFiles(t, nhc, map[string]string{"manifests/sub/cm.yaml": "apiVersion: v1\nkind: ConfigMap\n"}), true},
		{"no kind", withFiles(t, nhc, map[string]string{"manifests/cm.yaml": "apiVersion: v1\nmetadata:\n  name: a\n---\nkind: ConfigMap\n"}), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := BundleFromFS(tc.fsys, "b")
			if tc.fails != (wantErr != nil) {
				t.Fatalf("BundleFromFS: %v", wantErr)
			}
			f, err := registryv1.ReadSkimmed(tc.fsys)
			if err != nil {
				t.Fatal(err)
			}
			got, err := BundleFromFiles(f, "b")
			if wantErr != nil {
				if err == nil || err.Error() != wantErr.Error() {
					t.Fatalf("error %v, want %v", err, wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("bundle from skimmed files differs:\n%+v\nwant\n%+v", got, want)
			}
			for _, opts := range []CheckOptions{{}, {NoWebhooks: true}} {
				if g, w := Unsupported(got, opts), Unsupported(want, opts); !reflect.DeepEqual(g, w) {
					t.Errorf("reasons %v, want %v", g, w)
				}
			}
			single := 0
			for _, m := range f.Manifests {
				if m.Entry.IsDir() {
					continue
				}
				if m.Single && !m.Skipped() {
					single++
				}
				got, err := documents(f.FS, m)
				data, _ := fs.ReadFile(f.FS, m.File)
				want, wantErr := decodeStream(data)
				if err != nil || wantErr != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("%s: documents %v (%v), want %v (%v)", m.File, got, err, want, wantErr)
				}
			}
			if single == 0 {
				t.Error("no manifest was taken from its first document")
			}
		})
	}
}
