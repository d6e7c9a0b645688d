package importrules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The longest hand-written units: a function past maxFuncLines or a file
// past maxFileLines does more than one thing; split it by concern.
const (
	maxFuncLines = 80
	maxFileLines = 700
)

// longUnits lists the functions (declared or literal) and files of the Go
// source src that are longer than the limits.
func longUnits(fset *token.FileSet, name string, src []byte) ([]string, error) {
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
		out = append(out, fmt.Sprintf("%s: %d lines (at most %d)", name, n, maxFileLines))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		what := "function literal"
		switch x := n.(type) {
		case *ast.FuncDecl:
			body, what = x.Body, "func "+x.Name.Name
		case *ast.FuncLit:
			body = x.Body
		}
		if body == nil {
			return true
		}
		start := fset.Position(n.Pos())
		if lines := fset.Position(body.Rbrace).Line - start.Line + 1; lines > maxFuncLines {
			out = append(out, fmt.Sprintf("%s: %s is %d lines (at most %d)", start, what, lines, maxFuncLines))
		}
		return true
	})
	return out, nil
}

// TestUnitSizes checks every hand-written Go file of the module, tests
// included; generated code (a "Code generated ... DO NOT EDIT." line) is
// left out.
func TestUnitSizes(t *testing.T) {
	fset := token.NewFileSet()
	walkGoFiles(t, func(rel string, src []byte) error {
		if generated(src) {
			return nil
		}
		long, err := longUnits(fset, rel, src)
		for _, l := range long {
			t.Error(l)
		}
		return err
	})
}

// walkGoFiles calls fn with the path (relative to the module root) and
// contents of every Go file of the module, tests included, leaving out
// testdata, hidden and underscore directories and bin/.
func walkGoFiles(t *testing.T, fn func(rel string, src []byte) error) {
	t.Helper()
	root := moduleRoot(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "testdata" || n == "bin" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		return fn(rel, src)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// generated reports whether src carries Go's generated-code marker.
func generated(src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(line, " DO NOT EDIT.") {
			return true
		}
		if strings.HasPrefix(line, "package ") {
			return false
		}
	}
	return false
}

// moduleRoot is the directory of go.mod, two levels up from this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	return root
}

// TestLongUnitsFound checks the checker on a long function and a long file.
func TestLongUnitsFound(t *testing.T) {
	body := strings.Repeat("\tx++\n", maxFuncLines)
	src := "package p\n\nfunc long() {\n\tx := 0\n" + body + "\t_ = func() {\n" + body + "\t}\n}\n" +
		strings.Repeat("\n", maxFileLines)
	got, err := longUnits(token.NewFileSet(), "p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"func long is", "function literal is", "p.go: "} {
		if !strings.Contains(all, want) {
			t.Errorf("missed %q in:\n%s", want, all)
		}
	}
	short, _ := longUnits(token.NewFileSet(), "q.go", []byte("package q\n\nfunc f() {}\n"))
	if len(short) != 0 {
		t.Errorf("a short file was reported: %q", short)
	}
}

// maxPackageLines bounds a package's hand-written non-test lines: past
// it, a package is several rooms in one; give each its own package.
const maxPackageLines = 4500

// TestPackageSizes checks the non-test lines of every package of the
// module (generated code left out).
func TestPackageSizes(t *testing.T) {
	lines := map[string]int{}
	walkGoFiles(t, func(rel string, src []byte) error {
		if !strings.HasSuffix(rel, "_test.go") && !generated(src) {
			lines[filepath.Dir(rel)] += strings.Count(string(src), "\n")
		}
		return nil
	})
	for dir, n := range lines {
		if n > maxPackageLines {
			t.Errorf("%s: %d non-test lines (at most %d): split it into rooms of their own", dir, n, maxPackageLines)
		}
	}
}
