package validate

import (
	"hash/maphash"
	"math"
	"slices"
	"strconv"

	"github.com/fbcat/opm/encoding/value"
)

// converter turns the blobs one definition checks into the Go values
// handed to CUE, and remembers (per worker) which shapes passed.
//
// A shape is a hash of everything the definition can observe of a value,
// as its plan says (see shapePlan): kinds, keys (but the names of members
// only a pattern constrains), which fields are null, booleans and numbers,
// whether strings are empty, the contents of strings where the definition
// looks at them, and all of an exact position. Two
// values with the same shape at the same position are equally valid. So
// whole blobs whose shape passed are not checked again, and within a
// blob, every object or list whose shape passed at its position is handed
// to CUE as a stand-in: the value with only the fields a stand-in keeps,
// which the definition accepts just the same. CUE's cost grows with the
// size of its input, and catalogs repeat shapes bundle after bundle.
//
// Each blob and part also has a local shape: its shape with every part
// below it replaced by the part's kind. As a plan's constraints are local,
// what a part holds matters to the value around it only through the
// part's own validity: a value whose parts are each valid is valid when
// its local shape passed at its position before. So a bundle whose parts
// all passed, each in some earlier bundle, is not handed to CUE even when
// no bundle had its combination of them.
//
// A definition without a plan is checked in full every time.
type converter struct {
	plan    *shapePlan // exactPlan when nothing may be cached
	cache   bool
	valid   map[uint64]bool // full and local shapes that passed
	seed    maphash.Seed
	records []record // the parts of the blob at hand, in pre-order
	local   uint64   // the local shape of the blob at hand
	parent  int32    // while hashing: the record of the enclosing part
	next    int32    // while converting: the record of the next part
	// Room for tapeKey: the shapes of the elements of the lists and the
	// members of the objects being hashed, innermost last.
	shapes []uint64
	kids   []int32
}

// record is one part of a blob: an object or list at a position with a
// plan.
type record struct {
	key    uint64 // its shape at its position
	local  uint64 // its local shape at its position
	size   int32  // the records of its subtree, itself included
	parent int32  // the record of the enclosing part, -1 for the blob
	index  int32  // its index in a list, or -1
	field  string // its name in an object
	full   bool   // handed to CUE in full, so its verdict is new
}

// newConverter makes the converter of a definition; plan is nil for a
// definition that may not be cached.
func newConverter(plan *shapePlan) *converter {
	c := &converter{plan: plan, cache: plan != nil, valid: map[uint64]bool{}, seed: maphash.MakeSeed()}
	if plan == nil {
		c.plan = exactPlan
	}
	return c
}

var (
	objectPlace = maphash.String(maphash.MakeSeed(), "object")
	elemPlace   = maphash.String(maphash.MakeSeed(), "[*]")
	localPlace  = maphash.String(maphash.MakeSeed(), "local")
	partPlace   = maphash.String(maphash.MakeSeed(), "part")
	freePlace   = maphash.String(maphash.MakeSeed(), "[string]")
	nullKey     = uint64(0x9e3779b97f4a7c15)
)

// shapes are a node's full and local shapes (see converter), and whether
// every part below it is valid.
type shapes struct {
	full, local uint64
	partsValid  bool
}

// same is the shapes of a node without parts below it.
func same(sh uint64) shapes { return shapes{full: sh, local: sh, partsValid: true} }

// localKey is the key a local shape at a position is remembered by.
func localKey(place, local uint64) uint64 { return combine(localPlace, combine(place, local)) }

// passed reports whether a node with shapes sh at place is known to be
// valid: its full shape passed there before, or its parts are valid and
// its local shape passed. A node found valid by its parts is remembered
// by its full shape too.
func (c *converter) passed(place uint64, sh shapes) (key, local uint64, ok bool) {
	key, local = combine(place, sh.full), localKey(place, sh.local)
	ok = c.valid[key]
	if !ok && sh.partsValid && c.valid[local] {
		ok = true
		c.valid[key] = true
	}
	return key, local, ok
}

// prepare hashes a blob of the given kind, noting its parts, and reports
// whether its shape passed before; key is what to remember it by if it
// passes now. Call input next, for the same blob.
func (c *converter) prepare(v *value.Value, kind string) (key uint64, known bool) {
	c.records, c.parent, c.next = c.records[:0], -1, 0
	if !c.cache {
		return 0, false
	}
	key, c.local, known = c.passed(objectPlace, c.shape(v, kind, c.plan, objectPlace))
	return key, known
}

// input converts the blob prepare saw, replacing the parts whose shape
// passed by stand-ins.
func (c *converter) input(v *value.Value, kind string) any {
	return c.build(v, kind, c.plan)
}

// remember records that a blob passed.
func (c *converter) remember(key uint64) {
	if c.cache {
		c.valid[key] = true
		c.valid[c.local] = true
	}
}

