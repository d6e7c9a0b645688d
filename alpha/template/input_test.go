package template

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/fbcat/opm/position"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		name, text string
		want       Kind
		err        string
	}{
		{name: "yaml", text: "schema: olm.semver\n", want: Semver},
		{name: "json", text: `{"schema": "olm.template.basic", "entries": []}`, want: Basic},
		{name: "json with a trailing comma is read as YAML", text: `{"schema": "olm.template.substitutes",}`, want: Substitutes},
		{name: "capitalised key", text: "Schema: olm.semver\n", want: Semver},
		{name: "only the first document", text: "schema: olm.semver\n---\nschema: olm.template.basic\n", want: Semver},
		{name: "leading separator", text: "---\nschema: olm.template.basic\n", want: Basic},
		{name: "comments before a separator are an empty first document", text: "# a template\n---\nschema: olm.template.basic\n", err: "t.yaml:1: the template's first YAML document is empty"},
		{name: "empty", text: "", err: "t.yaml: the template is empty"},
		{name: "blank", text: "\n  \n", err: "t.yaml: the template is empty"},
		{name: "comments only", text: "# nothing\n", err: "t.yaml:1: the template's first YAML document is empty"},
		{name: "list", text: "- schema: olm.semver\n", err: "t.yaml:1: the template is a list"},
		{name: "no schema", text: "entries: []\n", err: `t.yaml:1: the template has no "schema" field, so its type is unknown`},
		{name: "unknown schema", text: "a: 1\nschema: olm.composite\n", err: `t.yaml:2: unknown template schema "olm.composite": expected one of olm.template.basic (basic), olm.semver (semver), olm.template.substitutes (substitutes)`},
		{name: "schema not a string", text: "schema: true\n", err: "t.yaml:1: schema must be a string, not a boolean (true) (YAML reads y, n, yes, no, on and off as booleans: quote the value)"},
		{name: "keys differing in case", text: "schema: olm.semver\nSCHEMA: olm.semver\n", err: `differ only in upper/lower case; keep one`},
		{name: "bad yaml", text: "schema: olm.semver\nstable: [x\n", err: "t.yaml:2: invalid YAML: "},
		{name: "bad json", text: "{\"schema\": \"olm.semver\"\n\"x\"}", err: "t.yaml:2: invalid JSON: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(Input{Name: "t.yaml", Data: []byte(c.text)})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want it to contain %q", err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestKinds(t *testing.T) {
	for _, k := range Kinds() {
		if got, ok := ParseKind(string(k)); !ok || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, ok)
		}
		if got, ok := kindOfSchema(k.Schema()); !ok || got != k {
			t.Errorf("kindOfSchema(%q) = %q, %v", k.Schema(), got, ok)
		}
	}
	if _, ok := ParseKind("composite"); ok {
		t.Error("composite is not a template type")
	}
}

// TestProblemPlaced: a template's problem is a *position.Error (file and
// line) whose cause, a *Problem, says the format and entry; ExpandWith
// names the format of a problem found before it was known.
func TestProblemPlaced(t *testing.T) {
	in := Input{Name: "t.yaml", Data: []byte("schema: olm.semver\nschema: [\n")}
	_, err := ExpandWith(context.Background(), Semver, in, nil, Options{})
	var pe *position.Error
	var p *Problem
	if !errors.As(err, &pe) || !errors.As(err, &p) || pe.File != "t.yaml" || pe.Line != 2 || p.Kind != Semver {
		t.Fatalf("ExpandWith: %#v, want a *position.Error at t.yaml:2 whose *Problem names the semver format", err)
	}
	if want := "t.yaml:2: semver template: invalid YAML: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}
}
