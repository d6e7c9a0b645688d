package declcfg

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// Loss is a kind of data that a catalog holds but that does not survive
// loading, in upstream opm as here: the catalog loads, but not as written.
type Loss uint8

// The kinds of loss the loader notices.
const (
	// LossBOM: a JSON file that starts with a byte order mark is read as
	// YAML, which keeps only its first object.
	LossBOM Loss = iota + 1
	// LossUnknownField: a field that OLM's schema for a package, channel,
	// bundle or deprecations blob does not have is dropped.
	LossUnknownField
	// LossRoundedNumber: an integer too large for a float64 (beyond 2^53)
	// is rounded.
	LossRoundedNumber
	// LossNoPackage: a channel, bundle or deprecations blob without a
	// package (or a package without a name) is left out of rendered
	// catalogs.
	LossNoPackage
	// LossDuplicateKey: a blob holds a key twice, and only the last value
	// is kept. A second "schema" key is two objects run together: a
	// missing "---" between YAML documents (Cause "schema").
	LossDuplicateKey
)

// Warning is one place where data is lost (see Loss).
type Warning struct {
	Loss Loss
	// Cause tells warnings of one cause apart from others of the same
	// Loss: the field, for unknown fields.
	Cause string
	// At is the place and what is lost.
	At *Error
}

// String formats the warning as "file:line:col: warning: subject: message".
func (w Warning) String() string {
	s := w.At.Location()
	if s != "" {
		s += ": "
	}
	s += "warning: "
	if sub := w.At.Subject(); sub != "" {
		s += sub + ": "
	}
	return s + w.At.Message
}

// SortWarnings orders warnings as ErrorList.Sort orders problems.
func SortWarnings(ws []Warning) {
	slices.SortStableFunc(ws, func(a, b Warning) int {
		return cmp.Or(compareErrors(a.At, b.At), cmp.Compare(a.Loss, b.Loss))
	})
}

// WarningGroup is the first warning of a cause (in sorted order) and how
// many more there are of it.
type WarningGroup struct {
	First Warning
	More  int // warnings of the same cause after First
	Files int // files with a warning of this cause
}

// String is the first warning, followed by how many more there are.
func (g WarningGroup) String() string {
	s := g.First.String()
	switch {
	case g.More == 0:
	case g.Files == 1:
		s += fmt.Sprintf(" (and %d more like it in this file)", g.More)
	default:
		s += fmt.Sprintf(" (and %d more like it, in %d files)", g.More, g.Files)
	}
	return s
}

// GroupWarnings sorts warnings and returns one group per cause, in the
// order of their first warnings, so that a catalog with the same problem
// in every blob is reported in one line, not thousands.
func GroupWarnings(ws []Warning) []WarningGroup {
	SortWarnings(ws)
	type key struct {
		loss  Loss
		cause string
	}
	index := map[key]int{}
	files := map[key]map[string]bool{}
	var groups []WarningGroup
	for _, w := range ws {
		k := key{w.Loss, w.Cause}
		i, ok := index[k]
		if !ok {
			index[k] = len(groups)
			files[k] = map[string]bool{}
			groups = append(groups, WarningGroup{First: w})
		} else {
			groups[i].More++
		}
		files[k][w.At.File] = true
	}
	for k, i := range index {
		groups[i].Files = len(files[k])
	}
	return groups
}

var listIndex = regexp.MustCompile(`\[\d+\]`)

// unknownFieldWarning is the warning for a key that typing ignored.
func unknownFieldWarning(obj *Object, path string, v *value.Value) Warning {
	e := obj.Errorf(int(v.Line), int(v.Col), "unknown field %q is dropped: %s has no such field, so rendering and serving the catalog leave it out; remove it, or keep the data in a property",
		path, obj.Schema)
	return Warning{Loss: LossUnknownField, Cause: obj.Schema + " " + listIndex.ReplaceAllString(path, "[]"), At: e}
}

// noPackageWarning is the warning for a typed object that rendering
// drops, or nil.
func noPackageWarning(obj *Object, it Item) *Warning {
	var field string
	switch {
	case it.Package != nil && it.Package.Name == "":
		field = "name"
	case it.Channel != nil && it.Channel.Package == "",
		it.Bundle != nil && it.Bundle.Package == "",
		it.Deprecation != nil && it.Deprecation.Package == "":
		field = "package"
	default:
		return nil
	}
	e := obj.Errorf(obj.Pos.Line, 0, "this %s blob has no %s, so it is left out of rendered catalogs; set %q", obj.Schema, field, field)
	return &Warning{Loss: LossNoPackage, Cause: obj.Schema, At: e}
}

