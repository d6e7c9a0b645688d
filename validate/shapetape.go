package validate

import (
	"hash/maphash"
	"math"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// Shapes read from compact JSON. A bundle the loader types straight from
// its bytes comes with its compact JSON (declcfg.QuickCheck) and no tree:
// tapeKey hashes it into the key prepare gives its tree, reading it through
// a value.Tape, so that a bundle whose shape passed is not decoded into a
// tree at all. The two must agree on every value (FuzzTapeShape); a
// shape the tape cannot tell sends the bundle through its tree.

// tapeKey is the key prepare gives the tree of the blob t holds, of the
// given kind; ok is false if t holds something the tree would not (a
// number that does not parse).
func (c *converter) tapeKey(t *value.Tape, kind string) (key uint64, ok bool) {
	c.shapes, c.kids = c.shapes[:0], c.kids[:0]
	sh, ok := c.tapeShape(t, 0, kind, c.plan, objectPlace)
	return combine(objectPlace, sh), ok
}

// tapeShape is shape for node i of t.
func (c *converter) tapeShape(t *value.Tape, i int32, kind string, p *shapePlan, place uint64) (uint64, bool) {
	n := &t.Nodes[i]
	switch {
	case p == nil:
		return uint64(n.Kind) + 1, true
	case p.exact:
		return c.tapeExact(t, i, kind)
	case n.Kind == value.Array:
		elem, place := p.element(), combine(place, elemPlace)
		base := len(c.shapes)
		for j := i + 1; j < n.Next; j = t.Nodes[j].Next {
			sh, ok := c.tapeShape(t, j, elemKind(kind), elem, place)
			if !ok {
				return 0, false
			}
			c.shapes = append(c.shapes, sh)
		}
		shape := setShape(c.shapes[base:])
		c.shapes = c.shapes[:base]
		return shape, true
	case n.Kind == value.Object:
		f := c.fieldsOf(t, i)
		defer func() { c.kids = c.kids[:len(c.kids)-len(f.kids)] }()
		shape := uint64(value.Object) + 1
		ok := true
		base, freeAt := len(c.shapes), combine(place, freePlace)
		eachMember(f, kind, func(m member) bool {
			var sh uint64
			if p.free(&m) {
				sh, ok = c.tapeShape(t, f.kids[m.index], m.kind, p.others, freeAt)
				c.shapes = append(c.shapes, sh)
				return ok
			}
			msh, at, checked := c.memberShape(&m, place)
			shape = combine(shape, msh)
			if checked {
				sh, ok = c.tapeShape(t, f.kids[m.index], m.kind, p.field(m.cueKey), at)
				shape = combine(shape, sh)
			}
			return ok
		})
		if ok && len(c.shapes) > base {
			shape = combine(shape, setShape(c.shapes[base:]))
		}
		c.shapes = c.shapes[:base]
		return shape, ok
	}
	return c.tapeScalar(t, i, p.values)
}

// tapeExact is exactShape for node i of t.
func (c *converter) tapeExact(t *value.Tape, i int32, kind string) (uint64, bool) {
	n := &t.Nodes[i]
	shape := uint64(n.Kind) + 1
	switch n.Kind {
	case value.Array:
		shape = combine(shape, uint64(n.Len))
		for j := i + 1; j < n.Next; j = t.Nodes[j].Next {
			sh, ok := c.tapeExact(t, j, elemKind(kind))
			if !ok {
				return 0, false
			}
			shape = combine(shape, sh)
		}
		return shape, true
	case value.Object:
		f := c.fieldsOf(t, i)
		defer func() { c.kids = c.kids[:len(c.kids)-len(f.kids)] }()
		ok := true
		eachMember(f, kind, func(m member) bool {
			if m.cueKey != "" {
				shape = combine(shape, maphash.String(c.seed, m.cueKey))
				var sh uint64
				sh, ok = c.tapeExact(t, f.kids[m.index], m.kind)
				shape = combine(shape, sh)
			}
			return ok
		})
		return shape, ok
	}
	return c.tapeScalar(t, i, true)
}

// tapeScalar is scalarShape for node i of t.
func (c *converter) tapeScalar(t *value.Tape, i int32, values bool) (uint64, bool) {
	n := &t.Nodes[i]
	shape := uint64(n.Kind) + 1
	switch n.Kind {
	case value.Bool:
		if t.Data[n.Start] == 't' {
			shape = combine(shape, 1)
		}
	case value.Number:
		f, ok := t.Number(i)
		if !ok {
			return 0, false
		}
		shape = combine(shape, math.Float64bits(f))
	case value.String:
		if n.End-n.Start > 2 {
			shape = combine(shape, 1)
		}
		if values {
			shape = combine(shape, maphash.String(c.seed, t.Text(i)))
		}
	}
	return shape, true
}

// fieldsOf lists the members of object node i of t, their nodes in
// c.kids (which the caller trims when done).
func (c *converter) fieldsOf(t *value.Tape, i int32) tapeFields {
	base := len(c.kids)
	for j := i + 1; j < t.Nodes[i].Next; j = t.Nodes[j].Next {
		c.kids = append(c.kids, j)
	}
	return tapeFields{t, c.kids[base:]}
}

// tapeFields are the fields of an object of a Tape.
type tapeFields struct {
	t    *value.Tape
	kids []int32 // the members' nodes
}

func (f tapeFields) count() int       { return len(f.kids) }
func (f tapeFields) key(i int) string { return f.t.Key(f.kids[i]) }
func (f tapeFields) null(i int) bool  { return f.t.Nodes[f.kids[i]].Kind == value.Null }
func (f tapeFields) text(i int) (string, bool) {
	j := f.kids[i]
	return f.t.Text(j), f.t.Nodes[j].Kind == value.String
}

// nullPropertyValue reports whether a property of the blob t holds has a
// null value, as nullPropertyValues reports it.
func nullPropertyValue(t *value.Tape) bool {
	props := tapeLookup(t, 0, "properties")
	if props < 0 || t.Nodes[props].Kind != value.Array {
		return false
	}
	for j := props + 1; j < t.Nodes[props].Next; j = t.Nodes[j].Next {
		if v := tapeLookup(t, j, "value"); v >= 0 && t.Nodes[v].Kind == value.Null {
			return true
		}
	}
	return false
}

// tapeLookup is lookup for node i of t: the node of its last member whose
// key is name ignoring case, or -1.
func tapeLookup(t *value.Tape, i int32, name string) int32 {
	if t.Nodes[i].Kind != value.Object {
		return -1
	}
	found := int32(-1)
	for j := i + 1; j < t.Nodes[i].Next; j = t.Nodes[j].Next {
		if strings.EqualFold(t.Key(j), name) {
			found = j
		}
	}
	return found
}
