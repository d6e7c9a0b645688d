package validate

import (
	"iter"
	"math"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// stripLen is the length above which strings are replaced by a short
// placeholder where the definition does not look at their contents (see
// shapePlan): base64 bundle objects and icons would otherwise dominate the
// time spent in CUE.
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

// slotKeys are the property types whose values fbc.cue checks, through
// the "$<type>" field of #Property, and the names of those fields.
var slotKeys = map[string]string{
	"olm.package": "$olm.package", "olm.gvk": "$olm.gvk", "olm.gvk.required": "$olm.gvk.required",
	"olm.package.required": "$olm.package.required", "olm.bundle.object": "$olm.bundle.object", "olm.csv.metadata": "$olm.csv.metadata",
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

// member is a field of an object as it is handed to CUE.
type member struct {
	index int          // its index among the object's fields
	key   string       // as written
	node  *value.Value // its value (nil when read from a Tape)
	// cueKey is the field's name for CUE: the canonical spelling of a
	// known field, or for the value of a property of a type in slotKeys,
	// its slot. It is empty for a field CUE does not see: a null one, or
	// one another spelling (or the slot) overrides.
	cueKey string
	kind   string // the field table of its value
	null   bool   // a null member, dropped (upstream treats it as absent)
	slot   bool   // a property value moved to its slot; "value" is then {}
}

// members lists the fields of an object of the given kind, in order.
// Keys of known fields are renamed to their canonical spelling; of several
// spellings of one field the last one wins, as encoding/json assigns them
// one after another.
func members(v *value.Value, kind string) iter.Seq[member] {
	return func(yield func(member) bool) {
		eachMember(treeFields{v}, kind, func(m member) bool {
			m.node = &v.Fields[m.index].Value
			return yield(m)
		})
	}
}

// fieldList is an object's fields as eachMember reads them: a tree's
// (treeFields) or a Tape's (tapeFields).
type fieldList interface {
	count() int
	key(i int) string
	null(i int) bool
	// text is the value of field i if it is a string.
	text(i int) (string, bool)
}

// eachMember is members for any fieldList, with the fields' values left
// to the caller (member.index).
func eachMember[F fieldList](f F, kind string, yield func(member) bool) {
	names := fieldNames[kind]
	var last [8]int // the index of the winning spelling of each name (no table has more)
	n := f.count()
	val, typ := -1, -1 // the fields lookup finds as "value" and "type"
	for i := range n {
		key := f.key(i)
		if k := nameIndex(names, key); k >= 0 {
			last[k] = i
		}
		if kind == "property" {
			switch {
			case strings.EqualFold(key, "value"):
				val = i
			case strings.EqualFold(key, "type"):
				typ = i
			}
		}
	}
	slot := ""
	if val >= 0 && !f.null(val) {
		if t, ok := fieldText(f, typ); ok {
			slot = slotKeys[t]
		}
	}
	for i := range n {
		key := f.key(i)
		m := member{index: i, key: key, cueKey: key}
		k := nameIndex(names, key)
		if k >= 0 {
			m.cueKey = names[k]
		}
		switch {
		case k >= 0 && last[k] != i, slot != "" && key == slot:
			m.cueKey = ""
		case f.null(i) && !(kind == "property" && m.cueKey == "value"):
			m.cueKey, m.null = "", true
		case slot != "" && m.cueKey == "value":
			m.cueKey, m.kind, m.slot = slot, "prop:"+slot[1:], true
		default:
			m.kind = childKind(kind, m.cueKey)
		}
		if !yield(m) {
			return
		}
	}
}

// fieldText is the text of field i of f, if there is one and it is a
// string.
func fieldText[F fieldList](f F, i int) (string, bool) {
	if i < 0 {
		return "", false
	}
	return f.text(i)
}

// treeFields are the fields of an object of a tree.
type treeFields struct{ v *value.Value }

func (f treeFields) count() int       { return len(f.v.Fields) }
func (f treeFields) key(i int) string { return f.v.Fields[i].Key }
func (f treeFields) null(i int) bool  { return f.v.Fields[i].Value.Kind == value.Null }
func (f treeFields) text(i int) (string, bool) {
	v := &f.v.Fields[i].Value
	return v.Str, v.Kind == value.String
}

// nameIndex is the index in names of the name key matches ignoring case,
// or -1.
func nameIndex(names []string, key string) int {
	for i, n := range names {
		if strings.EqualFold(n, key) {
			return i
		}
	}
	return -1
}

// elemKind is the field table of the elements of a list of the given kind.
func elemKind(kind string) string {
	if kind == "description" {
		return ""
	}
	return kind
}

// scalar converts a null, boolean, number or string: integers become
// int64, and long strings are shortened unless the plan looks at them.
func scalar(v *value.Value, p *shapePlan) any {
	switch v.Kind {
	case value.Bool:
		return v.Bool
	case value.Number:
		if v.Num == math.Trunc(v.Num) && math.Abs(v.Num) < 1<<53 {
			return int64(v.Num)
		}
		return v.Num
	case value.String:
		if len(v.Str) > stripLen && (p == nil || !p.values && !p.exact) {
			return "x"
		}
		return v.Str
	}
	return nil
}

// full converts v as it is: keys of known fields in canonical spelling
// (the last of several spellings wins, as in upstream), null members
// dropped (upstream treats them as absent) except property values, and
// integers as int64.
func full(v *value.Value, kind string) any {
	switch v.Kind {
	case value.Array:
		items := make([]any, len(v.Items))
		for i := range v.Items {
			items[i] = full(&v.Items[i], elemKind(kind))
		}
		return items
	case value.Object:
		fields := make(map[string]any, len(v.Fields))
		for m := range members(v, kind) {
			if m.slot {
				fields["value"] = map[string]any{}
			}
			if m.cueKey != "" {
				fields[m.cueKey] = full(m.node, m.kind)
			}
		}
		return fields
	}
	return scalar(v, exactPlan)
}

// minimal is what stands in for v where nothing constrains it.
func minimal(v *value.Value) any {
	switch v.Kind {
	case value.Array:
		return []any{}
	case value.Object:
		return map[string]any{}
	}
	return scalar(v, nil)
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
