package validate

import (
	"encoding/binary"
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

// standIns are, for the kinds of list element that are cached, the
// smallest element their definition accepts.
var standIns = map[string]func() any{
	"property":     func() any { return map[string]any{"type": "-", "value": map[string]any{}} },
	"entry":        func() any { return map[string]any{"name": "-"} },
	"relatedImage": func() any { return map[string]any{} },
	"description":  func() any { return map[string]any{} },
}

// converter turns nodes into the Go values handed to CUE.
//
// For the built-in schemas it also remembers (per worker) the shapes that
// passed: the built-in definitions constrain only types, the presence of
// fields, whether strings are empty, numbers, and the values of "schema"
// and property "type" fields, so two nodes with the same shape in these
// terms are equally valid. Whole objects whose shape passed before are not
// checked again; within an object, list elements (properties, channel
// entries, related images, CRD and API service descriptions) and the
// fields of CSV metadata whose shape passed are handed to CUE as small
// stand-ins their definitions accept just the same. CUE's cost grows with
// the size of its input, and catalogs repeat these shapes bundle after
// bundle.
type converter struct {
	strip   bool
	valid   map[uint64]bool
	pending []pendingPart
	hash    maphash.Hash
}

// pendingPart is a part handed to CUE in full; if no problem falls under
// its path, its shape is remembered as valid.
type pendingPart struct {
	path  []string
	shape uint64
}

func newConverter(strip bool) *converter {
	c := &converter{strip: strip, valid: map[uint64]bool{}}
	c.hash.SetSeed(maphash.MakeSeed())
	return c
}

// knownValid reports whether an object of this kind and shape passed before.
func (c *converter) knownValid(v *value.Value, kind string) (uint64, bool) {
	if !c.strip {
		return 0, false
	}
	h := c.shape(v, "object:"+kind)
	return h, c.valid[h]
}

// remember records that an object of this shape passed.
func (c *converter) remember(h uint64) {
	if c.strip {
		c.valid[h] = true
	}
}

// input converts an object: keys of known fields in canonical spelling (the
// last of several spellings wins, as in upstream), null members dropped
// (upstream treats them as absent) except property values, integers as
// int64, long strings shortened if strip is set, and known parts replaced
// by stand-ins.
func (c *converter) input(v *value.Value, kind string) any {
	c.pending = c.pending[:0]
	return c.convert(v, kind, nil)
}

func (c *converter) convert(v *value.Value, kind string, path []string) any {
	switch v.Kind {
	case value.Null:
		return nil
	case value.Bool:
		return v.Bool
	case value.Number:
		if v.Num == math.Trunc(v.Num) && math.Abs(v.Num) < 1<<53 {
			return int64(v.Num)
		}
		return v.Num
	case value.String:
		if c.strip && len(v.Str) > stripLen {
			return "x"
		}
		return v.Str
	case value.Array:
		out := make([]any, len(v.Items))
		elemKind := kind
		if kind == "description" {
			elemKind = ""
		}
		for i := range v.Items {
			elemPath := appendPath(path, strconv.Itoa(i))
			if standIn := standIns[kind]; c.strip && standIn != nil && v.Items[i].Kind == value.Object {
				out[i] = c.cached(&v.Items[i], kind, elemKind, elemPath, standIn)
				continue
			}
			out[i] = c.convert(&v.Items[i], elemKind, elemPath)
		}
		return out
	}
	names := fieldNames[kind]
	out := make(map[string]any, len(v.Fields))
	// Fields are in byte order, and for several spellings of one field the
	// last one wins, as encoding/json assigns them one after another.
	for i := range v.Fields {
		f := &v.Fields[i]
		key := f.Key
		for _, n := range names {
			if strings.EqualFold(n, key) {
				key = n
				break
			}
		}
		if f.Value.Kind == value.Null && !(kind == "property" && key == "value") {
			continue
		}
		childK := childKind(kind, key)
		childPath := appendPath(path, key)
		if kind == "property" && key == "value" {
			if t := propertyType(v); slotTypes[t] && f.Value.Kind != value.Null {
				// The value goes to its type's slot; "value" only needs
				// to be present.
				slot := "$" + t
				out[key] = map[string]any{}
				out[slot] = c.convert(&f.Value, "prop:"+t, appendPath(path, slot))
				continue
			}
		}
		if c.strip && kind == "prop:olm.csv.metadata" && (f.Value.Kind == value.Object || f.Value.Kind == value.Array) {
			out[key] = c.cached(&f.Value, "csv:"+key, childK, childPath, nil)
			continue
		}
		out[key] = c.convert(&f.Value, childK, childPath)
	}
	return out
}

func appendPath(path []string, seg string) []string {
	out := make([]string, len(path)+1)
	copy(out, path)
	out[len(path)] = seg
	return out
}

// cached converts a part whose shape may have passed before in the same
// place (named by where), or returns a stand-in if it did. Without a
// stand-in function, the stand-in is an empty object or list.
func (c *converter) cached(v *value.Value, where, kind string, path []string, standIn func() any) any {
	h := c.shape(v, where)
	if c.valid[h] {
		switch {
		case standIn != nil:
			return standIn()
		case v.Kind == value.Array:
			return []any{}
		}
		return map[string]any{}
	}
	c.pending = append(c.pending, pendingPart{path: path, shape: h})
	return c.convert(v, kind, path)
}

// settle remembers the shapes of the pending parts no finding falls under.
func (c *converter) settle(found []finding) {
	for _, p := range c.pending {
		if !slices.ContainsFunc(found, func(f finding) bool {
			return len(f.path) >= len(p.path) && slices.Equal(f.path[:len(p.path)], p.path)
		}) {
			c.valid[p.shape] = true
		}
	}
	c.pending = c.pending[:0]
}

// shape hashes what the built-in definitions can tell apart about a node.
func (c *converter) shape(v *value.Value, where string) uint64 {
	c.hash.Reset()
	c.hash.WriteString(where)
	c.hash.WriteByte(0)
	c.writeShape(v, "")
	return c.hash.Sum64()
}

func (c *converter) writeShape(v *value.Value, key string) {
	h := &c.hash
	h.WriteByte(byte(v.Kind))
	var n [8]byte
	switch v.Kind {
	case value.Bool:
		if v.Bool {
			h.WriteByte(1)
		} else {
			h.WriteByte(0)
		}
	case value.Number:
		binary.LittleEndian.PutUint64(n[:], math.Float64bits(v.Num))
		h.Write(n[:])
	case value.String:
		switch {
		case strings.EqualFold(key, "schema") || strings.EqualFold(key, "type"):
			h.WriteString(v.Str)
			h.WriteByte(0)
		case v.Str == "":
			h.WriteByte(0)
		default:
			h.WriteByte(1)
		}
	case value.Array:
		binary.LittleEndian.PutUint64(n[:], uint64(len(v.Items)))
		h.Write(n[:])
		for i := range v.Items {
			c.writeShape(&v.Items[i], "")
		}
	case value.Object:
		binary.LittleEndian.PutUint64(n[:], uint64(len(v.Fields)))
		h.Write(n[:])
		for i := range v.Fields {
			h.WriteString(v.Fields[i].Key)
			h.WriteByte(0)
			c.writeShape(&v.Fields[i].Value, v.Fields[i].Key)
		}
	}
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
