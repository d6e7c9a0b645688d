package template

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

func TestConvertErrors(t *testing.T) {
	cases := []struct {
		kind       Kind
		text, want string
	}{
		{Semver, "schema: olm.package\nname: p\n", "cannot convert a catalog to a semver template"},
		{Basic, "schema: olm.package\nname: [p\n", "c.yaml:2: invalid YAML"},
		{Substitutes, `{"schema": "olm.package", "name": 5}`, "c.yaml:1"},
	}
	for _, c := range cases {
		_, err := Convert(t.Context(), c.kind, Input{Name: "c.yaml", Data: []byte(c.text)}, declcfg.FormatJSON)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want it to contain %q", c.kind, c.text, err, c.want)
		}
	}
}

// An empty stream makes a template without entries, as upstream's.
func TestConvertEmpty(t *testing.T) {
	out, err := Convert(t.Context(), Basic, Input{Name: "c.yaml"}, declcfg.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n    \"schema\": \"olm.template.basic\",\n    \"entries\": null\n}\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
