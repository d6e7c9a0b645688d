package filter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelection: what to keep is said one way, and its errors name the
// fields.
func TestSelection(t *testing.T) {
	for _, tt := range []struct {
		s    Selection
		want string
	}{
		{Selection{}, "say what to keep with Selection.Config FILE or Selection.Packages NAME[:CHANNEL]"},
		{Selection{Config: "x", Packages: []string{"a"}}, "Selection.Config and Selection.Packages cannot be combined"},
		{Selection{Packages: []string{"a:"}}, `Selection.Packages: invalid package "a:"`},
		{Selection{Config: filepath.Join(t.TempDir(), "none.yaml")}, "no such file"},
	} {
		if _, err := tt.s.Selector(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.s, err, tt.want)
		}
	}
	sel, err := Selection{Packages: []string{"a", "b:stable"}}.Selector()
	if err != nil {
		t.Fatal(err)
	}
	if f, err := sel("any"); err != nil || len(f.Packages) != 2 {
		t.Errorf("packages: %+v %v", f, err)
	}
	file := filepath.Join(t.TempDir(), "isc.yaml")
	os.WriteFile(file, []byte("apiVersion: mirror.openshift.io/v2alpha1\nkind: ImageSetConfiguration\nmirror:\n  operators:\n  - catalog: quay.io/x/c:v1\n    packages:\n    - name: a\n"), 0o644)
	sel, err = Selection{Config: file}.Selector()
	if err != nil {
		t.Fatal(err)
	}
	if f, err := sel("quay.io/x/c:v1"); err != nil || len(f.Packages) != 1 {
		t.Errorf("config: %+v %v", f, err)
	}
}
