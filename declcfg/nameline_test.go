package declcfg

import (
	"context"
	"testing"
	"testing/fstest"
)

// TestBundleNameLine checks the line of a bundle's name, which authoring
// names when copies of a bundle differ between catalogs, in YAML and JSON
// (TestDocumentCache checks it for bundles a cache shares).
func TestBundleNameLine(t *testing.T) {
	bundle := "---\nimage: x\nname: p.v1\npackage: p\nschema: olm.bundle\n"
	yamlText := "---\nname: p\nschema: olm.package\n---\nentries:\n- name: p.v1\nname: stable\npackage: p\nschema: olm.channel\n" + bundle
	jsonText := "{\n    \"schema\": \"olm.bundle\",\n    \"name\": \"p.v1\",\n    \"package\": \"p\",\n    \"image\": \"x\"\n}\n"
	tests := []struct {
		name string
		fsys fstest.MapFS
		want map[string]int
	}{
		{"yaml", fstest.MapFS{"a.yaml": file(yamlText)}, map[string]int{"a.yaml": 12}},
		{"json", fstest.MapFS{"a.json": file(jsonText)}, map[string]int{"a.json": 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := LoadFS(context.Background(), tt.fsys)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Bundles) != len(tt.want) {
				t.Fatalf("%d bundles, want %d", len(cfg.Bundles), len(tt.want))
			}
			for _, b := range cfg.Bundles {
				if want := tt.want[b.Pos.File]; b.NameLine != want {
					t.Errorf("%s: name at line %d, want %d", b.Pos.File, b.NameLine, want)
				}
			}
		})
	}
}
