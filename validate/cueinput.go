package validate

import (
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fbcat/opm/internal/value"
)

// stripLen is the length above which strings are replaced by a short
// placeholder before the built-in schemas see them: those schemas only
// check that such values are strings, and base64 bundle objects and icons
// would otherwise dominate the time spent in CUE.
const stripLen = 256

// fieldNames lists, per kind of node, the field names upstream's typed
// decoding knows. Keys that match one of them ignoring case are renamed to
// it before CUE sees them, as upstream matches keys ignoring case.
var fieldNames = map[string][]string{
	"olm.package":               {"schema", "name", "defaultChannel", "icon", "description", "properties"},
	"olm.channel":               {"schema", "name", "package", "entries", "properties"},
	"olm.bundle":                {"schema", "name", "package", "image", "properties", "relatedImages"},
	"olm.deprecations":          {"schema", "package", "entries"},
	"icon":                      {"base64data", "mediatype"},
	"entry":                     {"name", "replaces", "skips", "skipRange"},
	"property":                  {"type", "value"},
	"relatedImage":              {"name", "image"},
	"deprecationEntry":          {"reference", "message"},
	"reference":                 {"schema", "name"},
	"prop:olm.package":          {"packageName", "version", "release"},
	"prop:olm.gvk":              {"group", "kind", "version"},
	"prop:olm.gvk.required":     {"group", "kind", "version"},
	"prop:olm.package.required": {"packageName", "versionRange"},
	"prop:olm.bundle.object":    {"data", "ref"},
}

// slotTypes are the property types whose values fbc.cue checks, through
// the "$<type>" field of #Property.
var slotTypes = map[string]bool{
	"olm.package": true, "olm.gvk": true, "olm.gvk.required": true,
	"olm.package.required": true, "olm.bundle.object": true, "olm.csv.metadata": true,
}

// childKind says which field table applies to the members of a field.
func childKind(parent, field string) string {
	switch parent {
	case "olm.package":
		switch field {
		case "icon":
			return "icon"
		case "properties":
			return "property"
		}
	case "olm.channel":
		switch field {
		case "entries":
			return "entry"
		case "properties":
			return "property"
		}
	case "olm.bundle":
		switch field {
		case "properties":
			return "property"
		case "relatedImages":
			return "relatedImage"
		}
	case "olm.deprecations":
		if field == "entries" {
			return "deprecationEntry"
		}
	case "deprecationEntry":
		if field == "reference" {
			return "reference"
		}
	case "prop:olm.csv.metadata":
		if field == "crdDescriptions" || field == "apiServiceDefinitions" {
			return "definitions"
		}
	case "definitions":
		if field == "owned" || field == "required" {
			return "description"
		}
	}
	return ""
}

// standIns are the smallest values the definitions of some kinds of
// object accept (those with required fields). Objects of other kinds stand
// in as {} and lists as [], as their definitions require no field and
// allow any length.
var standIns = map[string]func() any{
	"property":         func() any { return map[string]any{"type": "-", "value": map[string]any{}} },
	"entry":            func() any { return map[string]any{"name": "-"} },
	"deprecationEntry": func() any { return map[string]any{"reference": map[string]any{"schema": "-"}, "message": "-"} },
	"reference":        func() any { return map[string]any{"schema": "-"} },
	"prop:olm.package": func() any { return map[string]any{"packageName": "-", "version": ""} },
}

// converter turns nodes into the Go values handed to CUE.
//
// For the built-in schemas it also remembers (per worker) which shapes
// passed where: the built-in definitions constrain only types, the
// presence of fields, whether strings are empty, numbers, and the values of
// "schema" and "type" fields; which definition applies to a node depends
// only on its position (its path with list indexes left out); and every
// list is [...#X], valid when each element is. So two nodes with the same
// shape (for a list: the same set of element shapes) at the same position
// are equally valid.
// Whole objects whose shape passed before are not checked again; within an
// object, every nested object or list whose shape passed at its position
// is handed to CUE as a small stand-in its definition accepts just the
// same. CUE's cost grows with the size of its input, and catalogs repeat
// shapes bundle after bundle.
type converter struct {
	strip   bool
	valid   map[uint64]bool
	pending []pendingPart
	seed    maphash.Seed
	path    []string
}

// pendingPart is a part handed to CUE in full; if no problem falls under
// its path, its shape is remembered as valid at its position.
type pendingPart struct {
	path []string
	key  uint64
}

func newConverter(strip bool) *converter {
	return &converter{strip: strip, valid: map[uint64]bool{}, seed: maphash.MakeSeed()}
}

// knownValid reports whether an object of this kind and shape passed
// before, and returns the key to remember it by if it passes now.
func (c *converter) knownValid(v *value.Value, kind string) (uint64, bool) {
	if !c.strip {
		return 0, false
	}
	_, shape := c.convertShape(v, kind, 0, false)
	key := combine(maphash.String(c.seed, "object:"+kind), shape)
	return key, c.valid[key]
}

// remember records that an object passed.
func (c *converter) remember(key uint64) {
	if c.strip {
		c.valid[key] = true
	}
}

// input converts an object: keys of known fields in canonical spelling (the
// last of several spellings wins, as in upstream), null members dropped
// (upstream treats them as absent) except property values, integers as
// int64, long strings shortened and known parts replaced by stand-ins if
// strip is set.
func (c *converter) input(v *value.Value, kind string) any {
	c.pending = c.pending[:0]
	c.path = c.path[:0]
	out, _ := c.convertShape(v, kind, maphash.String(c.seed, kind), true)
	return out
}

