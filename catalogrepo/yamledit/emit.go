package yamledit

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"go.yaml.in/yaml/v3"
)

// Map is an ordered mapping to insert: its keys are written in this order.
type Map []KV

// KV is one key and its value in a Map. A value is a string, bool, int,
// nil, []any or []string (a sequence) or a Map.
type KV struct {
	Key   string
	Value any
}

// normalize checks a value to insert and turns it into the types the
// emitter knows: string, bool, int, nil, []any and Map.
func normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, int:
		return x, nil
	case string:
		if !utf8.ValidString(x) {
			return nil, fmt.Errorf("the string %q is not valid UTF-8", x)
		}
		return x, nil
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return normalize(out)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := normalize(e)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case Map:
		return normalizeMap(x)
	}
	return nil, fmt.Errorf("cannot write a value of type %T", v)
}

func normalizeMap(m Map) (any, error) {
	out := make(Map, len(m))
	seen := map[string]bool{}
	for i, kv := range m {
		if seen[kv.Key] {
			return nil, fmt.Errorf("the key %q appears twice in the mapping to write", kv.Key)
		}
		seen[kv.Key] = true
		n, err := normalize(kv.Value)
		if err != nil {
			return nil, err
		}
		if _, err := normalize(kv.Key); err != nil {
			return nil, err
		}
		out[i] = KV{kv.Key, n}
	}
	return out, nil
}

// generic is what yaml.v3 decodes a normalized value to.
func generic(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = generic(e)
		}
		return out
	case Map:
		out := make(map[string]any, len(x))
		for _, kv := range x {
			out[kv.Key] = generic(kv.Value)
		}
		return out
	}
	return v
}

// emitter writes values as YAML text (JSON-style in a JSON document or
// a flow collection written so) in one context of a file.
type emitter struct {
	st      *style
	inflow  bool // flow context: no block scalars, flow indicators quoted
	json    bool // strings and keys always double-quoted
	compact bool // no space after ',' and ':'
}

// str writes a string scalar: plain when it reads back as the same string
// (with yaml.v3 and with the YAML 1.1 of yaml.v2), else quoted. keep is the
// style of a scalar being replaced, kept when it can hold s.
func (r emitter) str(s string, key bool, keep yaml.Style) string {
	keep &^= yaml.TaggedStyle | yaml.FlowStyle
	switch {
	case r.json || keep == yaml.DoubleQuotedStyle:
		return doubleQuote(s)
	case keep == yaml.SingleQuotedStyle:
		if singleOK(s) {
			return singleQuote(s)
		}
		return doubleQuote(s)
	case plainOK(s, r.inflow, key):
		return s
	case r.st.single && singleOK(s):
		return singleQuote(s)
	}
	return doubleQuote(s)
}

// scalar writes a non-collection value on one line.
func (r emitter) scalar(v any, keep yaml.Style) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case string:
		return r.str(x, false, keep)
	}
	panic(fmt.Sprintf("yamledit: scalar of type %T", v))
}

// key writes a mapping key.
func (r emitter) key(s string) string { return r.str(s, true, 0) }

// doubleQuote writes s double-quoted, valid as YAML and as JSON: what
// YAML cannot hold raw (C0 and C1 controls, DEL, BOM, line and paragraph
// separators, U+FFFE and U+FFFF) is escaped.
func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || c == 0xfeff || c == 0xfffe || c == 0xffff:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// printable reports whether s has no control or unprintable characters
// (tabs allowed when tab is true).
func printable(s string, tab bool) bool {
	for _, c := range s {
		if c == '\t' && tab {
			continue
		}
		if !unicode.IsPrint(c) && c != ' ' || c == '\ufeff' {
			return false
		}
	}
	return true
}

func singleOK(s string) bool { return printable(s, true) }

// plainOK reports whether s can be written unquoted: both YAML readers in
// use (yaml.v3, and yaml.v2 behind sigs.k8s.io/yaml) must read it back as
// the same string, as a value and as a key, in block or flow context.
func plainOK(s string, flow, key bool) bool {
	if s == "" || strings.TrimSpace(s) != s || !printable(s, false) {
		return false
	}
	doc, want := "- "+s, any([]any{s})
	switch {
	case flow && key:
		doc, want = "{"+s+": x}", map[string]any{s: "x"}
	case flow:
		doc = "[" + s + "]"
	case key:
		doc, want = s+": x", map[string]any{s: "x"}
	}
	var v3 any
	if yaml.Unmarshal([]byte(doc), &v3) != nil || !reflect.DeepEqual(v3, want) {
		return false
	}
	var v2 any
	if yamlv2.Unmarshal([]byte(doc), &v2) != nil {
		return false
	}
	if m, ok := v2.(map[any]any); ok {
		return len(m) == 1 && m[s] == "x"
	}
	l, ok := v2.([]any)
	return ok && len(l) == 1 && l[0] == s
}

// literalOK reports whether s is best written as a literal block scalar:
// several lines, printable, not starting with white space, without lines
// of only spaces and without more than one final line break.
func literalOK(s string) bool {
	if !strings.Contains(strings.TrimSuffix(s, "\n"), "\n") || strings.HasSuffix(s, "\n\n") || !printable(strings.ReplaceAll(s, "\n", ""), true) {
		return false
	}
	if c := s[0]; c == ' ' || c == '\t' || c == '\n' {
		return false
	}
	for _, l := range strings.Split(s, "\n") {
		if l != "" && strings.TrimSpace(l) == "" {
			return false
		}
	}
	return true
}

