package template

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// TestParseArgs: [TYPE] [FILE], a lone argument being a type if it names
// one; standard input when there is no file.
func TestParseArgs(t *testing.T) {
	for _, tt := range []struct {
		args       []string
		kind       Kind
		file, fail string
	}{
		{nil, "", "-", ""},
		{[]string{"semver"}, Semver, "-", ""},
		{[]string{"t.yaml"}, "", "t.yaml", ""},
		{[]string{"basic", "t.yaml"}, Basic, "t.yaml", ""},
		{[]string{"veneer", "t.yaml"}, "", "", `invalid template type "veneer", must be one of: [basic semver substitutes]`},
	} {
		k, file, err := ParseArgs(tt.args)
		if k != tt.kind || file != tt.file || (err == nil) != (tt.fail == "") || err != nil && err.Error() != tt.fail {
			t.Errorf("%v: %q %q %v", tt.args, k, file, err)
		}
	}
	in, err := ReadInput("-", strings.NewReader("x"))
	if err != nil || in.Name != "<stdin>" || string(in.Data) != "x" {
		t.Errorf("stdin: %+v %v", in, err)
	}
	if _, err := ReadInput(filepath.Join(t.TempDir(), "none"), nil); err == nil {
		t.Error("a missing file")
	}
	var b, warn bytes.Buffer
	cfg := &declcfg.DeclarativeConfig{Packages: []declcfg.Package{{Schema: declcfg.SchemaPackage, Name: "p"}}}
	if err := WriteRendered(&b, &warn, cfg, "mermaid"); err != nil || !strings.Contains(b.String(), "graph") {
		t.Errorf("mermaid: %q %v", b.String(), err)
	}
	b.Reset()
	if err := WriteRendered(&b, &warn, cfg, "yaml"); err != nil || !strings.Contains(b.String(), "name: p") {
		t.Errorf("yaml: %q %v", b.String(), err)
	}
}
