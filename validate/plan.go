package validate

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// A shapePlan says what a CUE definition can observe of the data at one
// position, so that the converter hashes at least that into a shape and
// may replace what the definition cannot see. It is derived from the
// definition's syntax (planDefs) and is sound for the fragment of CUE it
// accepts, in which the constraint on a value depends on its position
// only, never on other data:
//
//   - a struct is valid when the fields it requires are present, it has
//     no field it does not allow, and each field is valid;
//   - a list [...X] is valid when each element is, whatever their order
//     and number;
//   - a scalar is valid depending on its kind, whether it is the empty
//     string, and, where values is set, its value.
//
// Anything else that stays local to one value (other lists, disjunctions
// of structs, validators such as strings.MinRunes, definitions from other
// packages) makes the position exact: everything below it is observed. A
// definition with anything that is not local (a reference to another
// field, a comprehension, a let clause) gets no plan and is never cached.
//
// A nil *shapePlan is a position that nothing constrains (`_`, or a field
// no struct declares): the definition observes only its presence there.
type shapePlan struct {
	values     bool                  // string contents are observed, not only whether they are empty
	exact      bool                  // everything below is observed as it is
	structural bool                  // the constraint includes a struct or a list
	fields     map[string]*shapePlan // declared fields (pattern constraints included)
	keep       map[string]bool       // the fields a stand-in keeps: all but the optional ones
	others     *shapePlan            // fields not declared: [string]: X or ...X
	elem       *shapePlan            // the elements of [...X]
}

var exactPlan = &shapePlan{exact: true, structural: true}

// field is the plan of a field of a struct at p.
func (p *shapePlan) field(name string) *shapePlan {
	if p == nil {
		return nil
	}
	if f, ok := p.fields[name]; ok {
		return f
	}
	return p.others
}

// free reports whether the member m of a struct at p is constrained only
// by a pattern ([string]: X): CUE sees it, not as a field p declares.
func (p *shapePlan) free(m *member) bool {
	if p == nil || p.others == nil || m.cueKey == "" || m.slot {
		return false
	}
	_, declared := p.fields[m.cueKey]
	return !declared
}

// element is the plan of the elements of a list at p.
func (p *shapePlan) element() *shapePlan {
	if p == nil {
		return nil
	}
	return p.elem
}

// merge is the plan of the conjunction of a and b.
func merge(a, b *shapePlan) *shapePlan {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.exact || b.exact:
		return exactPlan
	}
	m := &shapePlan{
		values:     a.values || b.values,
		structural: a.structural || b.structural,
		others:     merge(a.others, b.others),
		elem:       merge(a.elem, b.elem),
	}
	for _, p := range []*shapePlan{a, b} {
		for name, f := range p.fields {
			m.setField(name, f, p.keep[name])
		}
	}
	// A pattern of one side constrains the fields the other declares.
	for name := range m.fields {
		if _, ok := a.fields[name]; !ok {
			m.fields[name] = merge(m.fields[name], a.others)
		}
		if _, ok := b.fields[name]; !ok {
			m.fields[name] = merge(m.fields[name], b.others)
		}
	}
	return m
}

func (p *shapePlan) setField(name string, f *shapePlan, keep bool) {
	if p.fields == nil {
		p.fields, p.keep = map[string]*shapePlan{}, map[string]bool{}
	}
	old, declared := p.fields[name]
	if declared {
		f = merge(old, f)
	}
	p.fields[name] = f // nil for `_`
	p.keep[name] = p.keep[name] || keep
}

// planDefs derives the plans of the named top-level definitions of a CUE
// package's files. A definition that falls outside the fragment, or that
// is not found, has no plan.
func planDefs(files []*ast.File, names []string) map[string]*shapePlan {
	pl := &planner{defs: map[string][]ast.Expr{}, top: map[string]bool{}, done: map[string]planned{}, busy: map[string]bool{}}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.Field:
				name, isIdent, ok := labelName(d.Label)
				if !ok {
					return nil // a pattern or a computed label: what it adds to is unknown
				}
				pl.top[name] = true
				if isIdent && d.Alias == nil && isDefinition(name) {
					pl.defs[name] = append(pl.defs[name], d.Value)
				}
			case *ast.LetClause:
				pl.top[d.Ident.Name] = true
			case *ast.Alias:
				pl.top[d.Ident.Name] = true
			case *ast.Package, *ast.ImportDecl, *ast.Attribute, *ast.CommentGroup:
			default:
				// An embedding or a comprehension at the top level may
				// add to any definition.
				return nil
			}
		}
	}
	out := map[string]*shapePlan{}
	for _, n := range names {
		pl.opaque = false
		p := pl.def(n)
		if !pl.opaque {
			if p == nil {
				p = &shapePlan{}
			}
			out[n] = p
		}
	}
	return out
}

