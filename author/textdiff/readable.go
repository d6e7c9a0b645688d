package textdiff

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxLine is the longest line a readable diff prints; keptOfLong is how
// much of a longer one it keeps.
const (
	MaxLine      = 300
	keptOfLong   = 200
	maxFieldText = 100
)

// Readable writes the unified diff of old and new as Unified does, but
// summarised for reading: an olm.bundle.object property is one line
// naming the object and its size, an olm.csv.metadata property one line
// per field, and any other line longer than MaxLine characters is cut.
// Lines are compared whole, so a changed object still shows as changed;
// the hunks' line numbers are the files'. A line cut short says how many
// bytes were left out and that full prints them: what gives the whole
// diff to the reader, such as a command line's flag; "" says "the full
// diff".
func Readable(w io.Writer, name string, old, new []byte, full string) error {
	return readable(w, name, old, new, full, commonEnds)
}

func readable(w io.Writer, name string, old, new []byte, full string, ends endsFunc) error {
	if full == "" {
		full = "the full diff"
	}
	s := summariser{full: full}
	pre, suf := ends(old, new, startsUnit)
	ua, ub := readableUnits(old[pre:len(old)-suf]), readableUnits(new[pre:len(new)-suf])
	d := differ{a: unitKeys(ua), b: unitKeys(ub)}
	d.gap(old[:pre])
	d.diff(0, len(d.a), 0, len(d.b))
	d.gap(old[len(old)-suf:])
	// Only the units a hunk prints are summarised: in a large catalog
	// most are unchanged and far from any change.
	shown := printed(d.ops)
	ia, ib := 0, 0
	for i := range d.ops {
		var u unit
		switch {
		case d.ops[i].isGap():
			continue
		case d.ops[i].kind == '-':
			u, ia = ua[ia], ia+1
		case d.ops[i].kind == '+':
			u, ib = ub[ib], ib+1
		default:
			u, ia, ib = ua[ia], ia+1, ib+1
		}
		d.ops[i].n = u.n
		if shown[i] {
			d.ops[i].show = s.show(u)
		}
	}
	return writeUnified(w, name, old == nil, d.ops)
}

// startsUnit says a line is always the first of a readable diff's unit:
// it starts with none of the characters that the second and later lines
// of a bundle object or a CSV metadata field start with (an indent, an
// empty line) or that a property does ("- type: ...").
func startsUnit(line []byte) bool {
	return line[0] != ' ' && line[0] != '-' && line[0] != '\n'
}

// printed says which ops of an edit script its hunks print.
func printed(ops []op) []bool {
	shown := make([]bool, len(ops))
	for _, h := range hunkRanges(ops) {
		for i := h[0]; i < h[1]; i++ {
			shown[i] = true
		}
	}
	return shown
}

// unitKind is what a unit of a readable diff is, and so how it is shown.
type unitKind uint8

const (
	plainLine    unitKind = iota // a line of its own
	bundleObject                 // an olm.bundle.object property's three lines
	csvHeading                   // an olm.csv.metadata property's type and "value:"
	csvField                     // one field of an olm.csv.metadata value
)

// unit is one or more lines of a file shown as one line.
type unit struct {
	raw    []byte // the lines, compared whole
	n      int    // how many lines raw has
	kind   unitKind
	indent int // of the property (bundleObject, csvHeading) or field
}

func unitKeys(us []unit) [][]byte {
	out := make([][]byte, len(us))
	for i, u := range us {
		out[i] = u.raw
	}
	return out
}

// show is the line a diff prints for a unit.
func (s summariser) show(u unit) []byte {
	indent := strings.Repeat(" ", u.indent)
	switch u.kind {
	case bundleObject:
		third := splitLines(u.raw)[2]
		data := bytes.TrimSpace(third[u.indent+len("    data: "):])
		return fmt.Appendf(nil, "%s- olm.bundle.object: %s\n", indent, describeObject(data))
	case csvHeading:
		return []byte(indent + "- olm.csv.metadata:\n")
	case csvField:
		return s.fieldLine(splitLines(u.raw), indent)
	}
	return s.lineShown(u.raw)
}

var dataLine = regexp.MustCompile(`^( *)("?data"?: *)"?([A-Za-z0-9+/=]{64,})"?(,?)\n?$`)

// propertyType is the indent of a line "- type: <typ>" (spaces only
// before it), or -1.
func propertyType(line []byte, typ string) int {
	rest := bytes.TrimLeft(line, " ")
	if len(rest) != len("- type: ")+len(typ)+1 || !bytes.HasPrefix(rest, []byte("- type: ")) ||
		!bytes.HasPrefix(rest[len("- type: "):], []byte(typ)) || rest[len(rest)-1] != '\n' {
		return -1
	}
	return len(line) - len(rest)
}

// joined is lines, consecutive parts of one text, as one slice of it.
func joined(lines [][]byte) []byte {
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	return lines[0][:n:n]
}

// summariser splits texts into the units a readable diff shows; full
// names what prints the lines it cuts.
type summariser struct {
	full string
}

// readableUnits splits a file's text into the units a readable diff
// shows.
func readableUnits(text []byte) []unit {
	lines := splitLines(text)
	out := make([]unit, 0, len(lines))
	for i := 0; i < len(lines); {
		if u, ok := bundleObjectUnit(lines[i:]); ok {
			out, i = append(out, u), i+u.n
			continue
		}
		if us, n := csvMetadataUnits(lines[i:]); n > 0 {
			out, i = append(out, us...), i+n
			continue
		}
		out = append(out, unit{raw: lines[i], n: 1})
		i++
	}
	return out
}

