package declcfg

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

const pkgJSON = `{"schema":"olm.package","name":"foo","defaultChannel":"stable"}`

func load(t *testing.T, fsys fstest.MapFS, opts ...LoadOption) (*DeclarativeConfig, ErrorList) {
	t.Helper()
	cfg, err := LoadFS(context.Background(), fsys, opts...)
	var list ErrorList
	if err != nil && !errors.As(err, &list) {
		t.Fatalf("LoadFS: %v", err)
	}
	return cfg, list
}

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

// TestLoadDocuments covers how files become documents: JSON streams, YAML
// streams, upstream's JSON-to-YAML fallback, and the documents upstream
// rejects.
func TestLoadDocuments(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		packages int
		others   int
		errs     []string // substrings, one per expected error, in order
	}{
		{"Success/empty file", "", 0, 0, nil},
		{"Success/json stream", pkgJSON + "\n" + `{"schema":"x.y","package":"foo"}`, 1, 1, nil},
		{"Success/json objects without space", pkgJSON + `{"schema":"x.y"}`, 1, 1, nil},
		{"Success/yaml stream", "schema: olm.package\nname: foo\n---\nschema: x.y\n", 1, 1, nil},
		{"Success/yaml leading and trailing separators", "---\nschema: olm.package\nname: foo\n---\n", 1, 0, nil},
		{"Success/yaml separator folded into next document", "schema: x.a\n---\n---\nschema: x.b\n", 0, 2, nil},
		{"Success/crlf", "schema: olm.package\r\nname: foo\r\n---\r\nschema: x.y\r\n", 1, 1, nil},
		{"Success/trailing comma read as yaml", `{"schema":"olm.package","name":"foo",}`, 1, 0, nil},
		{"Success/yaml booleans as keys", "schema: x.y\nn: 1\n", 0, 1, nil},
		{"Error/whitespace only", "\n\n", 0, 0, []string{"empty YAML document"}},
		{"Error/comment only", "# nothing\n", 0, 0, []string{"empty YAML document"}},
		{"Error/separator only", "---\n", 0, 0, []string{"empty YAML document"}},
		{"Error/blank document between separators", "schema: x.a\n---\n\n---\nschema: x.b\n", 0, 2, []string{"empty YAML document"}},
		{"Error/bad separator", "schema: x.a\n--- foo\nschema: x.b\n", 0, 1, []string{"invalid document separator"}},
		{"Error/json syntax", pkgJSON + "\n" + `{"schema":"x.y"}` + "\n" + `{"schema" "x"}`, 1, 1, []string{"3:11: invalid JSON"}},
		{"Error/truncated json", `{"schema":"olm.package","name":"foo"`, 0, 0, []string{"invalid JSON"}},
		{"Error/yaml syntax", "schema: olm.package\nname: [foo\n", 0, 0, []string{"invalid YAML"}},
		{"Error/tab indentation", "schema: x.y\nspec:\n\tname: foo\n", 0, 0, []string{"invalid YAML"}},
		{"Error/list document", "- a\n- b\n", 0, 0, []string{"document is a list, not an object"}},
		{"Error/prose", "This is a readme.\n", 0, 0, []string{`document is the text "This is a readme."`}},
		{"Error/missing schema", `{"name":"foo"}`, 0, 0, []string{`no "schema" field`}},
		{"Error/keys differing in case", `{"schema":"olm.package","Name":"a","name":"b"}`, 0, 0, []string{`"Name" and "name"`}},
		{"Error/non-string name", `{"schema":"olm.package","name":5}`, 0, 0, []string{`field "name" must be a string, not a number (5)`}},
		{"Error/each bad yaml document reported", "schema: [\n---\nschema: x.ok\n---\nname: [\n", 0, 1, []string{"1: invalid YAML", "5: invalid YAML"}},
		{"Error/bad typed field", `{"schema":"olm.package","name":"foo","defaultChannel":5}`, 0, 0, []string{"defaultChannel must be a string, not a number (5)"}},
		{"Error/bad icon base64", `{"schema":"olm.package","name":"foo","icon":{"base64data":"!!"}}`, 0, 0, []string{"icon.base64data is not valid base64"}},
		{"Error/bad bundle object", `{"schema":"olm.bundle","name":"b","package":"foo","properties":[{"type":"olm.bundle.object","value":{"data":"%%"}}]}`, 0, 0, []string{"properties[0].value.data: not valid base64"}},
		{"Error/every bad bundle object, whatever else is wrong", `{"schema":"olm.bundle","name":"b","package":"foo","image":5,"properties":[{"type":"olm.bundle.object","value":{"data":"%%"}},{"type":"olm.bundle.object","value":"x"}]}`, 0, 0, []string{"image must be a string", "properties[0].value.data: not valid base64", "properties[1].value must be an object"}},
		{"Error/binary file", "\x89PNG\r\n\x1a\n\x00\x00", 0, 0, []string{"binary file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, errs := load(t, fstest.MapFS{"f": file(tt.data)})
			if len(cfg.Packages) != tt.packages || len(cfg.Others) != tt.others {
				t.Errorf("got %d packages, %d others; want %d, %d", len(cfg.Packages), len(cfg.Others), tt.packages, tt.others)
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("got errors %v, want %d", errs, len(tt.errs))
			}
			for i, want := range tt.errs {
				if !strings.Contains(errs[i].Error(), want) || errs[i].File != "f" {
					t.Errorf("error %d = %q, want it to name f and contain %q", i, errs[i].Error(), want)
				}
			}
		})
	}
}

