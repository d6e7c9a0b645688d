// Reading a tree: members along a path, and scalars as text.

package value

import "strconv"

// At follows v along path and returns the value found there: at an
// object a key is a member name, at an array a decimal index ("0", "12").
// It returns v itself for an empty path, nil where a member or item is
// missing or a value on the way is a scalar. v may be nil, so that
// lookups chain: v.At("spec").At("names", "kind").
func (v *Value) At(path ...string) *Value {
	for _, key := range path {
		if v == nil {
			return nil
		}
		if v.Kind == Array {
			n, err := strconv.Atoi(key)
			if err != nil || n < 0 || n >= len(v.Items) || key != strconv.Itoa(n) {
				return nil
			}
			v = &v.Items[n]
			continue
		}
		next, ok := v.Get(key)
		if !ok {
			return nil
		}
		v = next
	}
	return v
}

// StringAt is the string at path below v (see At), "" when there is none
// or the value there is not a string.
func (v *Value) StringAt(path ...string) string {
	if s := v.At(path...); s != nil && s.Kind == String {
		return s.Str
	}
	return ""
}

// Text is a scalar as text, the way upstream reads a scalar into a Go
// string field (annotations, labels) through sigs.k8s.io/yaml: a string
// as it is, a boolean as true or false, and a number as written when the
// literal is known (JSON numbers and YAML integers) or else formatted as
// that package formats a YAML float for a string field, the shortest text
// of the number as a 32-bit float ('g' format: 1.5, 1e+21). ok is false,
// and the text "", for null, arrays and objects (and a nil v).
func Text(v *Value) (string, bool) {
	if v == nil {
		return "", false
	}
	switch v.Kind {
	case String:
		return v.Str, true
	case Number:
		if v.Str != "" {
			return v.Str, true
		}
		return strconv.FormatFloat(v.Num, 'g', -1, 32), true
	case Bool:
		return strconv.FormatBool(v.Bool), true
	}
	return "", false
}