// roundedNumbers reports the integers in v that a float64 cannot hold
// exactly, and so change when the catalog is written.
func roundedNumbers(obj *Object, v *value.Value, warn func(Warning)) {
	switch v.Kind {
	case value.Number:
		if !isRoundedInteger(v) {
			return
		}
		e := obj.Errorf(int(v.Line), int(v.Col), "number %s is beyond 2^53 and is rounded to %s when the catalog is rendered or served; write it as a string (%q) to keep every digit",
			v.Str, strconv.FormatFloat(v.Num, 'f', -1, 64), v.Str)
		warn(Warning{Loss: LossRoundedNumber, At: e})
	case value.Array:
		for i := range v.Items {
			roundedNumbers(obj, &v.Items[i], warn)
		}
	case value.Object:
		for i := range v.Fields {
			roundedNumbers(obj, &v.Fields[i].Value, warn)
		}
	}
}

// isRoundedInteger reports whether v was written as an integer that its
// float64 value does not equal.
func isRoundedInteger(v *value.Value) bool {
	digits := strings.TrimPrefix(strings.TrimPrefix(v.Str, "-"), "+")
	if len(digits) <= 15 || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return false // 15 digits always fit; not a decimal integer
	}
	return strconv.FormatFloat(math.Abs(v.Num), 'f', -1, 64) != digits
}

var utf8BOM = []byte("\xef\xbb\xbf")

// bomLoss returns the warning for a JSON stream of several objects behind
// a byte order mark, of which decoding (as YAML, as upstream does) kept
// only the first decoded documents, or nil.
func bomLoss(data []byte, decoded int) *Error {
	if !bytes.HasPrefix(data, utf8BOM) || !value.LooksLikeJSON(data[len(utf8BOM):], sniffLen) {
		return nil
	}
	p := value.NewJSONParser(data[len(utf8BOM):], 1)
	count, line := 0, int32(0)
	for !p.AtEOF() {
		v, err := p.Next()
		if err != nil || v.Kind != value.Object {
			break
		}
		count++
		if count == decoded+1 {
			line = v.Line
		}
	}
	if count <= decoded {
		return nil
	}
	kept := "the first"
	if decoded != 1 {
		kept = fmt.Sprintf("the first %d", decoded)
	}
	lost := "this object is ignored"
	if n := count - decoded; n > 1 {
		lost = fmt.Sprintf("the %d objects from this one on are ignored", n)
	}
	return &Error{Line: int(line), Message: fmt.Sprintf(
		"the file starts with a byte order mark (BOM), so it is read as YAML, which keeps only %s of its %d JSON objects: %s; remove the BOM (bytes EF BB BF) at the start of the file",
		kept, count, lost)}
}

// duplicateKeyWarnings are the warnings for the keys a blob holds more
// than once (dups, in document order). A repeated "schema" (merged) starts
// a second object: the author left out the "---" between two YAML
// documents, or the braces between two JSON objects. Its warnings say so
// and where the second object seems to start: at the first key that
// repeats one of the object before it. The other repeated keys of such a
// blob are consequences and are not reported.
func duplicateKeyWarnings(dups []value.Duplicate, merged, yaml bool) []Warning {
	var ws []Warning
	start := int32(0) // where the object being read seems to start
	for _, d := range dups {
		if d.PrevLine >= start {
			start = d.Line
		}
		switch {
		case d.Key == "schema":
			msg := fmt.Sprintf("duplicate key \"schema\" at line %d (also at line %d) — missing \"---\" between documents? Two objects were read as one, which keeps only the last value of each key; put \"---\" on a line of its own before line %d, where the second object starts",
				d.Line, d.PrevLine, start)
			if !yaml {
				msg = fmt.Sprintf("duplicate key \"schema\" at line %d (also at line %d) — two objects run together? They were read as one, which keeps only the last value of each key; end the first object with \"}\" and start the second with \"{\" before line %d",
					d.Line, d.PrevLine, start)
			}
			ws = append(ws, Warning{Loss: LossDuplicateKey, Cause: d.Key, At: &Error{Line: int(d.Line), Column: int(d.Col), Message: msg}})
		case !merged:
			e := &Error{Line: int(d.Line), Column: int(d.Col), Message: fmt.Sprintf(
				"duplicate key %q (also at line %d): only the last value is kept; remove one of them", d.Key, d.PrevLine)}
			ws = append(ws, Warning{Loss: LossDuplicateKey, Cause: d.Key, At: e})
		}
	}
	return ws
}

// separatorMissing reports whether a blob repeats "schema".
func separatorMissing(dups []value.Duplicate) bool {
	for _, d := range dups {
		if d.Key == "schema" {
			return true
		}
	}
	return false
}

// SeparatorMissing reports whether w is a repeated "schema" key: two
// objects run together, which makes a blob that is none of them.
func (w Warning) SeparatorMissing() bool { return w.Loss == LossDuplicateKey && w.Cause == "schema" }
