package importrules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// How the files of one package depend on each other: an arrow runs from
// a file to each other file of the package that defines something it
// uses (a function, type, method, field, variable or constant). A package
// whose files form layers has its arrows run one way; arrows that run
// back up (against the order that has fewest of them) are files handing
// a thread back and forth, which a reader has to follow both ways.

// fileArrows are one package's arrows, from and to file base names.
type fileArrows struct {
	files  []string
	arrows map[[2]string]bool
}

// readFileArrows type-checks the non-test files of the package in dir
// on their own (imports are not read: what they define is left out) and
// collects the arrows between them.
func readFileArrows(dir string) (*fileArrows, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	fa := &fileArrows{arrows: map[[2]string]bool{}}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		fa.files = append(fa.files, n)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}, FakeImportC: true}
	pkg, _ := conf.Check(dir, fset, files, info)
	if pkg == nil {
		return fa, nil
	}
	add := func(at token.Pos, obj types.Object) {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			return
		}
		if v, ok := obj.(*types.Var); ok && !v.IsField() && obj.Parent() != pkg.Scope() {
			return // a local variable
		}
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() && !isFieldOrMethod(obj) {
			return // declared in a function
		}
		from, to := filepath.Base(fset.Position(at).Filename), filepath.Base(fset.Position(obj.Pos()).Filename)
		if from != to {
			fa.arrows[[2]string{from, to}] = true
		}
	}
	for id, obj := range info.Uses {
		add(id.Pos(), obj)
	}
	for sel, s := range info.Selections {
		add(sel.Sel.Pos(), s.Obj())
	}
	return fa, nil
}

func isFieldOrMethod(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Var:
		return o.IsField()
	case *types.Func:
		return o.Signature().Recv() != nil
	}
	return false
}

// emptyImporter gives every import as an empty package: only what the
// package itself defines is resolved.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	p := types.NewPackage(path, filepath.Base(path))
	p.MarkComplete()
	return p, nil
}

// backArrows orders the files so that few arrows run back up (the
// greedy order of Eades, Lin and Smyth for a small feedback arc set:
// files nothing else uses first, files that use nothing last, else the
// file whose uses most outnumber its users) and returns the arrows that
// run against it.
func (fa *fileArrows) backArrows() [][2]string {
	left := map[string]bool{}
	for _, f := range fa.files {
		left[f] = true
	}
	degree := func(f string, out bool) int {
		n := 0
		for a := range fa.arrows {
			if a[0] != a[1] && left[a[0]] && left[a[1]] && ((out && a[0] == f) || (!out && a[1] == f)) {
				n++
			}
		}
		return n
	}
	var head, tail []string
	for len(left) > 0 {
		names := slices.Sorted(func(yield func(string) bool) {
			for f := range left {
				if !yield(f) {
					return
				}
			}
		})
		moved := false
		for _, f := range names {
			switch {
			case degree(f, false) == 0: // nothing left uses it: a top
				head = append(head, f)
			case degree(f, true) == 0: // it uses nothing left: a bottom
				tail = append([]string{f}, tail...)
			default:
				continue
			}
			delete(left, f)
			moved = true
		}
		if moved {
			continue
		}
		best, score := "", 0
		for _, f := range names {
			if s := degree(f, true) - degree(f, false); best == "" || s > score {
				best, score = f, s
			}
		}
		head = append(head, best)
		delete(left, best)
	}
	rank := map[string]int{}
	for i, f := range append(head, tail...) {
		rank[f] = i
	}
	var back [][2]string
	for a := range fa.arrows {
		if rank[a[0]] > rank[a[1]] {
			back = append(back, a)
		}
	}
	sort.Slice(back, func(i, j int) bool { return back[i][0]+back[i][1] < back[j][0]+back[j][1] })
	return back
}

// TestFileArrows measures, for every package, the arrows between its
// files and those that run back up (go test -run TestFileArrows -v
// prints them), and holds the packages of lint, author and catalogrepo,
// the largest rooms, to arrows that run mostly downward.
func TestFileArrows(t *testing.T) {
	for _, p := range load(t) {
		rest, ok := strings.CutPrefix(p.path, module+"/")
		if !ok || p.main {
			continue
		}
		fa, err := readFileArrows(filepath.Join("..", "..", rest))
		if err != nil {
			t.Fatal(err)
		}
		back := fa.backArrows()
		t.Logf("%-24s %3d files %4d arrows %3d back up", rest, len(fa.files), len(fa.arrows), len(back))
		if checkedRooms[folder(p.path)] && len(fa.arrows) >= minArrows && len(back)*maxBackShare > len(fa.arrows) {
			var list []string
			for _, a := range back {
				list = append(list, fmt.Sprintf("%s -> %s", a[0], a[1]))
			}
			t.Errorf("%s: %d of %d arrows between its files run back up (at most 1 in %d): %s", rest, len(back), len(fa.arrows), maxBackShare, strings.Join(list, ", "))
		}
	}
}

// checkedRooms are the folders whose packages TestFileArrows holds to
// arrows that run mostly downward.
var checkedRooms = map[string]bool{"lint": true, "author": true, "catalogrepo": true}

// At most one arrow in maxBackShare may run back up, in a package of
// minArrows arrows or more (in a smaller one a single arrow is a share).
const (
	maxBackShare = 5
	minArrows    = 10
)
