package validate

import (
	"math"
	"strconv"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/fbcat/opm/encoding/value"
)

// A verdict tells without CUE that a value is valid against a definition
// written in a small part of CUE: kinds (string, int, number, bool, null,
// _), string and number literals, != "", bounds on numbers, open structs
// (with ...) with required (!), optional (?) and regular fields, patterns
// [string]: X, lists [...X], references to other definitions of the same
// file, and & of those. fbc.cue is written in it. A definition that uses
// anything else gets no verdict and is checked by CUE alone.
//
// A verdict only ever says "valid" where CUE would: it is sound, not
// complete, and whatever it refuses goes to CUE, which says why.
// TestVerdictAgreesWithCUE holds it to that on changed catalog objects.
type verdict struct {
	kinds    kindSet
	nonEmpty bool      // a string must not be ""
	strs     []string  // a string must equal each
	nums     []float64 // a number must equal each
	bools    []bool    // a boolean must equal each
	bounds   []bound   // a number must be within each
	fields   map[string]*field
	musts    int      // the fields that must be present (see settle)
	others   *verdict // [string]: X, applying to every field
	elem     *verdict // [...X]
}

// field is a declared field of a struct.
type field struct {
	v        *verdict // nil: _
	presence presence
	must     bool // present in every valid value (see settle)
}

type presence int

const (
	optional presence = iota // a?: X
	regular                  // a: X, missing only where X is concrete
	required                 // a!: X
)

type kindSet uint8

const (
	kindNull kindSet = 1 << iota
	kindBool
	kindInt
	kindFloat
	kindString
	kindList
	kindStruct
	kindAny    = kindNull | kindBool | kindInt | kindFloat | kindString | kindList | kindStruct
	kindNumber = kindInt | kindFloat
)

// bound is a comparison with a number: >=, >, <= or <.
type bound struct {
	op token.Token
	n  float64
}

// verdictsOf compiles the named top-level definitions of a CUE file; a
// definition outside the fragment has none.
func verdictsOf(f *ast.File, names []string) map[string]*verdict {
	c := &verdictCompiler{decls: map[string][]ast.Expr{}, done: map[string]*verdict{}, busy: map[string]bool{}}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.Field:
			name, isIdent, ok := labelName(d.Label)
			if !ok {
				return nil
			}
			if isIdent && isDefinition(name) && d.Alias == nil {
				c.decls[name] = append(c.decls[name], d.Value)
			}
		case *ast.Package, *ast.CommentGroup:
		default:
			return nil // imports, lets, embeddings at the top: not compiled
		}
	}
	out := map[string]*verdict{}
	done := map[*verdict]bool{}
	for _, n := range names {
		c.bad = false
		if v := c.def(n); !c.bad {
			v.settle(done)
			out[n] = v
		}
	}
	return out
}

type verdictCompiler struct {
	decls map[string][]ast.Expr
	done  map[string]*verdict
	busy  map[string]bool
	bad   bool // something outside the fragment was met
}

var anyVerdict = &verdict{kinds: kindAny}

func (c *verdictCompiler) def(name string) *verdict {
	if v, ok := c.done[name]; ok {
		if v == nil {
			c.bad = true
		}
		return v
	}
	decls, ok := c.decls[name]
	if !ok || c.busy[name] {
		c.bad = true
		return anyVerdict
	}
	c.busy[name] = true
	outer := c.bad
	c.bad = false
	v := anyVerdict
	for _, e := range decls {
		v = both(v, c.expr(e))
	}
	if c.bad {
		c.done[name] = nil
	} else {
		c.done[name] = v
	}
	c.bad = c.bad || outer
	delete(c.busy, name)
	return v
}

func (c *verdictCompiler) expr(e ast.Expr) *verdict {
	switch e := e.(type) {
	case *ast.Ident:
		return c.ident(e.Name)
	case *ast.BasicLit:
		return c.literal(e)
	case *ast.ParenExpr:
		return c.expr(e.X)
	case *ast.UnaryExpr:
		return c.unary(e)
	case *ast.BinaryExpr:
		if e.Op == token.AND {
			return both(c.expr(e.X), c.expr(e.Y))
		}
	case *ast.StructLit:
		return c.structLit(e.Elts)
	case *ast.ListLit:
		if len(e.Elts) == 1 {
			if el, ok := e.Elts[0].(*ast.Ellipsis); ok {
				v := &verdict{kinds: kindList, elem: anyVerdict}
				if el.Type != nil {
					v.elem = c.expr(el.Type)
				}
				return v
			}
		}
	}
	c.bad = true
	return anyVerdict
}

