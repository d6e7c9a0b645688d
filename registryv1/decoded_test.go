package registryv1

import (
	"io/fs"
	"os"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
)

// ParseDecoded gives Parse's bundle but its encoded objects, whichever
// trees its caller knows, and Parse's errors.
func TestParseDecodedIsParse(t *testing.T) {
	nhc := os.DirFS("../testdata/bundles/node-healthcheck-operator_0.6.0")
	noCSV := fstest.MapFS{
		"manifests/cm.yaml":         {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")},
		"metadata/annotations.yaml": {Data: []byte("annotations:\n  operators.operatorframework.io.bundle.package.v1: p\n")},
	}
	for name, fsys := range map[string]fs.FS{
		"ack":     os.DirFS("../testdata/bundles/ack-ecrpublic-controller_1.0.14"),
		"nhc":     nhc,
		"pelorus": os.DirFS("../testdata/bundles/pelorus-operator_0.0.2"),
		"no csv":  noCSV,
	} {
		t.Run(name, func(t *testing.T) {
			want, wantErr := Parse(fsys)
			all := func(name string) (*value.Value, bool) {
				data, err := fs.ReadFile(fsys, name)
				if err != nil {
					return nil, false
				}
				return FirstObject(data, 30)
			}
			for _, decoded := range []Decoded{nil, all} {
				got, err := ParseDecoded(fsys, decoded)
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
