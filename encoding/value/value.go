// Package value holds the generic document tree that every catalog blob is
// decoded into, whether it came from JSON or YAML, together with the JSON
// parser and writers that reproduce the upstream opm byte format.
//
// A Value mirrors what encoding/json produces when it decodes into
// map[string]any: numbers are float64, object keys are unique (the last
// duplicate wins) and kept sorted in byte order. Every node also remembers
// the line and column it started at, so that problems found later can point
// into the file.
package value

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of values, in JSON terms.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
	// Raw is a value already written as compact JSON: Str holds it
	// exactly as AppendCompact writes the tree it stands for. Only a
	// decoder asked to makes one (see fbcyaml.DecodeCompactingProperties), for a
	// caller that does nothing with the value but compact it. Str's bytes
	// are the node's alone: Compact hands them out as they are, without
	// a copy (most of a catalog's bytes, in render).
	Raw
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "bool"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "list"
	case Object:
		return "object"
	case Raw:
		return "compact JSON"
	}
	return "unknown"
}

// Value is one node of a decoded document.
type Value struct {
	Kind Kind
	Bool bool
	// Plain is set on a String the JSON parser read without escapes,
	// of printable ASCII but '"' and '\\': encoding/json writes it back
	// as it is (without HTML escaping), so the writers copy it without a
	// look. Unset, the string is looked at.
	Plain  bool
	Num    float64
	Str    string  // String: the text; Number: the literal as written, if known
	Items  []Value // Array elements, in order.
	Fields []Field // Object members, sorted by key, keys unique.
	Line   int32   // 1-based line of the node in its file, 0 if unknown.
	Col    int32   // 1-based column (bytes), 0 if unknown.
}

// Field is one member of an object.
type Field struct {
	Key   string
	Value Value
}

// Get returns the member named key of an object.
func (v *Value) Get(key string) (*Value, bool) {
	if v.Kind != Object {
		return nil, false
	}
	i, ok := slices.BinarySearchFunc(v.Fields, key, func(f Field, k string) int { return strings.Compare(f.Key, k) })
	if !ok {
		return nil, false
	}
	return &v.Fields[i].Value, true
}

// NormalizeFields sorts object members by key and drops earlier duplicates,
// so that the last occurrence of a key wins, as when decoding into a map.
func NormalizeFields(fields []Field) []Field {
	sorted := true
	for i := 1; i < len(fields); i++ {
		if fields[i-1].Key >= fields[i].Key {
			sorted = false
			break
		}
	}
	if sorted {
		return fields
	}
	slices.SortStableFunc(fields, func(a, b Field) int { return strings.Compare(a.Key, b.Key) })
	out := fields[:0]
	for i := range fields {
		if i+1 < len(fields) && fields[i+1].Key == fields[i].Key {
			continue
		}
		out = append(out, fields[i])
	}
	return out
}

// SetPos sets the position of v and, where a child has none, of its
// children, so that every node of a tree decoded without positions points
// at least at its document.
func (v *Value) SetPos(line, col int32) {
	if v.Line == 0 {
		v.Line, v.Col = line, col
	}
	for i := range v.Items {
		v.Items[i].SetPos(line, col)
	}
	for i := range v.Fields {
		v.Fields[i].Value.SetPos(line, col)
	}
}

// Describe names a value's type for messages, with the value itself when
// it is short: `a number (5)`, `a string ("abc")`, `a list`; "missing"
// for nil. Strings are cut after 40 bytes.
func Describe(v *Value) string {
	if v == nil {
		return "missing"
	}
	switch v.Kind {
	case Null:
		return "null"
	case Bool:
		return fmt.Sprintf("a boolean (%v)", v.Bool)
	case Number:
		return fmt.Sprintf("a number (%s)", AppendNumber(nil, v.Num))
	case String:
		return fmt.Sprintf("a string (%q)", Truncate(v.Str, 40))
	case Array:
		return "a list"
	case Object:
		return "an object"
	}
	return "unknown"
}

// Truncate cuts s to at most n bytes, at a character boundary, marking
// the cut with "...".
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// Duplicate is a key that an object holds more than once. Decoding keeps
// the value of its last occurrence, as encoding/json and go-yaml do.
type Duplicate struct {
	Key       string
	Line, Col int32 // where the key occurs again
	PrevLine  int32 // where it occurred the time before
}

// FindDuplicates lists the keys that occur again among fields (in the
// order they were written, before NormalizeFields), one entry for each
// repetition, in order. pos gives the position of the key of fields[i].
// It allocates nothing when the keys are unique and sorted.
func FindDuplicates(fields []Field, pos func(i int) (line, col int32)) []Duplicate {
	sorted := true
	for i := 1; i < len(fields); i++ {
		if fields[i-1].Key >= fields[i].Key {
			sorted = false
			break
		}
	}
	if sorted {
		return nil
	}
	var dups []Duplicate
	prev := make(map[string]int32, len(fields))
	for i := range fields {
		line, col := pos(i)
		if l, ok := prev[fields[i].Key]; ok {
			dups = append(dups, Duplicate{Key: fields[i].Key, Line: line, Col: col, PrevLine: l})
		}
		prev[fields[i].Key] = line
	}
	return dups
}
