package repoconfig

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/template"
)

func TestParseCIConfig(t *testing.T) {
	good := "fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: a.yaml\n    type: olm.semver\n    catalog_names: [v4.17, v4.18]\n  - template_name: b.json\n    type: olm.template.basic\n    catalog_names: [v4.19]\n"
	cfg, err := ParseCIConfig("ci.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if names := cfg.TemplateFiles(); strings.Join(names, ",") != "a.yaml,b.json" || cfg.Mappings[0].Kind() != template.Semver || cfg.Mappings[1].Kind() != template.Basic {
		t.Errorf("mappings: %+v", cfg.Mappings)
	}
	tests := []struct{ text, want string }{
		{"", "ci.yaml: the file is empty"},
		{"- a\n", "ci.yaml:1: expected a mapping at the top of the file"},
		{"fbc: [\n", "ci.yaml:1: invalid YAML: did not find expected node content"},
		{"reviewers: [a]\n", "ci.yaml:1: no fbc section"},
		{"fbc:\n  enabled: false\n", "ci.yaml:2: fbc.enabled is not true"},
		{"fbc:\n  enabled: true\n", "fbc.catalog_mapping lists no templates"},
		{"fbc:\n  enabled: true\n  catalog_mapping: [x]\n", "ci.yaml:3: a catalog_mapping entry must be a mapping"},
		{"fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: ../a.yaml\n    type: olm.semver\n    catalog_names: [v4.1]\n", `ci.yaml:4: template_name "../a.yaml" must be a plain file name`},
		{"fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: a.yaml\n    type: olm.semver\n", `template "a.yaml" maps to no catalogs`},
		{"fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: a.yaml\n    type: olm.semver\n    catalog_names: v4.1\n", "ci.yaml:6: catalog_names must be a list"},
		{"fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: a.yaml\n    type: olm.semver\n    catalog_names: [v4.1]\n  - template_name: a.yaml\n    type: olm.semver\n    catalog_names: [v4.2]\n", `template "a.yaml" is mapped twice (also at line 4)`},
		{"fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: a.yaml\n    type: olm.semver\n    catalog_names: [v4.1]\n  - template_name: b.yaml\n    type: olm.semver\n    catalog_names: [v4.1]\n", `catalog "v4.1" is mapped to two templates`},
		{"fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: [a]\n", "template_name must be a string"},
	}
	for _, tt := range tests {
		if _, err := ParseCIConfig("ci.yaml", []byte(tt.text)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
}

func TestParseReleaseConfig(t *testing.T) {
	rc, err := ParseReleaseConfig("rc.yaml", []byte("catalog_templates:\n- template_name: a.yaml\n  channels: [fast]\n  replaces: x.v1\n  skips: [x.v0]\n  skipRange: '<1.0.0'\n  defaultChannel: fast\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := rc.Targets[0]; got.TemplateFile != "a.yaml" || got.Replaces != "x.v1" || got.Skips[0] != "x.v0" || got.SkipRange != "<1.0.0" || got.DefaultChannel != "fast" || got.Line != 2 {
		t.Errorf("target %+v", got)
	}
	tests := []struct{ text, want string }{
		{"other: 1\n", "rc.yaml:1: catalog_templates lists no templates"},
		{"catalog_templates: [1]\n", "rc.yaml:1: a catalog_templates entry must be a mapping"},
		{"catalog_templates:\n- template_name: a.yaml\n", `rc.yaml:2: template "a.yaml": channels lists no channel`},
		{"catalog_templates:\n- template_name: a.yaml\n  channels: [fast]\n  skips: [\"\"]\n", "rc.yaml:4: skips must list non-empty strings"},
		{"catalog_templates:\n- channels: [fast]\n", "rc.yaml:2: template_name is empty"},
		{"catalog_templates:\n- template_name: a.yaml\n  channels: [fast]\n  skipRange: '>=1.0 <<1.2'\n", `rc.yaml:4: skipRange: invalid skip range ">=1.0 <<1.2"`},
		{"catalog_templates:\n- template_name: a.yaml\n  channels: [fast, \"st able\"]\n  replaces: --dry-run\n", "rc.yaml:3: channels: invalid channel name \"st able\": a channel name has no spaces or control characters, such as stable or fast-v1.2\nrc.yaml:4: replaces: invalid bundle name \"--dry-run\""},
	}
	for _, tt := range tests {
		if _, err := ParseReleaseConfig("rc.yaml", []byte(tt.text)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
}