// TestLoadNormalizes checks the value normalisation upstream applies.
func TestLoadNormalizes(t *testing.T) {
	cfg, errs := load(t, fstest.MapFS{"f.yaml": file(`
schema: olm.bundle
name: foo.v1
package: foo
Image: quay.io/foo:v1
unknown: dropped
properties:
- type: example.com.thing
  value:
    b: 12345678901234567890
    a: 1.0
    c: yes
    d: 2.50
    e: ~
relatedImages:
- image: b
`)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	b := cfg.Bundles[0]
	if b.Image != "quay.io/foo:v1" {
		t.Errorf("Image = %q: keys must match ignoring case", b.Image)
	}
	if got, want := string(b.Properties[0].Value), `{"a":1,"b":12345678901234567000,"c":true,"d":2.5,"e":null}`; got != want {
		t.Errorf("property value = %s, want %s", got, want)
	}
	if b.Pos.Line != 2 || b.Properties[0].Line != 8 {
		t.Errorf("positions: bundle line %d, property line %d; want 2, 8", b.Pos.Line, b.Properties[0].Line)
	}
	// Documents the fast reader leaves to go-yaml (flow style here) still
	// start at their first line of content.
	cfg, errs = load(t, fstest.MapFS{"f.yaml": file("# comment\n\n{schema: x.y, name: a}\n")})
	if len(errs) > 0 || cfg.Others[0].Pos.Line != 3 {
		t.Errorf("flow document at line %d (errors %v), want 3", cfg.Others[0].Pos.Line, errs)
	}
}

func TestLoadIsDeterministic(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := 0; i < 40; i++ {
		fsys[filepath.Join("d", string(rune('a'+i%26))+string(rune('a'+i/26)), "x.json")] = file(`{"schema":"x.y","name":"` + string(rune('a'+i%26)) + `"}`)
	}
	var first []string
	for run := 0; run < 5; run++ {
		cfg, _ := load(t, fsys, WithConcurrency(4))
		var names []string
		for _, m := range cfg.Others {
			names = append(names, m.Pos.File)
		}
		if run == 0 {
			first = names
			if !slices.IsSorted(names) {
				t.Fatalf("objects not in walk order: %v", names)
			}
		} else if !slices.Equal(first, names) {
			t.Fatalf("run %d order differs", run)
		}
	}
}

// TestIndexIgnore checks .indexignore with git's rules, as upstream
// applies them through go-git's matcher.
func TestIndexIgnore(t *testing.T) {
	obj := file(`{"schema":"x.y"}`)
	prose := file("not a catalog\n")
	tests := []struct {
		name  string
		fsys  fstest.MapFS
		files []string
	}{
		{"name at any depth", fstest.MapFS{".indexignore": file("README.md\n"), "README.md": prose, "a/README.md": prose, "a/c.json": obj}, []string{"a/c.json"}},
		{"anchored", fstest.MapFS{".indexignore": file("/o.json\n"), "o.json": prose, "other/o.json": obj}, []string{"other/o.json"}},
		{"anchored in nested file", fstest.MapFS{"other/.indexignore": file("/o.json\n"), "o.json": obj, "other/o.json": prose}, []string{"o.json"}},
		{"middle slash anchors", fstest.MapFS{"foo/.indexignore": file("docs/b.yaml\n"), "foo/docs/b.yaml": prose, "foo/sub/docs/b.yaml": obj}, []string{"foo/sub/docs/b.yaml"}},
		{"directory", fstest.MapFS{".indexignore": file("sub/\n"), "sub/a.json": prose, "sub/x/b.json": prose, "c.json": obj}, []string{"c.json"}},
		{"double star", fstest.MapFS{".indexignore": file("**/objects/**\n"), "foo/objects/x/y.yaml": prose, "foo/objectsnot/b.json": obj}, []string{"foo/objectsnot/b.json"}},
		{"question mark", fstest.MapFS{".indexignore": file("note?.txt\n"), "note1.txt": prose, "noteX.json": obj}, []string{"noteX.json"}},
		{"regex metacharacters are literal", fstest.MapFS{".indexignore": file("a+b.yaml\n(x).json\n"), "a+b.yaml": prose, "(x).json": prose, "aab.yaml": obj, "x.json": obj}, []string{"aab.yaml", "x.json"}},
		{"negation", fstest.MapFS{".indexignore": file("*.json\n!keep.json\n"), "a.json": prose, "keep.json": obj}, []string{"keep.json"}},
		{"nested negation", fstest.MapFS{".indexignore": file("**/extra/*\n"), "foo/extra/.indexignore": file("!keep.json\n"), "foo/extra/keep.json": obj, "foo/extra/readme.md": prose}, []string{"foo/extra/keep.json"}},
		{"comments and blank lines", fstest.MapFS{".indexignore": file("# comment\n\n  skip.json  \n"), "skip.json": prose, "x.json": obj}, []string{"x.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, errs := load(t, tt.fsys)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			var got []string
			for _, m := range cfg.Others {
				got = append(got, m.Pos.File)
			}
			if !slices.Equal(got, tt.files) {
				t.Errorf("loaded %v, want %v", got, tt.files)
			}
		})
	}
}

// TestLoadBadFiles covers what the file system can throw at the loader.
func TestLoadBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.json", `{"schema":"x.y"}`)
	write("big.json", `{"schema":"x.y","pad":"`+strings.Repeat("x", 200)+`"}`)
	write("real/dir/a.json", `{"schema":"x.z"}`)
	for _, l := range []struct{ name, target string }{{"loop1", "loop2"}, {"loop2", "loop1"}, {"dirlink", "real"}, {"dangling", "missing"}} {
		if err := os.Symlink(l.target, filepath.Join(dir, l.name)); err != nil {
			t.Skip("symlinks unsupported:", err)
		}
	}
	cfg, err := LoadFS(context.Background(), os.DirFS(dir), WithMaxFileSize(100), WithRootName("cat"))
	var errs ErrorList
	if !errors.As(err, &errs) {
		t.Fatalf("want an ErrorList, got %v", err)
	}
	want := map[string]string{
		"cat/big.json": "larger than the 100-byte limit",
		"cat/dangling": "cannot open",
		"cat/dirlink":  "link to a directory",
		"cat/loop1":    "cannot open",
		"cat/loop2":    "cannot open",
	}
	if len(errs) != len(want) {
		t.Fatalf("errors: %v", errs)
	}
	for _, e := range errs {
		if w, ok := want[e.File]; !ok || !strings.Contains(e.Message, w) {
			t.Errorf("unexpected error %v (want %q)", e, w)
		}
	}
	if len(cfg.Others) != 2 {
		t.Errorf("loaded %d objects, want the 2 readable ones", len(cfg.Others))
	}
}

func TestLoadUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.json")
	if err := os.WriteFile(p, []byte(`{"schema":"x.y"}`), 0o000); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFS(context.Background(), os.DirFS(dir))
	if err == nil || !strings.Contains(err.Error(), "secret.json: cannot open") {
		t.Fatalf("got %v", err)
	}
}