// literal writes s as a block scalar: its header and content lines at col.
func literal(s string, col int) (string, []string) {
	header := "|-"
	if strings.HasSuffix(s, "\n") {
		header, s = "|", strings.TrimSuffix(s, "\n")
	}
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			l = spaces(col) + l
		}
		lines = append(lines, l)
	}
	return header, lines
}

func spaces(n int) string { return strings.Repeat(" ", n) }

// keyed writes lead (a key and its ':' at column col) followed by v, over
// as many lines as v needs. keep is the style of a scalar being replaced.
func (r emitter) keyed(lead string, col int, v any, keep yaml.Style) []string {
	switch x := v.(type) {
	case Map:
		if len(x) == 0 {
			return []string{lead + " {}"}
		}
		return append([]string{lead}, r.mapLines(x, col+r.st.step)...)
	case []any:
		if len(x) == 0 {
			return []string{lead + " []"}
		}
		return append([]string{lead}, r.seqLines(x, col+r.st.seqIndent)...)
	case string:
		q := keep &^ (yaml.TaggedStyle | yaml.FlowStyle)
		if q != yaml.DoubleQuotedStyle && q != yaml.SingleQuotedStyle && literalOK(x) {
			h, lines := literal(x, col+r.st.step)
			return append([]string{lead + " " + h}, lines...)
		}
	}
	return []string{lead + " " + r.scalar(v, keep)}
}

// dashed writes lead (a sequence item's "- ", content at column len(lead))
// followed by v.
func (r emitter) dashed(lead string, v any) []string {
	c := len(lead)
	var lines []string
	switch x := v.(type) {
	case Map:
		if len(x) > 0 {
			lines = r.mapLines(x, c)
		}
	case []any:
		if len(x) > 0 {
			lines = r.seqLines(x, c)
		}
	case string:
		if literalOK(x) {
			h, body := literal(x, c)
			return append([]string{lead + h}, body...)
		}
	}
	if lines == nil {
		return []string{lead + r.flowValue(v)}
	}
	lines[0] = lead + lines[0][c:]
	return lines
}

// mapLines writes a non-empty mapping in block style with keys at column c.
func (r emitter) mapLines(m Map, c int) []string {
	var lines []string
	for _, kv := range m {
		lines = append(lines, r.keyed(spaces(c)+r.key(kv.Key)+":", c, kv.Value, 0)...)
	}
	return lines
}

// seqLines writes a non-empty sequence in block style with dashes at
// column d.
func (r emitter) seqLines(l []any, d int) []string {
	var lines []string
	for _, v := range l {
		lines = append(lines, r.dashed(spaces(d)+"- ", v)...)
	}
	return lines
}

// flowValue writes v on one line: scalars as scalars, collections in flow
// style.
func (r emitter) flowValue(v any) string {
	switch v.(type) {
	case Map, []any:
		return r.inFlow().flow(v)
	}
	return r.scalar(v, 0)
}

func (r emitter) inFlow() emitter {
	r.inflow = true
	return r
}

// seps are the item and key separators of flow collections.
func (r emitter) seps() (string, string) {
	switch {
	case r.compact && r.json:
		return ",", ":"
	case r.compact:
		return ",", ": " // a plain key needs the space: "a:b" is one scalar
	}
	return ", ", ": "
}

// flow writes v in flow style on one line.
func (r emitter) flow(v any) string {
	comma, colon := r.seps()
	var parts []string
	switch x := v.(type) {
	case Map:
		for _, kv := range x {
			parts = append(parts, r.key(kv.Key)+colon+r.flow(kv.Value))
		}
		return "{" + strings.Join(parts, comma) + "}"
	case []any:
		for _, e := range x {
			parts = append(parts, r.flow(e))
		}
		return "[" + strings.Join(parts, comma) + "]"
	}
	return r.scalar(v, 0)
}

// pretty writes v in flow style over several lines, one entry per line as
// JSON is pretty-printed; the first line has no indentation, the others
// start with indent plus step spaces for entries.
func (r emitter) pretty(v any, indent string, step int) []string {
	inner := indent + spaces(step)
	_, colon := r.seps()
	var open, close string
	var entries [][]string
	switch x := v.(type) {
	case Map:
		open, close = "{", "}"
		for _, kv := range x {
			sub := r.pretty(kv.Value, inner, step)
			sub[0] = inner + r.key(kv.Key) + colon + sub[0]
			entries = append(entries, sub)
		}
	case []any:
		open, close = "[", "]"
		for _, e := range x {
			sub := r.pretty(e, inner, step)
			sub[0] = inner + sub[0]
			entries = append(entries, sub)
		}
	default:
		return []string{r.scalar(v, 0)}
	}
	if len(entries) == 0 {
		return []string{open + close}
	}
	lines := []string{open}
	for i, e := range entries {
		if i < len(entries)-1 {
			e[len(e)-1] += ","
		}
		lines = append(lines, e...)
	}
	return append(lines, indent+close)
}
