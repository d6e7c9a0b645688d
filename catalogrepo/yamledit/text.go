package yamledit

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// text is the original bytes of a file with a table of line starts, so that
// yaml.v3's 1-based line and rune-counted column become byte offsets.
type text struct {
	name  string
	src   []byte
	lines []int // byte offset of the start of each line
	bom   int   // length of a leading UTF-8 byte order mark
}

// newText indexes src. It refuses line breaks other than LF and CRLF: the
// YAML parser counts a lone CR, NEL, LS and PS as line breaks too, and
// positions would no longer match.
func newText(name string, src []byte) (*text, error) {
	t := &text{name: name, src: src, lines: []int{0}}
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		t.bom = 3
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			t.lines = append(t.lines, i+1)
		case c == '\r' && (i+1 == len(src) || src[i+1] != '\n'):
			return nil, fmt.Errorf("%s:%d: a carriage return without a line feed: only LF and CRLF line ends can be edited", name, len(t.lines))
		case c == 0xc2 && i+1 < len(src) && src[i+1] == 0x85,
			c == 0xe2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xa8 || src[i+2] == 0xa9):
			r, _ := utf8.DecodeRune(src[i:])
			return nil, fmt.Errorf("%s:%d: line break character %U: only LF and CRLF line ends can be edited", name, len(t.lines), r)
		}
	}
	return t, nil
}

// eol is the file's line end: CRLF when its first line ends so.
func (t *text) eol() string {
	if i := bytes.IndexByte(t.src, '\n'); i > 0 && t.src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// nlines is the number of lines; a final line break does not start one.
func (t *text) nlines() int {
	if n := len(t.lines); n > 1 && t.lines[n-1] == len(t.src) {
		return n - 1
	}
	return len(t.lines)
}

// offset converts a yaml.v3 position (1-based line, 1-based column counted
// in runes) to a byte offset.
func (t *text) offset(line, col int) int {
	if line < 1 || line > len(t.lines) {
		return len(t.src)
	}
	i := t.lines[line-1]
	if line == 1 {
		i += t.bom
	}
	for ; col > 1 && i < len(t.src) && t.src[i] != '\n'; col-- {
		_, w := utf8.DecodeRune(t.src[i:])
		i += w
	}
	return i
}

// lineOf is the 0-based line holding offset off.
func (t *text) lineOf(off int) int {
	return sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
}

// start is the offset where line l (0-based) starts.
func (t *text) start(l int) int { return t.lines[l] }

// end is the offset of line l's line break (or of the end of the file).
func (t *text) end(l int) int {
	e := len(t.src)
	if l+1 < len(t.lines) {
		e = t.lines[l+1] - 1
	}
	if e > t.lines[l] && t.src[e-1] == '\r' {
		e--
	}
	return e
}

// next is the offset where the line after l starts (or the end of the file).
func (t *text) next(l int) int {
	if l+1 < len(t.lines) {
		return t.lines[l+1]
	}
	return len(t.src)
}

// indent is the number of spaces line l starts with, and whether a tab
// hides in that leading whitespace.
func (t *text) indent(l int) (int, bool) {
	n, tab := 0, false
	for i := t.start(l); i < t.end(l); i++ {
		switch t.src[i] {
		case ' ':
			if !tab {
				n++
			}
		case '\t':
			tab = true
		default:
			return n, tab
		}
	}
	return n, tab
}

// firstChar is line l's first character after its leading whitespace, or
// 0 for a blank line.
func (t *text) firstChar(l int) byte {
	for i := t.start(l); i < t.end(l); i++ {
		if c := t.src[i]; c != ' ' && c != '\t' {
			return c
		}
	}
	return 0
}

// blank reports whether line l holds only whitespace.
func (t *text) blank(l int) bool { return t.firstChar(l) == 0 }

// comment reports whether line l holds only a comment.
func (t *text) comment(l int) bool { return t.firstChar(l) == '#' }

// onlySpaceBefore reports whether nothing but spaces precedes off on its line.
func (t *text) onlySpaceBefore(off int) bool {
	for i := t.start(t.lineOf(off)); i < off; i++ {
		if t.src[i] != ' ' {
			return false
		}
	}
	return true
}

// extend returns the last line of a construct whose content ends on line
// last: comment lines indented deeper than indent that follow (blank lines
// in between allowed) belong to it; blank lines after it do not.
func (t *text) extend(last, indent int) int {
	for l := last + 1; l < t.nlines(); l++ {
		if t.blank(l) {
			continue
		}
		if n, _ := t.indent(l); t.comment(l) && n > indent {
			last = l
			continue
		}
		break
	}
	return last
}

// noTabs refuses an edit of lines from..to (0-based) when one of them is
// indented with tabs: the edit could not follow that indentation safely.
func (t *text) noTabs(from, to int) error {
	for l := from; l <= to && l < t.nlines(); l++ {
		if _, tab := t.indent(l); tab && !t.blank(l) {
			return fmt.Errorf("%s:%d: indented with a tab: cannot edit this safely", t.name, l+1)
		}
	}
	return nil
}

// pos formats a node's position for error messages.
func (t *text) pos(n *yaml.Node) string {
	return fmt.Sprintf("%s:%d:%d", t.name, n.Line, n.Column)
}

// skipSpace returns the offset of the first character at or after i that
// is neither a space nor a line break (a tab counts as space); comments
// are skipped when comments is true.
func (t *text) skipSpace(i int, comments bool) int {
	for i < len(t.src) {
		switch c := t.src[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#' && comments:
			i = t.end(t.lineOf(i))
		default:
			return i
		}
	}
	return i
}

// leading is the whitespace that starts line l.
func (t *text) leading(l int) string {
	i := t.start(l)
	for i < t.end(l) && (t.src[i] == ' ' || t.src[i] == '\t') {
		i++
	}
	return string(t.src[t.start(l):i])
}
