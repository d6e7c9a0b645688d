package template

import (
	"strings"
	"testing"
)

func TestBasic(t *testing.T) {
	f := fakes("widget", "1.0.0", "1.1.0")
	text := `schema: olm.template.basic
entries:
- schema: olm.package
  name: widget
- schema: olm.bundle
  image: quay.io/example/widget:v1.1.0
- {schema: example.com.note, text: kept}
- schema: olm.bundle
  name: ignored
  image: quay.io/example/widget:v1.0.0
- schema: olm.bundle
  image: quay.io/example/widget:v1.1.0
`
	cfg, err := renderText(t, text, f)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range cfg.Bundles {
		names = append(names, b.Name)
	}
	if got := strings.Join(names, " "); got != "widget.v1.1.0 widget.v1.0.0 widget.v1.1.0" {
		t.Errorf("bundles %s, want each entry replaced in place", got)
	}
	if len(cfg.Packages) != 1 || len(cfg.Others) != 1 || cfg.Others[0].Schema != "example.com.note" {
		t.Errorf("other entries not passed through: %+v %+v", cfg.Packages, cfg.Others)
	}
}

func TestBasicErrors(t *testing.T) {
	f := fakes("widget", "1.0.0")
	cases := []struct{ text, want string }{
		{"schema: olm.template.basic\n", `t.yaml:1: basic template: the template has no "entries"`},
		{"schema: olm.template.basic\nentries: {}\n", "t.yaml:2: basic template: entries must be a list, not an object"},
		{"schema: olm.template.basic\nentries:\n- 5\n", "t.yaml:3: basic template: entries[0]: must be a catalog object, not a number (5)"},
		{"schema: olm.template.basic\nentries:\n- name: x\n", `t.yaml:3: basic template: entries[0]: object has no "schema" field`},
		{"schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  name: x\n", "t.yaml:3: basic template: entries[0]: olm.bundle entry has no image"},
		{"schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: quay.io/example/widget:v1.0.0\n  properties: [{type: olm.package, value: {}}]\n",
			`entries[0]: olm.bundle entry for image "quay.io/example/widget:v1.0.0" has properties: a basic template's bundle gives only its image`},
		{"schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: quay.io/example/widget:v1.0.0\n  package: widget\n  relatedImages: [{image: x}]\n",
			"has package, relatedImages"},
		{"schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: quay.io/example/widget:v1.0.0\n- schema: olm.bundle\n  image: quay.io/example/widget:v2\n",
			`t.yaml:5: basic template: entries[1]: failed to pull image "quay.io/example/widget:v2": image not found`},
		{"schema: olm.semver\nentries: []\n", `t.yaml:1: basic template: schema is "olm.semver", but a basic template's schema is "olm.template.basic"`},
	}
	for _, c := range cases {
		in := Input{Name: "t.yaml", Data: []byte(c.text)}
		_, err := Expand(t.Context(), Basic, in, f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("template:\n%s\nerror: %v\nwant it to contain: %s", c.text, err, c.want)
		}
	}
}

// Every problem is reported, each on its own line, in template order.
func TestBasicReportsEveryProblem(t *testing.T) {
	text := "schema: olm.template.basic\nentries:\n- schema: olm.bundle\n- 1\n- schema: olm.bundle\n  image: quay.io/example/widget:v3\n  package: widget\n"
	_, err := Expand(t.Context(), Basic, Input{Name: "t.yaml", Data: []byte(text)}, fakes("widget"))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "t.yaml:3:") || !strings.HasPrefix(lines[1], "t.yaml:4:") || !strings.HasPrefix(lines[2], "t.yaml:5:") {
		t.Fatalf("want three problems in order, got:\n%v", err)
	}
}