// passedWhole records that the blob prepare saw passed, and so every part
// of it.
func (c *converter) passedWhole(key uint64) {
	if !c.cache {
		return
	}
	for r := range c.records {
		c.valid[c.records[r].key] = true
		c.valid[c.records[r].local] = true
	}
	c.remember(key)
}

// recorded reports whether a node at a position with plan p is a part.
func recorded(v *value.Value, p *shapePlan) bool {
	return p != nil && !p.exact && (v.Kind == value.Object || v.Kind == value.Array)
}

// shape hashes the node v at a position with plan p (place identifies the
// position).
func (c *converter) shape(v *value.Value, kind string, p *shapePlan, place uint64) shapes {
	switch {
	case p == nil:
		return same(uint64(v.Kind) + 1) // nothing constrains it: only its presence counts
	case p.exact:
		return same(c.exactShape(v, kind))
	case v.Kind == value.Array:
		// Every list a plan describes is [...X]: valid when each element
		// is, whatever their number and order, so its shape is the set of
		// its elements' shapes.
		elem, place := p.element(), combine(place, elemPlace)
		fulls, locals := make([]uint64, len(v.Items)), make([]uint64, len(v.Items))
		sh := shapes{partsValid: true}
		for i := range v.Items {
			var valid bool
			fulls[i], locals[i], valid = c.part(&v.Items[i], elemKind(kind), elem, place, int32(i), "")
			sh.partsValid = sh.partsValid && valid
		}
		sh.full, sh.local = setShape(fulls), setShape(locals)
		return sh
	case v.Kind == value.Object:
		sh := same(uint64(value.Object) + 1)
		// The members only a pattern constrains ([string]: X) are valid
		// whatever their names, each alike: their shapes count as a set,
		// at one place.
		var free, freeLocal []uint64
		freeAt := combine(place, freePlace)
		for m := range members(v, kind) {
			if p.free(&m) {
				full, local, valid := c.part(m.node, m.kind, p.others, freeAt, -1, m.cueKey)
				free, freeLocal = append(free, full), append(freeLocal, local)
				sh.partsValid = sh.partsValid && valid
				continue
			}
			msh, at, checked := c.memberShape(&m, place)
			sh.full, sh.local = combine(sh.full, msh), combine(sh.local, msh)
			if checked {
				full, local, valid := c.part(m.node, m.kind, p.field(m.cueKey), at, -1, m.cueKey)
				sh.full, sh.local = combine(sh.full, full), combine(sh.local, local)
				sh.partsValid = sh.partsValid && valid
			}
		}
		if free != nil {
			sh.full, sh.local = combine(sh.full, setShape(free)), combine(sh.local, setShape(freeLocal))
		}
		return sh
	}
	return same(c.scalarShape(v, p.values))
}

// setShape is the shape of a list from its elements' shapes (sorted in
// place): the set of them.
func setShape(shapes []uint64) uint64 {
	slices.Sort(shapes)
	shape := uint64(value.Array) + 1
	for _, sh := range slices.Compact(shapes) {
		shape = combine(shape, sh)
	}
	return shape
}

// memberShape is what a member brings to an object's shape but its
// value: its key, and whether it is null or moved to its slot. checked
// says that CUE sees the member, whose value's shape (at the place at)
// the caller adds next.
func (c *converter) memberShape(m *member, place uint64) (sh, at uint64, checked bool) {
	sh = maphash.String(c.seed, m.key)
	switch {
	case m.null:
		return combine(sh, nullKey), 0, false
	case m.cueKey == "":
		return sh, 0, false
	}
	if m.slot {
		sh = combine(sh, maphash.String(c.seed, m.cueKey))
	}
	return sh, combine(place, maphash.String(c.seed, m.cueKey)), true
}

// part hashes a member or element, and notes it if it is a part. It
// returns the element's full shape, what it adds to the local shape around
// it (its shape, or for a part only its kind), and whether it is valid as
// far as the shapes tell (a node that is no part is judged with the value
// around it).
func (c *converter) part(v *value.Value, kind string, p *shapePlan, place uint64, index int32, field string) (full, local uint64, valid bool) {
	if !recorded(v, p) {
		sh := c.shape(v, kind, p, place)
		return sh.full, sh.local, true
	}
	r := int32(len(c.records))
	c.records = append(c.records, record{parent: c.parent, index: index, field: field})
	saved := c.parent
	c.parent = r
	sh := c.shape(v, kind, p, place)
	c.parent = saved
	rec := &c.records[r]
	rec.key, rec.local, valid = c.passed(place, sh)
	rec.size = int32(len(c.records)) - r
	return sh.full, combine(partPlace, uint64(v.Kind)+1), valid
}