func (c *verdictCompiler) ident(name string) *verdict {
	if isDefinition(name) {
		return c.def(name)
	}
	switch name {
	case "_":
		return anyVerdict
	case "string":
		return &verdict{kinds: kindString}
	case "int":
		return &verdict{kinds: kindInt}
	case "number":
		return &verdict{kinds: kindNumber}
	case "bool":
		return &verdict{kinds: kindBool}
	case "null":
		return &verdict{kinds: kindNull}
	}
	c.bad = true
	return anyVerdict
}

func (c *verdictCompiler) literal(l *ast.BasicLit) *verdict {
	switch l.Kind {
	case token.STRING:
		s, err := strconv.Unquote(l.Value)
		if err != nil || len(l.Value) < 2 || l.Value[0] != '"' {
			break
		}
		return &verdict{kinds: kindString, strs: []string{s}}
	case token.INT:
		if n, ok := intLit(l); ok {
			return &verdict{kinds: kindInt, nums: []float64{n}}
		}
	case token.TRUE, token.FALSE:
		return &verdict{kinds: kindBool, bools: []bool{l.Kind == token.TRUE}}
	case token.NULL:
		return &verdict{kinds: kindNull}
	}
	c.bad = true
	return anyVerdict
}

func (c *verdictCompiler) unary(e *ast.UnaryExpr) *verdict {
	if lit, ok := e.X.(*ast.BasicLit); ok && e.Op == token.NEQ && lit.Kind == token.STRING && lit.Value == `""` {
		return &verdict{kinds: kindAny, nonEmpty: true}
	}
	n, ok := intLit(e.X)
	switch {
	case !ok:
	case e.Op == token.GEQ, e.Op == token.GTR, e.Op == token.LEQ, e.Op == token.LSS:
		return &verdict{kinds: kindNumber, bounds: []bound{{e.Op, n}}}
	case e.Op == token.SUB:
		return &verdict{kinds: kindInt, nums: []float64{-n}}
	}
	c.bad = true
	return anyVerdict
}

// intLit is the value of an integer literal, possibly negative, that a
// float64 holds exactly.
func intLit(e ast.Expr) (float64, bool) {
	sign := 1.0
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		sign, e = -1, u.X
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	n, err := strconv.ParseInt(lit.Value, 10, 64)
	if err != nil || math.Abs(float64(n)) >= 1<<53 {
		return 0, false
	}
	return sign * float64(n), true
}

// structLit compiles a struct; only open ones (with ... or a pattern on
// every label) are in the fragment, so which fields are allowed never
// depends on the definition's closedness.
func (c *verdictCompiler) structLit(elts []ast.Decl) *verdict {
	v := &verdict{kinds: kindStruct, fields: map[string]*field{}}
	open := false
	for _, d := range elts {
		switch d := d.(type) {
		case *ast.Field:
			if l, ok := d.Label.(*ast.ListLit); ok {
				if len(l.Elts) != 1 || !isAnyString(l.Elts[0]) || d.Alias != nil {
					c.bad = true
					continue
				}
				v.others, open = both(v.others, c.expr(d.Value)), true
				continue
			}
			name, isIdent, ok := labelName(d.Label)
			if !ok || d.Alias != nil || isIdent && (isDefinition(name) || name[0] == '_') {
				c.bad = true
				continue
			}
			p := regular
			switch d.Constraint {
			case token.OPTION:
				p = optional
			case token.NOT:
				p = required
			}
			v.addField(name, &field{v: c.expr(d.Value), presence: p})
		case *ast.Ellipsis:
			if d.Type != nil {
				c.bad = true
			}
			open = true
		case *ast.EmbedDecl:
			v = both(v, c.expr(d.Expr))
			open = true // what it embeds must be open itself to compile
		case *ast.CommentGroup, *ast.Attribute:
		default:
			c.bad = true
		}
	}
	if !open {
		c.bad = true
	}
	return v
}

func (v *verdict) addField(name string, f *field) {
	if old, ok := v.fields[name]; ok {
		f = &field{v: both(old.v, f.v), presence: max(old.presence, f.presence)}
	}
	v.fields[name] = f
}

