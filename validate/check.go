package validate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/suggest"
)

// knownSchemas are the schemas OLM defines, the ones "olm.*" may name.
var knownSchemas = []string{declcfg.SchemaBundle, declcfg.SchemaChannel, declcfg.SchemaDeprecations, declcfg.SchemaPackage}

// check runs every single-object check: the schema name, property values
// that are null, the built-in CUE definition for the object's schema and
// the user's definitions for it.
func (s *schemas) check(obj *declcfg.Object) []*declcfg.Error {
	var errs []*declcfg.Error
	def, builtin := s.builtin[obj.Schema]
	if !builtin {
		def = s.meta
		if strings.HasPrefix(obj.Schema, "olm.") {
			node := lookup(obj.Value, "schema")
			errs = append(errs, obj.Errorf(int(node.Line), int(node.Col), "%s", unknownSchemaMessage(obj.Schema)))
		}
	}
	errs = append(errs, nullPropertyValues(obj)...)
	errs = append(errs, s.unify(obj, def)...)
	for _, ud := range s.user[obj.Schema] {
		errs = append(errs, s.unify(obj, ud)...)
	}
	return errs
}

// quick tells, from a bundle's compact JSON (see declcfg.QuickCheck),
// whether check would find nothing in it: no property value is null and
// the bundle's shape passed every definition of its schema before.
func (s *schemas) quick(doc []byte) bool {
	s.keyed = true
	t := &s.tape
	if !t.Parse(doc) || t.Nodes[0].Kind != value.Object || nullPropertyValue(t) {
		return false
	}
	kind := kindFor(declcfg.SchemaBundle)
	if !s.known(s.builtin[declcfg.SchemaBundle], t, kind) {
		return false
	}
	for _, ud := range s.user[declcfg.SchemaBundle] {
		if !s.known(ud, t, kind) {
			return false
		}
	}
	return true
}

// known reports whether the shape of the blob t holds passed def before.
func (s *schemas) known(def *definition, t *value.Tape, kind string) bool {
	if def == nil || !def.conv.cache {
		return false
	}
	key, ok := def.conv.tapeKey(t, kind)
	return ok && def.conv.valid[key]
}

func unknownSchemaMessage(schema string) string {
	if schema == "olm.catalog.deprecation" {
		return `unknown schema "olm.catalog.deprecation": it was replaced by "olm.deprecations"; schemas starting with "olm." are reserved for OLM`
	}
	if near := suggest.Near(schema, knownSchemas); len(near) > 0 {
		quoted := make([]string, len(near))
		for i, n := range near {
			quoted[i] = strconv.Quote(n)
		}
		return fmt.Sprintf("unknown schema %q: did you mean %s? (schemas starting with \"olm.\" are reserved for OLM)", schema, suggest.Or(quoted))
	}
	return fmt.Sprintf("unknown schema %q: OLM defines %s; schemas starting with \"olm.\" are reserved for OLM, so name your own schema after a domain you own (e.g. example.com.%s)",
		schema, strings.Join(knownSchemas, ", "), strings.TrimPrefix(schema, "olm."))
}

// nullPropertyValues reports properties whose value is null. (Upstream
// accepts them for unknown property types; nothing can use them.)
func nullPropertyValues(obj *declcfg.Object) []*declcfg.Error {
	props := lookup(obj.Value, "properties")
	if props == nil || props.Kind != value.Array {
		return nil
	}
	var errs []*declcfg.Error
	for i := range props.Items {
		p := &props.Items[i]
		if v := lookup(p, "value"); v != nil && v.Kind == value.Null {
			errs = append(errs, obj.Errorf(int(v.Line), int(v.Col), "%s: value is null; give the property a value or remove it", propertyLabel(p, i)))
		}
	}
	return errs
}

func propertyLabel(p *value.Value, i int) string {
	if t := propertyType(p); t != "" {
		return fmt.Sprintf("properties[%d] (%s)", i, t)
	}
	return fmt.Sprintf("properties[%d]", i)
}

