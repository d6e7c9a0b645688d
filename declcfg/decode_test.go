package declcfg

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestLoadHostileInput holds the loader to one error per hostile document,
// at its file and line (and column where the parser knows it; a syntax
// error at the line upstream's go-yaml v2 names, which for a problem its
// parser finds is the line before), in memory
// proportional to the input: nesting past go-yaml's limit of 10,000,
// YAML that upstream refuses, alias expansion, NaN and infinities.
func TestLoadHostileInput(t *testing.T) {
	const head = "schema: olm.package\nname: x\n"
	const jsonHead = "{\"schema\": \"olm.package\", \"name\": \"x\",\n\"v\": "
	tests := []struct {
		name, file, data string
		want             string // "file:line[:col]: message" prefix of the only error
	}{
		{"yaml flow a million deep", "a.yaml", head + "v: " + strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6) + "\n",
			"a.yaml:3: invalid YAML: exceeded max depth of 10000 nested lists and objects"},
		{"yaml flow mappings 100,000 deep", "a.yaml", head + "v: " + strings.Repeat("{a: ", 1e5) + "1" + strings.Repeat("}", 1e5) + "\n",
			"a.yaml:3: invalid YAML: exceeded max depth of 10000"},
		{"yaml block sequences 20,000 deep", "a.yaml", head + "v:\n" + strings.Repeat("- ", 2e4) + "x\n",
			"a.yaml:4: invalid YAML: exceeded max depth of 10000"},
		{"json a million deep", "a.json", jsonHead + strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6) + "}\n",
			"a.json:2:10005: invalid JSON: exceeded max depth of 10000"},
		{"json objects 100,000 deep", "a.json", jsonHead + strings.Repeat(`{"a": `, 1e5) + "1" + strings.Repeat("}", 1e5) + "}\n",
			"a.json:2:"},
		{"? in a flow sequence", "a.yaml", head + "v: [b?]\n", "a.yaml:2: invalid YAML: did not find expected ',' or ']'"},
		{"? ending a flow key", "a.yaml", head + "v: {a?: b}\n", "a.yaml:2: invalid YAML: did not find expected ',' or '}'"},
		{"? in a flow value", "a.yaml", head + "v: {a: b?c}\n", "a.yaml:2: invalid YAML: did not find expected ',' or '}'"},
		{"quoted key of 1,024 characters", "a.yaml", head + `"` + strings.Repeat("k", 1024) + "\": 1\n",
			"a.yaml:3: invalid YAML: could not find expected ':'"},
		{"alias bomb", "a.yaml", head + "v: &a " + strings.Repeat("x", 1e6) + "\nw: [" + strings.Repeat("*a, ", 1099) + "*a]\n",
			"a.yaml:1: invalid YAML: aliases expand this document"},
		{"alias bomb in a second document", "a.yaml", head + "---\n# c\n" + head + "v: &a " + strings.Repeat("x", 1e6) + "\nw: [" + strings.Repeat("*a, ", 1099) + "*a]\n",
			"a.yaml:5: invalid YAML: aliases expand this document"},
		{"empty flow entry", "a.yaml", head + "k: [a, , b]\n", "a.yaml:2: invalid YAML: did not find expected node content"},
		{"NaN", "a.yaml", head + "k: 1\nv: .nan\n", "a.yaml:4:4: invalid YAML: the number NaN cannot be represented in JSON"},
		{"infinity", "a.yaml", head + "v: [1, -.inf]\n", "a.yaml:3:8: invalid YAML: the number -Inf cannot be represented in JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := load(t, fstest.MapFS{tc.file: file(tc.data)})
			if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), tc.want) {
				t.Errorf("errors %v, want one starting %q", errs, tc.want)
			}
		})
	}
}
