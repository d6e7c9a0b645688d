package declcfg

import (
	"context"
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// TestMemFSIsAFileSystem checks MemFS against the fs.FS contract, with
// nested directories and names that sort between a directory's files.
func TestMemFSIsAFileSystem(t *testing.T) {
	m, err := NewMemFS(map[string][]byte{
		"a.json":       []byte("{}"),
		"d/x.yaml":     []byte("schema: x.y\n"),
		"d-e/y":        nil,
		"d/sub/z.json": []byte(pkgJSON),
		"d/sub.json":   []byte("[]"),
		"d/sub0":       []byte("0"),
		".indexignore": []byte("*.md\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(m, "a.json", "d/x.yaml", "d-e/y", "d/sub/z.json", "d/sub.json", "d/sub0", ".indexignore"); err != nil {
		t.Fatal(err)
	}
	entries, err := fs.ReadDir(m, "d")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name()+map[bool]string{true: "/"}[e.IsDir()])
	}
	if want := []string{"sub/", "sub.json", "sub0", "x.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ReadDir(d) = %v, want %v", got, want)
	}
	if _, err := m.Open("nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(nope): %v, want fs.ErrNotExist", err)
	}
	if _, err := m.Open("/a.json"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Open(/a.json): %v, want fs.ErrInvalid", err)
	}
}

func TestNewMemFSRefusesBadNames(t *testing.T) {
	for _, files := range []map[string][]byte{
		{"": nil},
		{".": nil},
		{"/abs": nil},
		{"a/../b": nil},
		{"a//b": nil},
		{"./a": nil},
		{"a": nil, "a/b": nil},
		{"a": nil, "a-b": nil, "a/c": nil}, // the file and the directory's files not next to each other
	} {
		if _, err := NewMemFS(files); err == nil {
			t.Errorf("NewMemFS(%v) succeeded", files)
		}
	}
	if _, err := LoadBytes(context.Background(), "/tmp/catalog.yaml", []byte(pkgJSON)); err == nil || !strings.Contains(err.Error(), `"/tmp/catalog.yaml"`) {
		t.Errorf("LoadBytes with an absolute name: %v, want an error naming it", err)
	}
}

// loaded is everything a load reports.
type loaded struct {
	cfg      *DeclarativeConfig
	err      error
	warnings []Warning
	lines    map[int]Lines
}

// loadAll loads with load and opts, collecting warnings and lines too.
func loadAll(load func(...LoadOption) (*DeclarativeConfig, error), opts ...LoadOption) loaded {
	var mu sync.Mutex
	l := loaded{lines: map[int]Lines{}}
	opts = append(opts, WithWarnings(func(w Warning) {
		mu.Lock()
		defer mu.Unlock()
		l.warnings = append(l.warnings, w)
	}), WithLines(func(file int, lines Lines) {
		mu.Lock()
		defer mu.Unlock()
		l.lines[file] = lines
	}))
	l.cfg, l.err = load(opts...)
	SortWarnings(l.warnings)
	return l
}

func sameLoad(t *testing.T, got, want loaded) {
	t.Helper()
	if !reflect.DeepEqual(got.cfg, want.cfg) {
		t.Errorf("configs differ:\ngot  %+v\nwant %+v", got.cfg, want.cfg)
	}
	if !reflect.DeepEqual(got.err, want.err) {
		t.Errorf("errors differ:\ngot  %v\nwant %v", got.err, want.err)
	}
	if !reflect.DeepEqual(got.warnings, want.warnings) {
		t.Errorf("warnings differ:\ngot  %v\nwant %v", got.warnings, want.warnings)
	}
	if !reflect.DeepEqual(got.lines, want.lines) {
		t.Errorf("lines differ:\ngot  %v\nwant %v", got.lines, want.lines)
	}
}

