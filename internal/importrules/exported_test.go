package importrules

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// source is one package's directory and non-test Go files.
type source struct {
	path  string
	dir   string
	files []string
}

func sources(t *testing.T) []source {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{.Dir}} {{join .GoFiles ","}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var srcs []source
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), " ")
		srcs = append(srcs, source{path: f[0], dir: f[1], files: split(f[2])})
	}
	return srcs
}

// exportedInternal lists the places where the exported API of the Go file
// src mentions a type of one of the module's internal packages.
func exportedInternal(fset *token.FileSet, name string, src []byte) ([]string, error) {
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	internal := map[string]string{} // local import name -> path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !strings.HasPrefix(path, module+"/internal/") {
			continue
		}
		local := filepath.Base(path)
		if imp.Name != nil {
			local = imp.Name.Name
		}
		internal[local] = path
	}
	if len(internal) == 0 {
		return nil, nil
	}
	var out []string
	mentions := func(what string, n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				_ = lit
				return false // a function body is not API
			}
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] != "" {
				out = append(out, fset.Position(sel.Pos()).String()+": "+what+" mentions "+internal[id.Name]+"."+sel.Sel.Name)
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
				continue
			}
			mentions(d.Name.Name, d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						mentions(s.Name.Name, exportedPart(s.Type))
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							mentions(n.Name, s.Type)
						}
					}
				}
			}
		}
	}
	return out, nil
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// exportedPart drops the unexported fields of a struct type and the
// unexported methods of an interface type.
func exportedPart(t ast.Expr) ast.Expr {
	switch x := t.(type) {
	case *ast.StructType:
		return &ast.StructType{Fields: exportedFields(x.Fields)}
	case *ast.InterfaceType:
		return &ast.InterfaceType{Methods: exportedFields(x.Methods)}
	}
	return t
}

func exportedFields(fl *ast.FieldList) *ast.FieldList {
	out := &ast.FieldList{}
	for _, f := range fl.List {
		if len(f.Names) == 0 { // embedded: its exported parts are promoted
			out.List = append(out.List, f)
			continue
		}
		for _, n := range f.Names {
			if n.IsExported() {
				out.List = append(out.List, f)
				break
			}
		}
	}
	return out
}

// TestNoInternalTypesInPublicAPI checks that no public package's exported
// functions, types, fields, methods, variables or constants mention a
// type of internal/: what a caller outside the module must pass or gets
// back, it can name.
func TestNoInternalTypesInPublicAPI(t *testing.T) {
	fset := token.NewFileSet()
	for _, s := range sources(t) {
		if folder(s.path) == "internal" || strings.Contains(s.path, "/internal/") || folder(s.path) == "cmd" || folder(s.path) == "bench" {
			continue
		}
		for _, name := range s.files {
			file := filepath.Join(s.dir, name)
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			found, err := exportedInternal(fset, file, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range found {
				t.Error(f)
			}
		}
	}
}

// TestExportedInternalFinds checks the checker on a file that leaks.
func TestExportedInternalFinds(t *testing.T) {
	src := `package p
import (
	"` + module + `/internal/fserr"
	lb "` + module + `/internal/labels"
)
type T struct {
	Err fserr.Kind
	hidden fserr.Other
}
type unexported struct{ X fserr.Third }
func F(x lb.Label) error { return nil }
func (T) M() fserr.Ret { var y fserr.Local; _ = y; return nil }
func g(fserr.NotAPI) {}
var V fserr.Var
`
	got, err := exportedInternal(token.NewFileSet(), "p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"fserr.Kind", "labels.Label", "fserr.Ret", "fserr.Var"} {
		if !strings.Contains(all, want) {
			t.Errorf("missed %s in:\n%s", want, all)
		}
	}
	for _, not := range []string{"fserr.Other", "fserr.Third", "fserr.Local", "fserr.NotAPI"} {
		if strings.Contains(all, not) {
			t.Errorf("reported %s, which is not exported API:\n%s", not, all)
		}
	}
}

// TestInternalIsSmall keeps internal/ for private leaves: under a tenth of
// the module's hand-written Go lines.
func TestInternalIsSmall(t *testing.T) {
	var all, internal int
	for _, s := range sources(t) {
		for _, name := range s.files {
			if strings.HasSuffix(name, ".pb.go") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(s.dir, name))
			if err != nil {
				t.Fatal(err)
			}
			n := bytes.Count(data, []byte("\n"))
			all += n
			if folder(s.path) == "internal" {
				internal += n
			}
		}
	}
	if internal*10 >= all {
		t.Errorf("internal/ holds %d of %d Go lines (%.0f%%): move what is not a private leaf to its layer", internal, all, 100*float64(internal)/float64(all))
	}
}
