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
	if full == "" {
		full = "the full diff"
	}
	s := summariser{full: full}
	ua, ub := s.readableUnits(old), s.readableUnits(new)
	d := differ{a: unitKeys(ua), b: unitKeys(ub)}
	d.diff(0, len(d.a), 0, len(d.b))
	ia, ib := 0, 0
	for i := range d.ops {
		var u unit
		switch d.ops[i].kind {
		case '-':
			u, ia = ua[ia], ia+1
		case '+':
			u, ib = ub[ib], ib+1
		default:
			u, ia, ib = ua[ia], ia+1, ib+1
		}
		d.ops[i].show, d.ops[i].n = u.show, u.n
	}
	return writeUnified(w, name, old == nil, d.ops)
}

// unit is one or more lines of a file shown as one line.
type unit struct {
	raw  []byte // the lines, compared whole
	show []byte // the line printed
	n    int    // how many lines raw has
}

func unitKeys(us []unit) [][]byte {
	out := make([][]byte, len(us))
	for i, u := range us {
		out[i] = u.raw
	}
	return out
}

var (
	bundleObjectLine = regexp.MustCompile(`^( *)- type: olm\.bundle\.object\n$`)
	csvMetadataLine  = regexp.MustCompile(`^( *)- type: olm\.csv\.metadata\n$`)
	dataLine         = regexp.MustCompile(`^( *)("?data"?: *)"?([A-Za-z0-9+/=]{64,})"?(,?)\n?$`)
)

// summariser splits texts into the units a readable diff shows; full
// names what prints the lines it cuts.
type summariser struct {
	full string
}

// readableUnits splits a file's text into the units a readable diff
// shows.
func (s summariser) readableUnits(text []byte) []unit {
	lines := splitLines(text)
	var out []unit
	for i := 0; i < len(lines); {
		if us, n := bundleObjectUnit(lines[i:]); n > 0 {
			out, i = append(out, us...), i+n
			continue
		}
		if us, n := s.csvMetadataUnits(lines[i:]); n > 0 {
			out, i = append(out, us...), i+n
			continue
		}
		out = append(out, s.lineUnit(lines[i]))
		i++
	}
	return out
}

// lineUnit is a line of its own: printed as it is, or cut when long (a
// base64 data line anywhere is summarised like a bundle object's).
func (s summariser) lineUnit(line []byte) unit {
	show := line
	if m := dataLine.FindSubmatch(line); m != nil {
		show = fmt.Appendf(nil, "%s%s%s%s\n", m[1], m[2], describeObject(m[3]), m[4])
		if line[len(line)-1] != '\n' {
			show = show[:len(show)-1]
		}
	} else if len(line) > MaxLine {
		show = s.cutLine(line)
	}
	return unit{raw: line, show: show, n: 1}
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
// catalog (type, value, data: three lines) as one unit, or returns 0.
func bundleObjectUnit(lines [][]byte) ([]unit, int) {
	m := bundleObjectLine.FindSubmatch(lines[0])
	if m == nil || len(lines) < 3 {
		return nil, 0
	}
	indent := string(m[1])
	if string(lines[1]) != indent+"  value:\n" {
		return nil, 0
	}
	data, ok := bytes.CutPrefix(lines[2], []byte(indent+"    data: "))
	if !ok {
		return nil, 0
	}
	show := fmt.Appendf(nil, "%s- olm.bundle.object: %s\n", indent, describeObject(bytes.TrimSpace(data)))
	return []unit{{raw: bytes.Join(lines[:3], nil), show: show, n: 3}}, 3
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
func (s summariser) csvMetadataUnits(lines [][]byte) ([]unit, int) {
	m := csvMetadataLine.FindSubmatch(lines[0])
	if m == nil || len(lines) < 2 {
		return nil, 0
	}
	indent := string(m[1])
	if string(lines[1]) != indent+"  value:\n" {
		return nil, 0
	}
	out := []unit{{raw: bytes.Join(lines[:2], nil), show: []byte(indent + "- olm.csv.metadata:\n"), n: 2}}
	field := indent + "    "
	i := 2
	for i < len(lines) && isFieldStart(lines[i], field) {
		j := i + 1
		for j < len(lines) && inField(lines[j], field) {
			j++
		}
		out = append(out, s.fieldUnit(lines[i:j], field))
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

// fieldUnit shows a field of olm.csv.metadata as "name: value" on one
// line, the value cut when long.
func (s summariser) fieldUnit(lines [][]byte, indent string) unit {
	raw := bytes.Join(lines, nil)
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
	return unit{raw: raw, show: show, n: len(lines)}
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