// kindFor is the field table for a blob of schema.
func kindFor(schema string) string {
	if _, ok := builtinDefs[schema]; ok {
		return schema
	}
	return ""
}

// unify checks obj against def and turns CUE's errors into problems at
// positions in the file. CUE does not report missing required fields of
// an object that also has type conflicts, so when there are conflicts the
// check runs again without the conflicting fields.
func (s *schemas) unify(obj *declcfg.Object, def *definition) []*declcfg.Error {
	kind := kindFor(obj.Schema)
	// Where the quick path reads bundles (s.keyed), the shapes of blobs
	// that pass are needed, and a known one is the cheaper answer; else a
	// verdict alone says that a blob passes, and nothing is hashed.
	if def.verdict != nil && !s.keyed && def.verdict.valid(obj.Value, kind) {
		return nil
	}
	key, known := def.conv.prepare(obj.Value, kind)
	if known {
		return nil
	}
	if def.verdict != nil && s.keyed && def.verdict.valid(obj.Value, kind) {
		def.conv.passedWhole(key)
		return nil
	}
	validate := s.validate
	if def.listsInParts {
		validate = s.validateInParts
	}
	in := def.conv.input(obj.Value, kind)
	found := validate(def.value, in)
	def.conv.settle(found)
	if len(found) == 0 {
		def.conv.remember(key)
		return nil
	}
	var conflicts [][]string
	for _, f := range found {
		if !f.missing {
			conflicts = append(conflicts, f.path)
		}
	}
	if len(conflicts) > 0 {
		in = withoutPaths(in, conflicts)
		for _, f := range validate(def.value, in) {
			if f.missing && !underAny(f.path, conflicts) {
				found = append(found, f)
			}
		}
	}
	var errs []*declcfg.Error
	seen := map[string]bool{}
	for _, f := range found {
		e := describe(obj, f, def.name)
		if key := e.Message; !seen[key] {
			seen[key] = true
			errs = append(errs, e)
		}
	}
	return errs
}

// finding is one CUE error, with its path in the data (the definition's
// name dropped; for a missing field, the field's own path).
type finding struct {
	path    []string
	missing bool
	format  string
	args    []any
}

func (s *schemas) validate(def cue.Value, in any) []finding {
	s.runs++
	err := def.Unify(s.ctx.Encode(in)).Validate(cue.Concrete(true))
	if err == nil {
		return nil
	}
	var out []finding
	for _, e := range cueerrors.Errors(err) {
		path := slices.Clone(e.Path())
		if len(path) > 0 && strings.HasPrefix(path[0], "#") {
			path = path[1:]
		}
		for i, seg := range path {
			// CUE quotes labels that are not identifiers ("$olm.gvk").
			if unq, err := strconv.Unquote(seg); err == nil && strings.HasPrefix(seg, `"`) {
				path[i] = unq
			}
		}
		format, args := e.Msg()
		f := finding{path: path, format: format, args: args}
		switch format {
		case "field is required but not present":
			f.missing = true
		case "required field missing: %s":
			f.missing = true
			if len(args) == 1 {
				f.path = append(f.path, fmt.Sprint(args[0]))
			}
		}
		out = append(out, f)
	}
	return out
}

// maxListLen is the longest list validateInParts hands to CUE: CUE looks
// the elements of a list up one by one as it builds it, so its time grows
// with the square of the list's length (a channel of 160,000 entries took
// over half a minute).
const maxListLen = 512