var (
	elemPlace = maphash.String(maphash.MakeSeed(), "[*]")
	nullKey   = uint64(0x9e3779b97f4a7c15)
)

// convertShape converts a node (if build is set) and returns its shape
// hash. place identifies the node's position.
func (c *converter) convertShape(v *value.Value, kind string, place uint64, build bool) (any, uint64) {
	var out any
	shape := uint64(v.Kind) + 1
	switch v.Kind {
	case value.Null:
	case value.Bool:
		out = v.Bool
		if v.Bool {
			shape = combine(shape, 1)
		}
	case value.Number:
		if v.Num == math.Trunc(v.Num) && math.Abs(v.Num) < 1<<53 {
			out = int64(v.Num)
		} else {
			out = v.Num
		}
		shape = combine(shape, math.Float64bits(v.Num))
	case value.String:
		out = v.Str
		if c.strip && len(v.Str) > stripLen {
			out = "x"
		}
		if v.Str != "" {
			shape = combine(shape, 1)
		}
	case value.Array:
		var items []any
		if build {
			items = make([]any, len(v.Items))
		}
		elemKind := kind
		if kind == "description" {
			elemKind = ""
		}
		childPlace := combine(place, elemPlace)
		// Every list in the built-in definitions is [...#X]: its validity
		// is that of its elements, whatever their number and order, so its
		// shape is the set of its elements' shapes.
		elemShapes := make([]uint64, len(v.Items))
		for i := range v.Items {
			if build {
				c.path = append(c.path, strconv.Itoa(i))
			}
			item, sh := c.child(&v.Items[i], elemKind, childPlace, build)
			if build {
				items[i] = item
				c.path = c.path[:len(c.path)-1]
			}
			elemShapes[i] = sh
		}
		slices.Sort(elemShapes)
		for _, sh := range slices.Compact(elemShapes) {
			shape = combine(shape, sh)
		}
		out = items
	case value.Object:
		var fields map[string]any
		if build {
			fields = make(map[string]any, len(v.Fields))
		}
		names := fieldNames[kind]
		shape = combine(shape, uint64(len(v.Fields)))
		// Fields are in byte order, and for several spellings of one
		// field the last one wins, as encoding/json assigns them one after
		// another.
		for i := range v.Fields {
			f := &v.Fields[i]
			key := f.Key
			for _, n := range names {
				if strings.EqualFold(n, key) {
					key = n
					break
				}
			}
			keyHash := maphash.String(c.seed, f.Key)
			shape = combine(shape, keyHash)
			if f.Value.Kind == value.String && (key == "schema" || key == "type") {
				shape = combine(shape, maphash.String(c.seed, f.Value.Str))
			}
			if f.Value.Kind == value.Null && !(kind == "property" && key == "value") {
				shape = combine(shape, nullKey)
				continue
			}
			childK := childKind(kind, key)
			if kind == "property" && key == "value" {
				if t := propertyType(v); slotTypes[t] && f.Value.Kind != value.Null {
					// The value goes to its type's slot; "value" only
					// needs to be present.
					slot := "$" + t
					if build {
						c.path = append(c.path, slot)
					}
					item, sh := c.child(&f.Value, "prop:"+t, combine(place, maphash.String(c.seed, slot)), build)
					if build {
						c.path = c.path[:len(c.path)-1]
						fields[key] = map[string]any{}
						fields[slot] = item
					}
					shape = combine(shape, sh)
					continue
				}
			}
			if build {
				c.path = append(c.path, key)
			}
			item, sh := c.child(&f.Value, childK, combine(place, maphash.String(c.seed, key)), build)
			if build {
				c.path = c.path[:len(c.path)-1]
				fields[key] = item
			}
			shape = combine(shape, sh)
		}
		out = fields
	}
	return out, shape
}

// child converts a member or element, or hands back its stand-in when its
// shape passed at this position before.
func (c *converter) child(v *value.Value, kind string, place uint64, build bool) (any, uint64) {
	if !build || !c.strip || (v.Kind != value.Object && v.Kind != value.Array) {
		return c.convertShape(v, kind, place, build)
	}
	out, shape := c.convertShape(v, kind, place, true)
	key := combine(place, shape)
	if c.valid[key] {
		switch {
		case standIns[kind] != nil && v.Kind == value.Object:
			return standIns[kind](), shape
		case v.Kind == value.Array:
			return []any{}, shape
		}
		return map[string]any{}, shape
	}
	c.pending = append(c.pending, pendingPart{path: slices.Clone(c.path), key: key})
	return out, shape
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

// settle remembers the pending parts no finding falls under.
func (c *converter) settle(found []finding) {
	for _, p := range c.pending {
		if !slices.ContainsFunc(found, func(f finding) bool {
			return len(f.path) >= len(p.path) && slices.Equal(f.path[:len(p.path)], p.path)
		}) {
			c.valid[p.key] = true
		}
	}
	c.pending = c.pending[:0]
}

// propertyType returns the type of a property node, matching the key
// ignoring case.
func propertyType(prop *value.Value) string {
	t := lookup(prop, "type")
	if t == nil || t.Kind != value.String {
		return ""
	}
	return t.Str
}

// lookup finds the member of an object that encoding/json would decode
// into a field called name: the last key equal to name ignoring case.
func lookup(v *value.Value, name string) *value.Value {
	if v == nil || v.Kind != value.Object {
		return nil
	}
	var found *value.Value
	for i := range v.Fields {
		if strings.EqualFold(v.Fields[i].Key, name) {
			found = &v.Fields[i].Value
		}
	}
	return found
}
