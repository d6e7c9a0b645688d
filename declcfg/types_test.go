package declcfg

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
)

// TestTypesMarshalAsTheFileFormat checks that encoding/json, given the
// public types, writes what the catalog writer writes: the file format's
// field names, order and omit rules, so that callers may marshal them.
func TestTypesMarshalAsTheFileFormat(t *testing.T) {
	cfg, err := LoadFS(context.Background(), os.DirFS("../testdata/catalog"))
	if err != nil {
		t.Fatal(err)
	}
	objs := cfg.encodables()
	if len(cfg.Packages) == 0 || len(cfg.Channels) == 0 || len(cfg.Bundles) == 0 {
		t.Fatal("the test catalog lacks a schema")
	}
	// Shapes the test catalog may not have: empty and missing fields,
	// icons, deprecations, characters encoding/json would escape.
	objs = append(objs,
		&Package{Schema: SchemaPackage, Name: "a<b>&c", Icon: &Icon{}},
		&Package{Schema: SchemaPackage, Name: "p", Icon: &Icon{Data: []byte{0, 1, 0xfe}, MediaType: "image/png"}, Description: "d", Properties: []Property{{Type: "t"}}},
		&Channel{Schema: SchemaChannel, Name: "c", Package: "p"},
		&Channel{Schema: SchemaChannel, Name: "c", Package: "p", Entries: []ChannelEntry{{Name: "a", Replaces: "b", Skips: []string{"x", "y"}, SkipRange: "<1.0.0"}}},
		&Bundle{Schema: SchemaBundle, Properties: []Property{{Type: "u", Value: []byte(`{"k":[1,{}],"e":[],"h":"<&>"}`)}}, RelatedImages: []RelatedImage{{Name: "", Image: "i"}}},
		&Deprecation{Schema: SchemaDeprecations, Package: "p"},
		&Deprecation{Schema: SchemaDeprecations, Package: "p", Entries: []DeprecationEntry{{Reference: PackageScopedReference{Schema: SchemaPackage}, Message: "old"}, {Reference: PackageScopedReference{Schema: SchemaBundle, Name: "b"}}}},
		&Meta{Schema: "x", Blob: []byte(`{"schema":"x","v":[1]}`)},
		&Meta{},
	)
	for _, o := range objs {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "    ")
		if err := enc.Encode(o); err != nil {
			t.Fatalf("%#v: %v", o, err)
		}
		if want := o.AppendJSON(nil); !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("encoding/json writes\n%s\nthe catalog writer\n%s", buf.Bytes(), want)
		}
	}
}