// validateInParts is validate for the built-in definitions, whose lists
// are all [...#X], valid when each element is. Every list longer than
// maxListLen is checked maxListLen elements at a time: round k checks a
// copy of in where each long list holds only its k-th part (or nothing,
// once it has run out), and what is found in an element is placed at the
// element's own index. The work grows with the size of in, not its square.
func (s *schemas) validateInParts(def cue.Value, in any) []finding {
	var lists []longList
	findLongLists(in, nil, &lists)
	if len(lists) == 0 {
		return s.validate(def, in)
	}
	var out []finding
	for start := 0; ; start += maxListLen {
		part, more := in, false
		for _, l := range lists {
			end := min(start+maxListLen, len(l.items))
			part = replaceAt(part, l.path, l.items[min(start, end):end])
			more = more || end < len(l.items)
		}
		for _, f := range s.validateInParts(def, part) {
			l := slices.IndexFunc(lists, func(l longList) bool {
				return len(f.path) > len(l.path) && slices.Equal(f.path[:len(l.path)], l.path)
			})
			if l < 0 {
				// Not in an element: found in every round, kept once.
				if start == 0 {
					out = append(out, f)
				}
				continue
			}
			at := len(lists[l].path)
			i, _ := strconv.Atoi(f.path[at])
			f.path = slices.Clone(f.path)
			f.path[at] = strconv.Itoa(start + i)
			out = append(out, f)
		}
		if !more {
			return out
		}
	}
}

// longList is a list longer than maxListLen, at path.
type longList struct {
	path  []string
	items []any
}

// findLongLists appends to lists the lists longer than maxListLen in in,
// except those inside one (validateInParts finds them in each part).
func findLongLists(in any, path []string, lists *[]longList) {
	switch x := in.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			findLongLists(x[k], append(path, k), lists)
		}
	case []any:
		if len(x) > maxListLen {
			*lists = append(*lists, longList{slices.Clone(path), x})
			return
		}
		for i, v := range x {
			findLongLists(v, append(path, strconv.Itoa(i)), lists)
		}
	}
}

// replaceAt returns a copy of in with the value at path (which exists)
// replaced by v; only the maps and lists on the path are copied.
func replaceAt(in any, path []string, v any) any {
	if len(path) == 0 {
		return v
	}
	switch x := in.(type) {
	case map[string]any:
		out := maps.Clone(x)
		out[path[0]] = replaceAt(x[path[0]], path[1:], v)
		return out
	case []any:
		i, _ := strconv.Atoi(path[0])
		out := slices.Clone(x)
		out[i] = replaceAt(x[i], path[1:], v)
		return out
	}
	return in
}

// underAny reports whether path is one of roots or below one.
func underAny(path []string, roots [][]string) bool {
	for _, r := range roots {
		if len(path) >= len(r) && slices.Equal(path[:len(r)], r) {
			return true
		}
	}
	return false
}

// withoutPaths returns a copy of in with the values at paths removed (list
// elements are replaced by empty objects, to keep indexes).
func withoutPaths(in any, paths [][]string) any {
	for _, p := range paths {
		in = without(in, p)
	}
	return in
}

func without(in any, path []string) any {
	if len(path) == 0 {
		return map[string]any{}
	}
	switch x := in.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = v
		}
		if len(path) == 1 {
			delete(out, path[0])
		} else if v, ok := out[path[0]]; ok {
			out[path[0]] = without(v, path[1:])
		}
		return out
	case []any:
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(x) {
			return x
		}
		out := slices.Clone(x)
		out[i] = without(x[i], path[1:])
		return out
	}
	return in
}

// describe words a finding for people and places it in the file.
func describe(obj *declcfg.Object, f finding, defName string) *declcfg.Error {
	node, label := locate(obj.Value, f.path)
	var msg string
	switch f.format {
	case "conflicting values %s and %s (mismatched types %s and %s)":
		want := fmt.Sprint(f.args[3])
		if got := cueType(node); fmt.Sprint(f.args[3]) == got {
			want = fmt.Sprint(f.args[2])
		}
		msg = fmt.Sprintf("%s must be %s, not %s", label, typeWords(want), value.Describe(node))
	case "conflicting values %s and %s":
		a, b := fmt.Sprint(f.args[0]), fmt.Sprint(f.args[1])
		if a == dataText(node) {
			a, b = b, a
		}
		msg = fmt.Sprintf("%s must be %s, not %s", label, a, value.Describe(node))
	case "invalid value %v (out of bound %s)":
		if bound := fmt.Sprint(f.args[1]); bound == `!=""` {
			msg = fmt.Sprintf("%s must not be empty", label)
		} else {
			msg = fmt.Sprintf("%s: %s does not satisfy %s", label, fmt.Sprint(f.args[0]), bound)
		}
	case "field is required but not present", "required field missing: %s":
		msg = fmt.Sprintf("%s is missing; it is required", label)
	case "field not allowed":
		msg = fmt.Sprintf("%s is not allowed here", label)
	default:
		msg = label + ": " + fmt.Sprintf(f.format, f.args...)
	}
	if defName != "" {
		msg += fmt.Sprintf(" (schema %s)", defName)
	}
	line, col := 0, 0
	if node != nil {
		line, col = int(node.Line), int(node.Col)
	}
	return obj.Errorf(line, col, "%s", msg)
}