func isDefinition(name string) bool {
	return strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_#")
}

// labelName is the name of an identifier or string label, and whether it
// is an identifier (only those declare definitions and hidden fields).
func labelName(l ast.Label) (name string, isIdent, ok bool) {
	switch l := l.(type) {
	case *ast.Ident:
		return l.Name, true, true
	case *ast.BasicLit:
		name, isIdent, err := ast.LabelName(l)
		return name, isIdent, err == nil
	}
	return "", false, false
}

// planner derives plans; opaque records that the definition being planned
// uses something outside the fragment.
type planner struct {
	defs   map[string][]ast.Expr // top-level definitions, each of its declarations
	top    map[string]bool       // every name declared at the top level
	scopes []map[string]bool     // the names declared by the structs around
	done   map[string]planned
	busy   map[string]bool // definitions being planned, to refuse recursion
	opaque bool
}

// planned is a definition's plan, or opaque.
type planned struct {
	plan   *shapePlan
	opaque bool
}

// def plans a top-level definition.
func (pl *planner) def(name string) *shapePlan {
	if d, ok := pl.done[name]; ok {
		pl.opaque = pl.opaque || d.opaque
		return d.plan
	}
	decls, ok := pl.defs[name]
	if !ok || pl.busy[name] {
		pl.opaque = true
		return exactPlan
	}
	pl.busy[name] = true
	outer, scopes := pl.opaque, pl.scopes
	pl.opaque, pl.scopes = false, nil // a definition sees only the top level
	var p *shapePlan
	for _, e := range decls {
		p = merge(p, pl.expr(e))
	}
	pl.done[name] = planned{p, pl.opaque}
	pl.opaque, pl.scopes = outer || pl.opaque, scopes
	delete(pl.busy, name)
	return p
}

// expr plans the constraint e.
func (pl *planner) expr(e ast.Expr) *shapePlan {
	switch e := e.(type) {
	case *ast.Ident:
		return pl.ident(e.Name)
	case *ast.BasicLit:
		return &shapePlan{values: true}
	case *ast.BottomLit:
		return &shapePlan{}
	case *ast.ParenExpr:
		return pl.expr(e.X)
	case *ast.UnaryExpr:
		return pl.unary(e)
	case *ast.BinaryExpr:
		return pl.binary(e)
	case *ast.StructLit:
		return pl.structLit(e.Elts)
	case *ast.ListLit:
		return pl.list(e)
	case *ast.SelectorExpr:
		if pl.imported(e.X) {
			return exactPlan // a value of another package: local, unknown
		}
	case *ast.CallExpr:
		return pl.call(e)
	}
	pl.opaque = true
	return exactPlan
}

// ident plans a reference.
func (pl *planner) ident(name string) *shapePlan {
	for _, s := range pl.scopes {
		if s[name] {
			pl.opaque = true // a field of the data, or something declared beside it
			return exactPlan
		}
	}
	if pl.top[name] {
		if isDefinition(name) {
			return pl.def(name)
		}
		pl.opaque = true
		return exactPlan
	}
	switch name {
	case "_":
		return nil
	case "string", "bytes", "int", "float", "number", "bool", "null":
		return &shapePlan{}
	case "uint", "uint8", "uint16", "uint32", "uint64", "uint128", "int8", "int16", "int32", "int64", "int128", "rune", "float32", "float64":
		return &shapePlan{values: true} // bounds
	}
	pl.opaque = true
	return exactPlan
}

// imported reports whether x names an imported package: an identifier
// that nothing in the package declares, which CUE resolves to an import.
func (pl *planner) imported(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	if !ok || pl.top[id.Name] {
		return false
	}
	for _, s := range pl.scopes {
		if s[id.Name] {
			return false
		}
	}
	return true
}

func (pl *planner) unary(e *ast.UnaryExpr) *shapePlan {
	if e.Op == token.MUL { // a default: *x | y
		return pl.expr(e.X)
	}
	if !constant(e.X) {
		pl.opaque = true
		return exactPlan
	}
	if lit, ok := e.X.(*ast.BasicLit); ok && e.Op == token.NEQ && lit.Kind == token.STRING && lit.Value == `""` {
		return &shapePlan{} // != "": the shape tells empty strings apart
	}
	return &shapePlan{values: true}
}

