package validate

import (
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
)

// TestBuiltinListsAreOpen keeps true what listsInParts assumes of the
// built-in definitions: every list is [...X], so a list is valid when each
// element is, and nothing (len, the list package) looks at a list whole.
func TestBuiltinListsAreOpen(t *testing.T) {
	f, err := parser.ParseFile("fbc.cue", fbcSource)
	if err != nil {
		t.Fatal(err)
	}
	for imp := range f.ImportSpecs() {
		if imp.Path.Value == `"list"` {
			t.Errorf("fbc.cue imports the list package: long lists can no longer be checked in parts")
		}
	}
	patterns := map[*ast.ListLit]bool{} // [string]: X in a struct is a label, not a list
	ast.Walk(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if l, ok := n.Label.(*ast.ListLit); ok {
				patterns[l] = true
			}
		case *ast.ListLit:
			if patterns[n] {
				break
			}
			if len(n.Elts) != 1 {
				t.Errorf("%v: a list that is not [...X]: long lists can no longer be checked in parts", n.Pos())
			} else if _, ok := n.Elts[0].(*ast.Ellipsis); !ok {
				t.Errorf("%v: a list that is not [...X]: long lists can no longer be checked in parts", n.Pos())
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "len" {
				t.Errorf("%v: len() of a value: long lists can no longer be checked in parts", n.Pos())
			}
		}
		return true
	}, nil)
}
