package declcfg

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzLoadFS loads two fuzzed files, one named as YAML and one as JSON,
// from an in-memory file system and checks what holds for any input: no
// panic; every problem names its file and a line of it (only a whole-file
// problem may have none); every object is at a line of its file; and
// loading is deterministic, whatever the workers do. (FuzzLoad checks that
// what is loaded survives a write and a second load.)
func FuzzLoadFS(f *testing.F) {
	if testing.Short() {
		f.Skip("the seed corpus runs in make test-full")
	}
	var seeds [][]byte
	for _, pattern := range []string{"../testdata/catalog/*/*.yaml", "../testdata/serve/catalog/*.yaml", "../testdata/serve/catalog/*/*", "../testdata/demo/*.yaml"} {
		names, _ := filepath.Glob(pattern)
		for _, name := range names {
			if data, err := os.ReadFile(name); err == nil && len(data) <= maxFuzzInput {
				seeds = append(seeds, data)
			}
		}
	}
	for i, s := range seeds {
		other := seeds[(i+1)%len(seeds)]
		if len(s)+len(other) > maxFuzzInput {
			other = nil
		}
		f.Add(s, other)
	}
	f.Add([]byte("schema: olm.package\nname: x\nv: [b?]\n---\nschema: x.y\nv: .nan\n"), []byte(`{"schema":"olm.package","name":"x"}`+"\n"+`{"schema":"x.y","v":[[[`))
	f.Add([]byte("schema: x.y\nv: &a xxxxxxxx\nw: [*a, *a]\n"), []byte(`{"schema":"olm.package","name":"x",}`+"\nschema: x.y\n"))
	f.Fuzz(func(t *testing.T, yamlData, jsonData []byte) {
		if len(yamlData)+len(jsonData) > maxFuzzInput {
			return
		}
		fsys := fstest.MapFS{"a/catalog.yaml": {Data: yamlData}, "b.json": {Data: jsonData}}
		cfg, errs := fuzzLoad(t, fsys)
		for _, e := range errs {
			checkErrorLine(t, fsys, e)
		}
		forEachPos(cfg, func(p Pos) {
			checkLine(t, fsys, p.File, p.Line, false)
		})
		out := writeJSON(t, cfg)
		cfg2, errs2 := fuzzLoad(t, fsys)
		if out2 := writeJSON(t, cfg2); !bytes.Equal(out, out2) || errs.Error() != errs2.Error() {
			t.Fatalf("two loads differ:\n%s\n%v\nand\n%s\n%v", out, errs, out2, errs2)
		}
	})
}

// maxFuzzInput bounds fuzz inputs, so that a slow case shows up as a
// slow execution rather than a hang of the fuzzer.
const maxFuzzInput = 64 << 10

func fuzzLoad(t *testing.T, fsys fstest.MapFS) (*DeclarativeConfig, ErrorList) {
	t.Helper()
	cfg, err := LoadFS(context.Background(), fsys, WithConcurrency(2))
	var list ErrorList
	if err != nil && !errors.As(err, &list) {
		t.Fatalf("LoadFS: %v", err)
	}
	return cfg, list
}

func writeJSON(t *testing.T, cfg *DeclarativeConfig) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(cfg, &b, FormatJSON); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.Bytes()
}

// wholeFile are the problems that concern a file rather than a line of it.
var wholeFile = []string{"binary file"}

func checkErrorLine(t *testing.T, fsys fstest.MapFS, e *Error) {
	t.Helper()
	whole := false
	for _, s := range wholeFile {
		whole = whole || strings.Contains(e.Message, s)
	}
	if e.Column < 0 || (e.Column > 0 && e.Line == 0) {
		t.Fatalf("problem %q at column %d of line %d", e.Error(), e.Column, e.Line)
	}
	checkLine(t, fsys, e.File, e.Line, whole)
	if whole && e.Line != 0 {
		t.Fatalf("whole-file problem %q at a line", e.Error())
	}
}

// checkLine checks that line is a line of the file: from 1 to one past
// the last line break.
func checkLine(t *testing.T, fsys fstest.MapFS, file string, line int, none bool) {
	t.Helper()
	mf, ok := fsys[file]
	if !ok {
		t.Fatalf("position in %q, which is not a file of the catalog", file)
	}
	if none && line == 0 {
		return
	}
	if last := 1 + bytes.Count(mf.Data, []byte{'\n'}); line < 1 || line > last {
		t.Fatalf("position %s:%d, outside lines 1 to %d of\n%q", file, line, last, mf.Data)
	}
}

// forEachPos calls fn with the position of every object of cfg.
func forEachPos(cfg *DeclarativeConfig, fn func(Pos)) {
	for _, p := range cfg.Packages {
		fn(p.Pos)
	}
	for _, c := range cfg.Channels {
		fn(c.Pos)
	}
	for _, b := range cfg.Bundles {
		fn(b.Pos)
	}
	for _, d := range cfg.Deprecations {
		fn(d.Pos)
	}
	for _, m := range cfg.Others {
		fn(m.Pos)
	}
}
