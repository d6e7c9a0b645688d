package declcfg

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// The golden files are the upstream opm's own output for testdata/catalog
// (three community packages).
func TestWriteMatchesUpstreamGoldens(t *testing.T) {
	cfg, err := LoadFS(context.Background(), os.DirFS("../testdata/catalog"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatJSON, FormatYAML} {
		var buf bytes.Buffer
		if err := Write(cfg, &buf, f); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile("../testdata/catalog.golden" + f.Ext())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s output differs from upstream's golden", f)
		}
	}
}

func TestWriteShapes(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(shapesCatalog(), &buf, FormatJSON); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != shapesJSON {
		t.Errorf("got:\n%s\nwant:\n%s", got, shapesJSON)
	}
}

// shapesCatalog holds the shapes Write must keep apart: packages with
// and without a default channel or icon, a channel whose entries are
// empty and one without any, objects without a package or name, a
// property without a value, nested and empty values, blobs of other
// schemas and a deprecation.
func shapesCatalog() *DeclarativeConfig {
	return &DeclarativeConfig{
		Packages: []Package{{Schema: SchemaPackage, Name: "b", Icon: &Icon{}}, {Schema: SchemaPackage, Name: "a", DefaultChannel: "s"}, {Schema: SchemaPackage}},
		Channels: []Channel{
			{Schema: SchemaChannel, Name: "z", Package: "a", Entries: []ChannelEntry{}},
			{Schema: SchemaChannel, Name: "y", Package: "a"},
			{Schema: SchemaChannel, Name: "orphan"},
		},
		Bundles: []Bundle{{Schema: SchemaBundle, Name: "a.v1", Package: "a", Properties: []Property{{Type: "t"}, {Type: "u", Value: []byte(`{"k":[1,{}],"e":[]}`)}}}},
		Others: []Meta{
			{Schema: "x.root", Blob: []byte(`{"schema":"x.root"}`)},
			{Schema: "x.b", Package: "a", Blob: []byte(`{"package":"a","schema":"x.b"}`)},
			{Schema: "x.a", Package: "a", Blob: []byte(`{"package":"a","schema":"x.a"}`)},
		},
		Deprecations: []Deprecation{{Schema: SchemaDeprecations, Package: "a", Entries: []DeprecationEntry{{Reference: PackageScopedReference{Schema: SchemaPackage}, Message: "old"}}}},
	}
}

// shapesJSON is what Write makes of shapesCatalog: package by package in
// name order (the package, its channels, bundles, other blobs and
// deprecations), then the blobs of no package; a package without a name
// and a channel without a package are left out.
const shapesJSON = `{
    "schema": "olm.package",
    "name": "a",
    "defaultChannel": "s"
}
{
    "schema": "olm.channel",
    "name": "y",
    "package": "a",
    "entries": null
}
{
    "schema": "olm.channel",
    "name": "z",
    "package": "a",
    "entries": []
}
{
    "schema": "olm.bundle",
    "name": "a.v1",
    "package": "a",
    "image": "",
    "properties": [
        {
            "type": "t",
            "value": null
        },
        {
            "type": "u",
            "value": {
                "k": [
                    1,
                    {}
                ],
                "e": []
            }
        }
    ]
}
{
    "package": "a",
    "schema": "x.a"
}
{
    "package": "a",
    "schema": "x.b"
}
{
    "schema": "olm.deprecations",
    "package": "a",
    "entries": [
        {
            "reference": {
                "schema": "olm.package"
            },
            "message": "old"
        }
    ]
}
{
    "schema": "olm.package",
    "name": "b",
    "defaultChannel": "",
    "icon": {
        "base64data": null,
        "mediatype": ""
    }
}
{
    "schema": "x.root"
}
`

func TestWriteDir(t *testing.T) {
	cfg, err := LoadFS(context.Background(), os.DirFS("../testdata/catalog"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Others = append(cfg.Others, Meta{Schema: "x.root", Blob: []byte(`{"schema":"x.root"}`)})
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteDir(cfg, dir, FormatYAML); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"kubevirt-wol", "libredb-studio-operator", "nfs-provisioner-operator"} {
		got, err := os.ReadFile(filepath.Join(dir, p, "catalog.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(filepath.Join("../testdata/catalog", p, "catalog.yaml"))
		if !bytes.Equal(got, want) {
			t.Errorf("%s/catalog.yaml differs from the input", p)
		}
	}
	if root, err := os.ReadFile(filepath.Join(dir, "catalog.yaml")); err != nil || string(root) != "---\nschema: x.root\n" {
		t.Errorf("root catalog.yaml = %q, %v", root, err)
	}
	if err := WriteDir(cfg, dir, FormatYAML); err == nil || !strings.Contains(err.Error(), "must be empty") {
		t.Errorf("writing into a non-empty directory: %v", err)
	}
	bad := &DeclarativeConfig{Packages: []Package{{Schema: SchemaPackage, Name: "../x"}}}
	if err := WriteDir(bad, filepath.Join(t.TempDir(), "o"), FormatJSON); err == nil || !strings.Contains(err.Error(), "single local path element") {
		t.Errorf("package name with a slash: %v", err)
	}
}

// FuzzLoad feeds arbitrary bytes to the loader: it must not panic, and
// whatever it loads must survive a write and a second load unchanged (the
// written form is a fixed point).
func FuzzLoad(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	seeds := []string{
		pkgJSON,
		"schema: olm.channel\nname: stable\npackage: foo\nentries:\n- name: foo.v1\n  skips: [a, b]\n",
		`{"schema":"olm.bundle","name":"b","package":"foo","image":"x","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}}],"relatedImages":[{"name":"","image":"x"}]}`,
		"schema: olm.deprecations\npackage: foo\nentries:\n- reference: {schema: olm.bundle, name: b}\n  message: gone\n",
		"schema: example.com.thing\nspec:\n  n: 1.5e+30\n  list: [1, 'two', \"three\"]\n  text: |\n    multi\n    line\n",
		"---\n# comment\n{a: b}\n",
		"\xef\xbb\xbf{\"schema\":\"x\"}",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"f": &fstest.MapFile{Data: data}}
		cfg, _ := LoadFS(context.Background(), fsys, WithConcurrency(1))
		if cfg == nil {
			return
		}
		for _, format := range []Format{FormatJSON, FormatYAML} {
			var first bytes.Buffer
			if err := Write(cfg, &first, format); err != nil {
				t.Fatalf("write %s: %v", format, err)
			}
			again, err := LoadFS(context.Background(), fstest.MapFS{"f": &fstest.MapFile{Data: first.Bytes()}}, WithConcurrency(1))
			if err != nil {
				t.Fatalf("reloading our own %s output: %v\n%s", format, err, first.Bytes())
			}
			var second bytes.Buffer
			if err := Write(again, &second, format); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first.Bytes(), second.Bytes()) {
				t.Fatalf("%s output is not a fixed point:\n%s\n---\n%s", format, first.Bytes(), second.Bytes())
			}
		}
	})
}
