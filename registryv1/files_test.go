package registryv1

import (
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/declcfg"
)

// ParseFiles gives Parse's bundle but its encoded objects, whether the
// files were read whole or skimmed, and Parse's errors.
func TestParseFilesIsParse(t *testing.T) {
	noCSV := fstest.MapFS{
		"manifests/cm.yaml":         {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")},
		"metadata/annotations.yaml": {Data: []byte("annotations:\n  operators.operatorframework.io.bundle.package.v1: p\n")},
	}
	for name, fsys := range map[string]fs.FS{
		"ack":     os.DirFS("../testdata/bundles/ack-ecrpublic-controller_1.0.14"),
		"nhc":     os.DirFS("../testdata/bundles/node-healthcheck-operator_0.6.0"),
		"pelorus": os.DirFS("../testdata/bundles/pelorus-operator_0.0.2"),
		"test":    testBundle(),
		"no csv":  noCSV,
	} {
		t.Run(name, func(t *testing.T) {
			want, wantErr := Parse(fsys)
			for _, read := range []func(fs.FS) (*Files, error){Read, ReadSkimmed} {
				f, err := read(fsys)
				if err != nil {
					t.Fatal(err)
				}
				got, err := ParseFiles(f)
				if wantErr != nil {
					if err == nil || err.Error() != wantErr.Error() {
						t.Fatalf("error %v, want %v", err, wantErr)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Objects) != 0 {
					t.Errorf("%d encoded objects, want none", len(got.Objects))
				}
				g, err := got.FBC("")
				if err != nil {
					t.Fatal(err)
				}
				w, err := want.FBC("")
				if err != nil {
					t.Fatal(err)
				}
				w.Properties = slices.DeleteFunc(w.Properties, func(p declcfg.Property) bool { return p.Type == declcfg.PropertyBundleObject })
				if !reflect.DeepEqual(g, w) {
					t.Errorf("FBC %+v, want %+v", g, w)
				}
				if got.Name != want.Name || got.Version != want.Version || got.Release != want.Release || got.Package != want.Package {
					t.Errorf("identity %s %s %s %s, want %s %s %s %s", got.Name, got.Package, got.Version, got.Release, want.Name, want.Package, want.Version, want.Release)
				}
			}
		})
	}
}

// Read lists every entry, reads the files upstream reads, and tells
// each manifest's object, file and line.
func TestRead(t *testing.T) {
	fsys := testBundle()
	fsys["manifests/two.yaml"] = &fstest.MapFile{Data: []byte("kind: ConfigMap\n---\nkind: Secret\n")}
	fsys["manifests/cm.json"] = &fstest.MapFile{Data: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"}}`)}
	for _, skim := range []bool{false, true} {
		f, err := read(fsys, skim)
		if err != nil {
			t.Fatal(err)
		}
		var names, objects []string
		for _, m := range f.Manifests {
			names = append(names, m.File)
		}
		for _, m := range f.Objects() {
			objects = append(objects, m.File+"="+m.Kind+"/"+m.Name)
		}
		if g := strings.Join(names, " "); g != "manifests/.hidden.yaml manifests/cm.json manifests/foo.csv.yaml manifests/notes.txt manifests/two.yaml manifests/widgets.crd.yaml" {
			t.Errorf("manifests %s", g)
		}
		if g := strings.Join(objects, " "); g != "manifests/cm.json=ConfigMap/j manifests/foo.csv.yaml=ClusterServiceVersion/foo.v1.0.0 manifests/two.yaml=ConfigMap/ manifests/widgets.crd.yaml=CustomResourceDefinition/widgets.example.com" {
			t.Errorf("objects %s", g)
		}
		hidden := f.Manifests[0]
		if !hidden.Skipped() || hidden.Kind != "" || hidden.Sum != [32]byte{} {
			t.Errorf("hidden file read: %+v", hidden)
		}
		csv := f.CSV()
		if csv == nil || csv.File != "manifests/foo.csv.yaml" || csv.Line != 1 || csv.Head != nil || csv.Object().StringAt("spec", "version") != "1.0.0" {
			t.Fatalf("CSV %+v", csv)
		}
		crd := f.Manifests[5]
		if skimmed := crd.Head != nil; skimmed != skim {
			t.Errorf("CRD skimmed %v", skimmed)
		}
		if crd.Object().StringAt("spec", "group") != "example.com" || !crd.Single || crd.MayServeMany {
			t.Errorf("CRD %+v", crd)
		}
		crd.Release()
		if crd.Object().StringAt("spec", "names", "plural") != "widgets" {
			t.Error("a released tree is not read again")
		}
		if f.Manifests[4].Single || f.Manifests[1].Single {
			t.Error("a file of two documents, or JSON, taken for one YAML document")
		}
		if m := f.MetadataFile("metadata/subdir"); m == nil || !m.Entry.IsDir() || m.Object != nil {
			t.Errorf("metadata subdirectory %+v", m)
		}
		if f.MetadataFile("metadata/nothing") != nil {
			t.Error("a metadata file that is not there")
		}
	}
}

// The annotations file is the first of metadata/ (by name) whose
// annotations set the package, channels or default channel, as upstream
// opm takes it.
func TestAnnotationsFile(t *testing.T) {
	const full = "annotations:\n  operators.operatorframework.io.bundle.package.v1: foo\n  operators.operatorframework.io.bundle.channels.v1: stable\n"
	tests := []struct {
		name     string
		files    map[string]string
		file     string
		pkg      string
		channels string
	}{
		{"by name", map[string]string{"annotations.yaml": full}, "metadata/annotations.yaml", "foo", "stable"},
		{"an earlier file with channels only", map[string]string{"a.yaml": "annotations:\n  operators.operatorframework.io.bundle.channels.v1: alpha\n", "annotations.yaml": full},
			"metadata/a.yaml", "", "alpha"},
		{"an earlier file without bundle annotations", map[string]string{"a.yaml": "annotations:\n  com.redhat.openshift.versions: v4.12\n", "annotations.yaml": full},
			"metadata/annotations.yaml", "foo", "stable"},
		{"another name", map[string]string{"bundle.json": `{"annotations":{"operators.operatorframework.io.bundle.package.v1":"bar"}}`, "dependencies.yaml": "dependencies: []\n"},
			"metadata/bundle.json", "bar", ""},
		{"a number", map[string]string{"annotations.yaml": "annotations:\n  operators.operatorframework.io.bundle.package.v1: 1.5\n"}, "metadata/annotations.yaml", "1.5", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := testBundle()
			delete(fsys, "metadata/annotations.yaml")
			for name, data := range tt.files {
				fsys["metadata/"+name] = &fstest.MapFile{Data: []byte(data)}
			}
			f, err := Read(fsys)
			if err != nil {
				t.Fatal(err)
			}
			if f.Annotations == nil || f.Annotations.File != tt.file {
				t.Fatalf("annotations file %+v, want %s", f.Annotations, tt.file)
			}
			pkg, line, ok := f.Annotations.Get("operators.operatorframework.io.bundle.package.v1")
			if pkg != tt.pkg || ok != (tt.pkg != "") || ok && line < 1 {
				t.Errorf("package %q at %d (%v), want %q", pkg, line, ok, tt.pkg)
			}
			b, err := ParseFiles(f)
			if err != nil {
				t.Fatal(err)
			}
			if b.Package != tt.pkg || strings.Join(b.Channels, ",") != tt.channels {
				t.Errorf("bundle package %q channels %v, want %q %q", b.Package, b.Channels, tt.pkg, tt.channels)
			}
		})
	}
	var none *Annotations
	if _, _, ok := none.Get("x"); ok {
		t.Error("no annotations file has an annotation")
	}
}

// What cannot be read is an error naming it.
func TestReadErrors(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"metadata/": {"manifests/a.yaml": {Data: []byte("kind: A\n")}},
		"manifests/a.yaml: cannot read": {
			"manifests/a.yaml": {Data: []byte("gone"), Mode: fs.ModeSymlink},
			"metadata/x.yaml":  {Data: []byte("a: 1\n")},
		},
	} {
		if _, err := ReadSkimmed(fsys); err == nil || !strings.Contains(err.Error(), strings.TrimSuffix(name, "/")) {
			t.Errorf("error %v, want one naming %s", err, name)
		}
	}
}

// Symbolic links are followed, in manifests/ and metadata/, as upstream
// follows them; a link to a directory cannot be read, which is an error
// naming it (upstream skips it with a warning).
func TestReadFollowsLinks(t *testing.T) {
	fsys := testBundle()
	fsys["shared/csv.yaml"] = fsys["manifests/foo.csv.yaml"]
	fsys["shared/annotations.yaml"] = fsys["metadata/annotations.yaml"]
	fsys["manifests/foo.csv.yaml"] = &fstest.MapFile{Data: []byte("../shared/csv.yaml"), Mode: fs.ModeSymlink}
	fsys["metadata/annotations.yaml"] = &fstest.MapFile{Data: []byte("../shared/annotations.yaml"), Mode: fs.ModeSymlink}
	b, err := Parse(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "foo.v1.0.0" || b.Package != "foo" {
		t.Errorf("bundle %s of package %s, want foo.v1.0.0 of foo", b.Name, b.Package)
	}
	fsys["manifests/dir.yaml"] = &fstest.MapFile{Data: []byte("../shared"), Mode: fs.ModeSymlink}
	if _, err := Read(fsys); err == nil || !strings.HasPrefix(err.Error(), "manifests/dir.yaml: cannot read") {
		t.Errorf("a link to a directory: %v", err)
	}
}