// both is the conjunction of a and b (either may be nil for none).
func both(a, b *verdict) *verdict {
	switch {
	case a == nil || a == anyVerdict:
		return b
	case b == nil || b == anyVerdict:
		return a
	}
	v := &verdict{
		kinds:    a.kinds & b.kinds,
		nonEmpty: a.nonEmpty || b.nonEmpty,
		strs:     append(append([]string(nil), a.strs...), b.strs...),
		nums:     append(append([]float64(nil), a.nums...), b.nums...),
		bools:    append(append([]bool(nil), a.bools...), b.bools...),
		bounds:   append(append([]bound(nil), a.bounds...), b.bounds...),
		others:   both(a.others, b.others),
		elem:     both(a.elem, b.elem),
	}
	if a.fields != nil || b.fields != nil {
		v.fields = map[string]*field{}
		for _, from := range []*verdict{a, b} {
			for name, f := range from.fields {
				v.addField(name, f)
			}
		}
	}
	return v
}

// concrete reports whether v allows one value only, so that a regular
// field of it may be missing (CUE takes that value).
func (v *verdict) concrete() bool {
	var only value.Value
	switch {
	case v == nil:
		return false
	case v.kinds == kindString && len(v.strs) > 0:
		only = value.Value{Kind: value.String, Str: v.strs[0]}
	case v.kinds == kindInt && len(v.nums) > 0:
		only = value.Value{Kind: value.Number, Num: v.nums[0]}
	case v.kinds == kindBool && len(v.bools) > 0:
		only = value.Value{Kind: value.Bool, Bool: v.bools[0]}
	case v.kinds == kindNull:
		only = value.Value{Kind: value.Null}
	default:
		return false
	}
	return v.valid(&only, "")
}

// valid reports whether v (a node of a blob whose field table is kind, as
// members reads it) is valid; false may also mean "ask CUE".
func (v *verdict) valid(n *value.Value, kind string) bool {
	if v == nil || v == anyVerdict {
		return true
	}
	switch n.Kind {
	case value.Null:
		return v.kinds&kindNull != 0
	case value.Bool:
		return v.kinds&kindBool != 0 && allEqual(v.bools, n.Bool)
	case value.String:
		return v.kinds&kindString != 0 && !(v.nonEmpty && n.Str == "") && allEqual(v.strs, n.Str)
	case value.Number:
		return v.number(n.Num)
	case value.Array:
		if v.kinds&kindList == 0 {
			return false
		}
		for i := range n.Items {
			if !v.elem.valid(&n.Items[i], elemKind(kind)) {
				return false
			}
		}
		return true
	case value.Object:
		return v.kinds&kindStruct != 0 && v.object(n, kind)
	}
	return false
}

// number checks a number as the converter hands it to CUE: an int when it
// is integral (and small enough to be exact), else a float.
func (v *verdict) number(x float64) bool {
	k := kindFloat
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		k = kindInt
	}
	if v.kinds&k == 0 || math.IsNaN(x) || math.IsInf(x, 0) || !allEqual(v.nums, x) {
		return false
	}
	for _, b := range v.bounds {
		ok := false
		switch b.op {
		case token.GEQ:
			ok = x >= b.n
		case token.GTR:
			ok = x > b.n
		case token.LEQ:
			ok = x <= b.n
		case token.LSS:
			ok = x < b.n
		}
		if !ok {
			return false
		}
	}
	return true
}

// object checks the members of an object as CUE sees them (see members):
// each against its field and the pattern, then that the fields that must
// be there are.
func (v *verdict) object(n *value.Value, kind string) bool {
	must := 0 // the fields present that must be
	for m := range members(n, kind) {
		if m.slot { // the value moved to its slot leaves {}
			if !v.member("value", &emptyObject, "", &must) {
				return false
			}
		}
		if m.cueKey != "" && !v.member(m.cueKey, m.node, m.kind, &must) {
			return false
		}
	}
	return must == v.musts
}

// member checks the member name of a struct of v, counting in *must the
// fields that must be present.
func (v *verdict) member(name string, node *value.Value, kind string, must *int) bool {
	if f, declared := v.fields[name]; declared {
		if f.must {
			*must++
		}
		if !f.v.valid(node, kind) {
			return false
		}
	}
	return v.others.valid(node, kind)
}

// emptyObject is what CUE sees as a property's value once it moved to its
// slot.
var emptyObject = value.Value{Kind: value.Object}

// settle notes, in v and every verdict below it, which fields must be
// present: the required ones and the regular ones that are not concrete.
func (v *verdict) settle(done map[*verdict]bool) {
	if v == nil || v == anyVerdict || done[v] {
		return
	}
	done[v] = true
	v.musts = 0
	for _, f := range v.fields {
		f.must = f.presence == required || f.presence == regular && !f.v.concrete()
		if f.must {
			v.musts++
		}
		f.v.settle(done)
	}
	v.others.settle(done)
	v.elem.settle(done)
}

func allEqual[T comparable](want []T, got T) bool {
	for _, w := range want {
		if w != got {
			return false
		}
	}
	return true
}