// lineShown is a line of its own as shown: as it is, or cut when long (a
// base64 data line anywhere is summarised like a bundle object's).
func (s summariser) lineShown(line []byte) []byte {
	show := line
	if m := dataLine.FindSubmatch(line); m != nil {
		show = fmt.Appendf(nil, "%s%s%s%s\n", m[1], m[2], describeObject(m[3]), m[4])
		if line[len(line)-1] != '\n' {
			show = show[:len(show)-1]
		}
	} else if len(line) > MaxLine {
		show = s.cutLine(line)
	}
	return show
}

// cutLine keeps the start of a long line and says how much was left out.
func (s summariser) cutLine(line []byte) []byte {
	if len(line) <= MaxLine {
		return line
	}
	end := bytes.HasSuffix(line, []byte("\n"))
	body := bytes.TrimSuffix(line, []byte("\n"))
	keep := keptOfLong
	for keep > 0 && !utf8.RuneStart(body[keep]) {
		keep--
	}
	out := fmt.Appendf(nil, "%s… (%d more bytes; %s prints them)", body[:keep], len(body)-keep, s.full)
	if end {
		out = append(out, '\n')
	}
	return out
}

// bundleObjectUnit reads an olm.bundle.object property of a YAML
// catalog (type, value, data: three lines) as one unit.
func bundleObjectUnit(lines [][]byte) (unit, bool) {
	n := propertyType(lines[0], "olm.bundle.object")
	if n < 0 || len(lines) < 3 || !isIndented(lines[1], n, "  value:\n") ||
		!bytes.HasPrefix(lines[2], lines[1][:n]) || !bytes.HasPrefix(lines[2][n:], []byte("    data: ")) {
		return unit{}, false
	}
	return unit{raw: joined(lines[:3]), n: 3, kind: bundleObject, indent: n}, true
}

// isIndented reports whether line is n spaces and then rest.
func isIndented(line []byte, n int, rest string) bool {
	return len(line) == n+len(rest) && string(line[n:]) == rest && len(bytes.TrimLeft(line[:n], " ")) == 0
}

// describeObject names the object base64 data holds and its size:
// "CustomResourceDefinition foos.example.com (12.3 KB)".
func describeObject(b64 []byte) string {
	raw, err := base64.StdEncoding.DecodeString(string(b64))
	if err != nil {
		return fmt.Sprintf("%d bytes of base64", len(b64))
	}
	var obj struct {
		Kind     string `yaml:"kind"`
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
	}
	what := "an object"
	if yaml.Unmarshal(raw, &obj) == nil && obj.Kind != "" {
		what = strings.TrimSpace(obj.Kind + " " + obj.Metadata.Name)
	}
	return fmt.Sprintf("%s (%s)", what, byteSize(len(raw)))
}

// byteSize is a size for people: 512 B, 12.3 KB, 1.2 MB.
func byteSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

// csvMetadataUnits reads an olm.csv.metadata property of a YAML catalog
// as a heading unit and one unit per field of its value, or returns 0.
func csvMetadataUnits(lines [][]byte) ([]unit, int) {
	n := propertyType(lines[0], "olm.csv.metadata")
	if n < 0 || len(lines) < 2 || !isIndented(lines[1], n, "  value:\n") {
		return nil, 0
	}
	out := []unit{{raw: joined(lines[:2]), n: 2, kind: csvHeading, indent: n}}
	field := strings.Repeat(" ", n+4)
	i := 2
	for i < len(lines) && isFieldStart(lines[i], field) {
		j := i + 1
		for j < len(lines) && inField(lines[j], field) {
			j++
		}
		out = append(out, unit{raw: joined(lines[i:j]), n: j - i, kind: csvField, indent: n + 4})
		i = j
	}
	return out, i
}

// isFieldStart reports whether a line starts a mapping key at exactly
// the indent.
func isFieldStart(line []byte, indent string) bool {
	rest, ok := bytes.CutPrefix(line, []byte(indent))
	return ok && len(rest) > 0 && rest[0] != ' ' && rest[0] != '-' && rest[0] != '\n'
}

// inField reports whether a line continues a field at the indent: more
// indented, a list item at the same indent (YAML's compact lists), or
// empty (in a block of text).
func inField(line []byte, indent string) bool {
	if len(line) == 1 && line[0] == '\n' {
		return true
	}
	rest, ok := bytes.CutPrefix(line, []byte(indent))
	return ok && len(rest) > 0 && (rest[0] == ' ' || bytes.HasPrefix(rest, []byte("- ")) || bytes.Equal(rest, []byte("-\n")))
}

// fieldLine shows a field of olm.csv.metadata as "name: value" on one
// line, the value cut when long.
func (s summariser) fieldLine(lines [][]byte, indent string) []byte {
	var dedented []byte
	for _, l := range lines {
		dedented = append(dedented, bytes.TrimPrefix(l, []byte(indent))...)
	}
	var v map[string]any
	show := s.cutLine(bytes.TrimSuffix(lines[0], []byte("\n")))
	if yaml.Unmarshal(dedented, &v) == nil && len(v) == 1 {
		for k, val := range v {
			show = []byte(indent + k + ": " + fieldText(val))
		}
	}
	if !bytes.HasSuffix(show, []byte("\n")) {
		show = append(show, '\n')
	}
	return show
}

// fieldText is a value on one line: text with its white space folded,
// anything else as JSON, cut at 100 characters.
func fieldText(v any) string {
	var s string
	if str, ok := v.(string); ok {
		s = strings.Join(strings.Fields(str), " ")
	} else if data, err := json.Marshal(v); err == nil {
		s = string(data)
	} else {
		s = fmt.Sprint(v)
	}
	if len(s) <= maxFieldText {
		return s
	}
	keep := maxFieldText
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return fmt.Sprintf("%s… (%d characters)", s[:keep], len(s))
}