func (c *converter) scalarShape(v *value.Value, values bool) uint64 {
	shape := uint64(v.Kind) + 1
	switch v.Kind {
	case value.Bool:
		if v.Bool {
			shape = combine(shape, 1)
		}
	case value.Number:
		shape = combine(shape, math.Float64bits(v.Num))
	case value.String:
		if v.Str != "" {
			shape = combine(shape, 1)
		}
		if values {
			shape = combine(shape, maphash.String(c.seed, v.Str))
		}
	}
	return shape
}

// exactShape hashes all of v that CUE sees.
func (c *converter) exactShape(v *value.Value, kind string) uint64 {
	shape := uint64(v.Kind) + 1
	switch v.Kind {
	case value.Array:
		shape = combine(shape, uint64(len(v.Items)))
		for i := range v.Items {
			shape = combine(shape, c.exactShape(&v.Items[i], elemKind(kind)))
		}
	case value.Object:
		for m := range members(v, kind) {
			if m.cueKey != "" {
				shape = combine(shape, maphash.String(c.seed, m.cueKey))
				shape = combine(shape, c.exactShape(m.node, m.kind))
			}
		}
	default:
		shape = c.scalarShape(v, true)
	}
	return shape
}

// build converts the node v at a position with plan p.
func (c *converter) build(v *value.Value, kind string, p *shapePlan) any {
	switch {
	case p == nil:
		return minimal(v)
	case p.exact:
		return full(v, kind)
	case v.Kind == value.Array:
		items := make([]any, len(v.Items))
		for i := range v.Items {
			items[i] = c.buildPart(&v.Items[i], elemKind(kind), p.element())
		}
		return items
	case v.Kind == value.Object:
		fields := make(map[string]any, len(v.Fields))
		for m := range members(v, kind) {
			if m.slot {
				fields["value"] = map[string]any{}
			}
			if m.cueKey != "" {
				fields[m.cueKey] = c.buildPart(m.node, m.kind, p.field(m.cueKey))
			}
		}
		return fields
	}
	return scalar(v, p)
}

// buildPart converts a member or element, or hands back its stand-in when
// it is a part whose shape passed at its position before.
func (c *converter) buildPart(v *value.Value, kind string, p *shapePlan) any {
	if !recorded(v, p) || !c.cache {
		return c.build(v, kind, p)
	}
	r := c.next
	if c.valid[c.records[r].key] {
		c.next = r + c.records[r].size
		return c.standIn(v, kind, p)
	}
	c.next = r + 1
	c.records[r].full = true
	return c.build(v, kind, p)
}

// standIn is v with only the fields its plan keeps (those that are not
// optional), each a stand-in itself, and lists empty: as the constraints
// of a plan are local, it is valid wherever v is.
func (c *converter) standIn(v *value.Value, kind string, p *shapePlan) any {
	switch {
	case p == nil:
		return minimal(v)
	case p.exact:
		return full(v, kind)
	case v.Kind == value.Array:
		return []any{}
	case v.Kind == value.Object:
		fields := map[string]any{}
		for m := range members(v, kind) {
			if m.slot && p.keep["value"] {
				fields["value"] = map[string]any{}
			}
			if m.cueKey != "" && p.keep[m.cueKey] {
				fields[m.cueKey] = c.standIn(m.node, m.kind, p.field(m.cueKey))
			}
		}
		return fields
	}
	return scalar(v, p)
}

// settle remembers the parts handed to CUE in full under which no finding
// falls. A blob with conflicts settles nothing: CUE does not report the
// missing fields of an object that also has conflicts, so a part with no
// finding there may still be invalid.
func (c *converter) settle(found []finding) {
	if !c.cache {
		return
	}
	for _, f := range found {
		if !f.missing {
			return
		}
	}
	// The findings' paths as a tree; a part is under a finding when its
	// path is a node of that tree.
	type edge struct {
		node int32
		seg  string
	}
	tree := map[edge]int32{}
	for _, f := range found {
		node := int32(0)
		for _, seg := range f.path {
			next, ok := tree[edge{node, seg}]
			if !ok {
				next = int32(len(tree)) + 1
				tree[edge{node, seg}] = next
			}
			node = next
		}
	}
	at := make([]int32, len(c.records)) // each record's node in the tree, or -1
	for r := range c.records {
		rec := &c.records[r]
		parent := int32(0)
		if rec.parent >= 0 {
			parent = at[rec.parent]
		}
		at[r] = -1
		if parent >= 0 && len(tree) > 0 {
			seg := rec.field
			if rec.index >= 0 {
				seg = strconv.Itoa(int(rec.index))
			}
			if node, ok := tree[edge{parent, seg}]; ok {
				at[r] = node
			}
		}
		if rec.full && at[r] < 0 {
			c.valid[rec.key] = true
			c.valid[rec.local] = true
		}
	}
}

// combine mixes x into h (splitmix64's finaliser on both).
func combine(h, x uint64) uint64 {
	return mix64(h ^ mix64(x+0x9e3779b97f4a7c15))
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