func (pl *planner) binary(e *ast.BinaryExpr) *shapePlan {
	switch e.Op {
	case token.AND:
		return merge(pl.expr(e.X), pl.expr(e.Y))
	case token.OR:
		x, y := pl.expr(e.X), pl.expr(e.Y)
		if x == nil || y == nil {
			return nil // _ | y is _
		}
		if x.structural || y.structural || x.exact || y.exact {
			return exactPlan // which struct applies depends on the value
		}
		return &shapePlan{values: true}
	}
	if !constant(e) {
		pl.opaque = true
		return exactPlan
	}
	return &shapePlan{values: true}
}

// structLit plans a struct from its declarations.
func (pl *planner) structLit(elts []ast.Decl) *shapePlan {
	scope := map[string]bool{}
	for _, d := range elts {
		if f, ok := d.(*ast.Field); ok {
			if name, _, ok := labelName(f.Label); ok {
				scope[name] = true
			}
		}
	}
	pl.scopes = append([]map[string]bool{scope}, pl.scopes...)
	defer func() { pl.scopes = pl.scopes[1:] }()
	own := &shapePlan{structural: true}
	var embedded []*shapePlan
	for _, d := range elts {
		switch d := d.(type) {
		case *ast.Field:
			pl.field(own, d)
		case *ast.Ellipsis:
			if d.Type != nil {
				own.others = merge(own.others, pl.expr(d.Type))
			}
		case *ast.EmbedDecl:
			embedded = append(embedded, pl.expr(d.Expr))
		case *ast.Attribute, *ast.CommentGroup:
		default:
			pl.opaque = true
			return exactPlan
		}
	}
	if own.exact {
		return exactPlan
	}
	for name, f := range own.fields {
		own.fields[name] = merge(f, own.others)
	}
	p := own
	for _, e := range embedded {
		p = merge(p, e)
	}
	return p
}

// field adds a field declaration to the struct plan p, which is new.
func (pl *planner) field(p *shapePlan, f *ast.Field) {
	if f.Alias != nil {
		pl.opaque = true
		return
	}
	if l, ok := f.Label.(*ast.ListLit); ok { // [string]: X
		if len(l.Elts) != 1 || !isAnyString(l.Elts[0]) {
			p.exact = true // which fields it constrains depends on their names
			pl.expr(f.Value)
			return
		}
		p.others = merge(p.others, pl.expr(f.Value))
		return
	}
	name, isIdent, ok := labelName(f.Label)
	if !ok {
		pl.opaque = true
		return
	}
	if isIdent && strings.HasPrefix(name, "_") || isIdent && isDefinition(name) {
		return // hidden fields and definitions are not fields of the data
	}
	p.setField(name, pl.expr(f.Value), f.Constraint != token.OPTION)
}

func isAnyString(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "string" || id.Name == "_")
}

// list plans a list literal: [...X] constrains each element alike; any
// other list observes its elements' order and number.
func (pl *planner) list(l *ast.ListLit) *shapePlan {
	if len(l.Elts) == 1 {
		if el, ok := l.Elts[0].(*ast.Ellipsis); ok {
			p := &shapePlan{structural: true}
			if el.Type != nil {
				p.elem = pl.expr(el.Type)
			}
			return p
		}
	}
	for _, e := range l.Elts {
		if el, ok := e.(*ast.Ellipsis); ok {
			if el.Type != nil {
				pl.expr(el.Type)
			}
			continue
		}
		pl.expr(e)
	}
	return exactPlan
}

// call plans close(X) and validators of other packages with constant
// arguments (strings.MinRunes(1)).
func (pl *planner) call(c *ast.CallExpr) *shapePlan {
	if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "close" && len(c.Args) == 1 && !pl.declared("close") {
		return pl.expr(c.Args[0])
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || !pl.imported(sel.X) {
		pl.opaque = true
		return exactPlan
	}
	for _, a := range c.Args {
		if !constant(a) {
			pl.opaque = true
		}
	}
	return exactPlan
}

func (pl *planner) declared(name string) bool {
	if pl.top[name] {
		return true
	}
	for _, s := range pl.scopes {
		if s[name] {
			return true
		}
	}
	return false
}

// constant reports whether e is made of literals only.
func constant(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return constant(e.X)
	case *ast.UnaryExpr:
		return constant(e.X)
	case *ast.BinaryExpr:
		return constant(e.X) && constant(e.Y)
	case *ast.ListLit:
		for _, x := range e.Elts {
			if !constant(x) {
				return false
			}
		}
		return true
	}
	return false
}