// countingFS counts the bytes read from its files.
type countingFS struct {
	fstest.MapFS
	read *atomic.Int64
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return countingFile{f, c.read}, nil
}

type countingFile struct {
	fs.File
	read *atomic.Int64
}

func (f countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.read.Add(int64(n))
	return n, err
}

// TestLoadSniffsBeforeReading checks that a binary file is told by its
// first bytes, without reading the rest, and that files longer than what
// is sniffed are read whole.
func TestLoadSniffsBeforeReading(t *testing.T) {
	long := `{"schema":"x.y","pad":"` + strings.Repeat("x", 3*binarySniffLen) + `"}`
	tests := []struct {
		name     string
		data     string
		maxRead  int64
		others   int
		errorHas string
	}{
		{"binary", strings.Repeat("\x00", 1<<20), binarySniffLen, 0, "binary file"},
		{"text longer than the sniffed part", long, int64(len(long)), 1, ""},
		{"text exactly the sniffed length", `{"schema":"x.y","p":"` + strings.Repeat("x", binarySniffLen-23) + `"}`, binarySniffLen, 1, ""},
		{"NUL after the sniffed part", long[:binarySniffLen] + "\x00" + long[binarySniffLen:], int64(len(long)) + 1, 0, "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var read atomic.Int64
			fsys := countingFS{fstest.MapFS{"f": file(tt.data)}, &read}
			cfg, err := LoadFS(context.Background(), fsys)
			if tt.errorHas == "" && err != nil || tt.errorHas != "" && (err == nil || !strings.Contains(err.Error(), tt.errorHas)) {
				t.Fatalf("error %v, want one with %q", err, tt.errorHas)
			}
			if len(cfg.Others) != tt.others {
				t.Errorf("loaded %d objects, want %d", len(cfg.Others), tt.others)
			}
			if got := read.Load(); got > tt.maxRead {
				t.Errorf("read %d bytes, want at most %d", got, tt.maxRead)
			}
		})
	}
}