// TestLoadBytesMatchesLoadFS loads files with LoadBytes and, as one file
// of a MapFS, with LoadFS, under every option, and wants the same.
func TestLoadBytesMatchesLoadFS(t *testing.T) {
	bundle := `{"schema":"olm.bundle","name":"foo.v1","package":"foo","image":"img","properties":[` +
		`{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}},` +
		`{"type":"olm.bundle.object","value":{"data":"e30="}},{"type":"olm.csv.metadata","value":{"displayName":"Foo"}}]}`
	datas := map[string]string{
		"json":     pkgJSON + "\n" + bundle + "\n",
		"yaml":     "schema: olm.package\nname: foo\n---\nschema: olm.channel\nname: stable\npackage: foo\nentries:\n- name: foo.v1\n",
		"problems": pkgJSON + "\n" + `{"schema":"olm.package","name":5}` + "\n" + `{"schema" "x"}`,
		"warnings": "\xef\xbb\xbf" + `{"schema":"olm.package","name":"foo","name":"bar","extra":1.0000000000000000001}`,
		"bad":      `{"schema":"olm.package","name":"bad"}`,
		"binary":   "\x89PNG\r\n\x1a\n\x00\x00",
		"empty":    "",
	}
	flagBad := WithObjectCheck(func() ObjectCheck {
		return func(o *Object) []*Error {
			if o.Name == "bad" {
				return []*Error{{Message: "bad name"}}
			}
			return nil
		}
	})
	optSets := map[string][]LoadOption{
		"none":      nil,
		"check":     {flagBad},
		"itemcheck": {WithItemCheck(func() ItemCheck { return func(Item, bool) []*Error { return []*Error{{Message: "seen"}} } })},
		"nobulk":    {WithoutBulkValues()},
		"root":      {WithRootName("some/dir")},
		"small":     {WithMaxFileSize(10)},
		"one":       {WithConcurrency(1)},
	}
	ctx := context.Background()
	for _, name := range []string{"catalog.json", "d/sub/index.yaml", "-"} {
		for dname, data := range datas {
			for oname, opts := range optSets {
				t.Run(name+"/"+dname+"/"+oname, func(t *testing.T) {
					got := loadAll(func(o ...LoadOption) (*DeclarativeConfig, error) {
						return LoadBytes(ctx, name, []byte(data), o...)
					}, opts...)
					want := loadAll(func(o ...LoadOption) (*DeclarativeConfig, error) {
						return LoadFS(ctx, fstest.MapFS{name: file(data)}, o...)
					}, opts...)
					sameLoad(t, got, want)
				})
			}
		}
	}
}

// TestLoadBytesNamesTheFile checks that positions, problems, warnings and
// sources carry the name LoadBytes is given, under the root name.
func TestLoadBytesNamesTheFile(t *testing.T) {
	data := "schema: olm.package\nname: foo\n---\nschema: olm.bundle\nname: foo.v1\npackage: foo\nimage: 5\n---\nschema: olm.bundle\nname: foo.v2\npackage: foo\nx: 1\n"
	var warnings []Warning
	cfg, err := LoadBytes(context.Background(), "cat/index.yaml", []byte(data), WithRootName("repo"),
		WithWarnings(func(w Warning) { warnings = append(warnings, w) }))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("got %v, want one problem", err)
	}
	if got, want := list[0].Error(), `repo/cat/index.yaml:7:8: `; !strings.HasPrefix(got, want) || !strings.Contains(got, "image must be a string") {
		t.Errorf("problem %q, want it at %s", got, want)
	}
	if got, want := cfg.Packages[0].Pos, (Pos{File: "repo/cat/index.yaml", Line: 1}); got != want {
		t.Errorf("package at %v, want %v", got, want)
	}
	if len(cfg.Bundles) != 1 {
		t.Fatalf("got %d bundles, want foo.v2", len(cfg.Bundles))
	}
	if got, want := cfg.Bundles[0].Pos, (Pos{File: "repo/cat/index.yaml", Line: 9}); got != want {
		t.Errorf("bundle at %v, want %v", got, want)
	}
	if got := cfg.Bundles[0].Src.Path; got != "cat/index.yaml" {
		t.Errorf("bundle source path %q, want the name given", got)
	}
	if len(warnings) != 1 || warnings[0].At.File != "repo/cat/index.yaml" || warnings[0].At.Line != 12 {
		t.Errorf("warnings %v, want one at repo/cat/index.yaml:12", warnings)
	}
}

// TestMemFSLoadsAsMapFS loads a tree with .indexignore files, a link-free
// copy of what a git tree read into memory holds, from a MemFS and a MapFS.
func TestMemFSLoadsAsMapFS(t *testing.T) {
	files := map[string]string{
		".indexignore":           "README.md\n",
		"README.md":              "# not catalog data\n",
		"foo/catalog.json":       pkgJSON,
		"foo/.indexignore":       "skip/\n",
		"foo/skip/x.json":        "not json",
		"foo/channels.yaml":      "schema: olm.channel\nname: stable\npackage: foo\nentries:\n- name: foo.v1\n",
		"bar/catalog.yaml":       "schema: olm.package\nname: [bar\n",
		"bar-2/catalog.json":     `{"schema":"olm.package","name":"bar-2"}`,
		"bar/deeper/other.json":  `{"schema":"x.y","package":"bar"}`,
		"bar/deeper/binary.data": "\x00",
	}
	mem := map[string][]byte{}
	mapFS := fstest.MapFS{}
	for name, data := range files {
		mem[name] = []byte(data)
		mapFS[name] = file(data)
	}
	m, err := NewMemFS(mem)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got := loadAll(func(o ...LoadOption) (*DeclarativeConfig, error) { return LoadFS(ctx, m, o...) }, WithRootName("r"))
	want := loadAll(func(o ...LoadOption) (*DeclarativeConfig, error) { return LoadFS(ctx, mapFS, o...) }, WithRootName("r"))
	sameLoad(t, got, want)
	if got.err == nil || len(got.cfg.Packages) != 2 {
		t.Errorf("got %v and %d packages: the tree was not loaded as meant", got.err, len(got.cfg.Packages))
	}
}
