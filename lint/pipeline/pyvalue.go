package pipeline

import (
	"math"
	"strconv"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// The pipeline's messages print values as Python prints them (repr of a
// loaded YAML value, str of one a regular expression is matched
// against): these write a value tree the same way.

// pyRepr is Python's repr of a loaded value.
func pyRepr(v *value.Value) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

func writeRepr(b *strings.Builder, v *value.Value) {
	switch {
	case v == nil || v.Kind == value.Null:
		b.WriteString("None")
	case v.Kind == value.String:
		b.WriteString(pyQuote(v.Str))
	case v.Kind == value.Array:
		b.WriteByte('[')
		for i := range v.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, &v.Items[i])
		}
		b.WriteByte(']')
	case v.Kind == value.Object:
		b.WriteByte('{')
		for i := range v.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyQuote(v.Fields[i].Key))
			b.WriteString(": ")
			writeRepr(b, &v.Fields[i].Value)
		}
		b.WriteByte('}')
	default:
		b.WriteString(pyStr(v))
	}
}

// pyStr is Python's str of a loaded value: a string as it is, the rest
// as repr writes it.
func pyStr(v *value.Value) string {
	switch {
	case v == nil || v.Kind == value.Null:
		return "None"
	case v.Kind == value.String:
		return v.Str
	case v.Kind == value.Bool && v.Bool:
		return "True"
	case v.Kind == value.Bool:
		return "False"
	case v.Kind == value.Number:
		return pyNumber(v)
	}
	return pyRepr(v)
}

// pyNumber writes a number as Python does: an integer literal as an
// integer, a float with its shortest digits and at least one decimal.
func pyNumber(v *value.Value) string {
	lit := v.Str
	isFloat := lit == "" || strings.ContainsAny(lit, ".eE") || strings.Contains(strings.ToLower(lit), "inf") || strings.Contains(strings.ToLower(lit), "nan")
	if !isFloat && v.Num == math.Trunc(v.Num) && math.Abs(v.Num) < 1e18 {
		return strconv.FormatInt(int64(v.Num), 10)
	}
	switch {
	case math.IsInf(v.Num, 1):
		return "inf"
	case math.IsInf(v.Num, -1):
		return "-inf"
	case math.IsNaN(v.Num):
		return "nan"
	}
	if a := math.Abs(v.Num); a != 0 && (a < 1e-4 || a >= 1e16) {
		s := strconv.FormatFloat(v.Num, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		if len(exp) == 3 && exp[1] == '0' {
			exp = exp[:1] + exp[2:]
		}
		return mant + "e" + exp
	}
	s := strconv.FormatFloat(v.Num, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pyQuote quotes a string as Python's repr does (single quotes, unless
// the text holds single quotes and no double ones).
func pyQuote(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteByte(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x` + strconv.FormatInt(int64(r)+0x100, 16)[1:])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// pyList writes strings as Python writes a list of them.
func pyList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = pyQuote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// pySet writes strings as Python writes a set of them (in the order
// given: Python's own order is its hashes', which vary between runs).
func pySet(items []string) string {
	l := pyList(items)
	return "{" + l[1:len(l)-1] + "}"
}