// locate finds the node at a CUE path (or, for a field that is missing,
// the object that should hold it) and names the path for messages, e.g.
// `properties[1] (olm.gvk).value`.
func locate(root *value.Value, path []string) (*value.Value, string) {
	node := root
	var label strings.Builder
	for _, seg := range path {
		var next *value.Value
		if i, err := strconv.Atoi(seg); err == nil && node != nil && node.Kind == value.Array {
			if i < len(node.Items) {
				next = &node.Items[i]
			}
			parent := label.String()
			fmt.Fprintf(&label, "[%d]", i)
			if next != nil {
				label.WriteString(elementHint(parent, next))
			}
		} else {
			if strings.HasPrefix(seg, "$") {
				seg = "value" // a property value's type slot (see fbc.cue)
			}
			next = lookup(node, seg)
			if label.Len() > 0 {
				label.WriteByte('.')
			}
			label.WriteString(seg)
		}
		if next == nil {
			return node, label.String()
		}
		node = next
	}
	if label.Len() == 0 {
		label.WriteString("object")
	}
	return node, label.String()
}

// elementHint names a list element by what it is about, so that messages
// say which property, entry or deprecation they mean.
func elementHint(list string, elem *value.Value) string {
	switch {
	case strings.HasSuffix(list, "properties"):
		if t := propertyType(elem); t != "" {
			return fmt.Sprintf(" (%s)", t)
		}
	case list == "entries":
		if n := lookup(elem, "name"); n != nil && n.Kind == value.String {
			return fmt.Sprintf(" (%q)", n.Str)
		}
		if ref := lookup(elem, "reference"); ref != nil {
			schema, name := lookup(ref, "schema"), lookup(ref, "name")
			if schema != nil && schema.Kind == value.String {
				if name != nil && name.Kind == value.String && name.Str != "" {
					return fmt.Sprintf(" (%s %q)", schema.Str, name.Str)
				}
				return fmt.Sprintf(" (%s)", schema.Str)
			}
		}
	}
	return ""
}

// cueType names a node's type as CUE does in its messages.
func cueType(v *value.Value) string {
	if v == nil {
		return ""
	}
	switch v.Kind {
	case value.Null:
		return "null"
	case value.Bool:
		return "bool"
	case value.Number:
		if v.Num == math.Trunc(v.Num) {
			return "int"
		}
		return "float"
	case value.String:
		return "string"
	case value.Array:
		return "list"
	}
	return "struct"
}

func typeWords(t string) string {
	switch t {
	case "string":
		return "a string"
	case "struct":
		return "an object"
	case "list":
		return "a list"
	case "bool":
		return "a boolean"
	case "int":
		return "an integer"
	case "float", "number":
		return "a number"
	case "null":
		return "null"
	}
	return t
}

func dataText(v *value.Value) string {
	if v == nil {
		return ""
	}
	switch v.Kind {
	case value.String:
		return strconv.Quote(v.Str)
	case value.Number:
		return string(value.AppendNumber(nil, v.Num))
	case value.Bool:
		return strconv.FormatBool(v.Bool)
	case value.Null:
		return "null"
	}
	return ""
}
