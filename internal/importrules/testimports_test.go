package importrules

import (
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// testOnly are packages that belong in tests: the library loads files
// from memory with declcfg.MemFS, not testing/fstest.
var testOnly = []string{"testing/fstest"}

// testOnlyImports lists the imports of testOnly packages in the Go source
// src of file name, unless it is a test file.
func testOnlyImports(fset *token.FileSet, name string, src []byte) ([]string, error) {
	if strings.HasSuffix(name, "_test.go") {
		return nil, nil
	}
	f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, err
		}
		for _, bad := range testOnly {
			if p == bad {
				out = append(out, fset.Position(imp.Pos()).String()+": imports "+p+", which is for tests only")
			}
		}
	}
	return out, nil
}

// TestNoTestOnlyImports checks every non-test Go file of the module,
// whatever its build constraints.
func TestNoTestOnlyImports(t *testing.T) {
	fset := token.NewFileSet()
	walkGoFiles(t, func(rel string, src []byte) error {
		bad, err := testOnlyImports(fset, rel, src)
		for _, b := range bad {
			t.Error(b)
		}
		return err
	})
}

// TestTestOnlyImportsFound checks the checker on a library file that
// imports testing/fstest, and on a test file that may.
func TestTestOnlyImportsFound(t *testing.T) {
	src := []byte("package p\n\nimport (\n\t\"fmt\"\n\tfs \"testing/fstest\"\n)\n")
	got, err := testOnlyImports(token.NewFileSet(), "p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "p.go:5:") {
		t.Errorf("got %q, want the import on line 5 reported", got)
	}
	if got, _ := testOnlyImports(token.NewFileSet(), "p_test.go", src); len(got) != 0 {
		t.Errorf("a test file was reported: %q", got)
	}
}
