// The fast path's scanner: which documents it takes at all, and moving
// over lines, blanks and comments.

package fbcyaml

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"

	"github.com/fbcat/opm/encoding/value"
)

// fastSafe accepts documents made only of printable characters and "\n".
// Tabs, carriage returns, control characters, invalid UTF-8, byte order
// marks and the Unicode line breaks NEL, LS and PS are left to go-yaml.
func fastSafe(d []byte) bool {
	const (
		lows  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for i := 0; i < len(d); {
		// Eight bytes at a time while they are printable ASCII or "\n".
		// For ASCII bytes the lanes cannot carry into each other, so
		// each test is exact: below 0x20 (w+0x60 has no high bit), 0x7F
		// (w+1 has it), "\n" (w^0x0A is zero).
		for i+8 <= len(d) {
			w := binary.LittleEndian.Uint64(d[i:])
			if w&highs != 0 {
				break
			}
			below := ^(w + 0x60*lows) & highs
			del := (w + lows) & highs
			newline := ^((w ^ 0x0a*lows) + 0x7f*lows) & highs
			if below&^newline|del != 0 {
				break
			}
			i += 8
		}
		if i >= len(d) {
			break
		}
		c := d[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n') || c == 0x7F {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(d[i:])
		if r == utf8.RuneError || r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
			return false
		}
		i += size
	}
	return true
}

// at is the byte at i, or 0 past the end of the document.
func (p *fastParser) at(i int) byte {
	if i < len(p.d) {
		return p.d[i]
	}
	return 0
}

// col is the 0-based column of pos.
func (p *fastParser) col() int { return p.pos - p.lineStart }

// mark gives v the position of pos (1-based line and column).
func (p *fastParser) mark(v *value.Value) {
	v.Line, v.Col = p.line, int32(p.col()+1)
}

// isBlankEnd reports whether byte i ends a token: a space, a line break or
// the end of the document.
func (p *fastParser) isBlankEnd(i int) bool {
	c := p.at(i)
	return c == ' ' || c == '\n' || c == 0
}

// newline consumes the "\n" at pos.
func (p *fastParser) newline() {
	if p.at(p.pos) != '\n' {
		panic(bail{})
	}
	p.pos++
	p.line++
	p.lineStart = p.pos
}

// peek skips blank and comment lines from the start of a line and returns
// the indentation of the next line with content, leaving pos at the start
// of that line. ok is false at the end of the document.
func (p *fastParser) peek() (indent int, ok bool) {
	for p.pos < len(p.d) {
		i := p.pos
		for i < len(p.d) && p.d[i] == ' ' {
			i++
		}
		if i >= len(p.d) {
			p.pos = i
			return 0, false
		}
		switch p.d[i] {
		case '\n':
			p.pos = i
			p.newline()
			continue
		case '#':
			p.pos = i
			p.skipComment()
			continue
		}
		if i == p.pos && (bytes.HasPrefix(p.d[i:], []byte("...")) || bytes.HasPrefix(p.d[i:], []byte("---"))) && p.isBlankEnd(i+3) {
			panic(bail{}) // document markers inside a document
		}
		return i - p.pos, true
	}
	return 0, false
}

// skipComment consumes a comment and the line break after it.
func (p *fastParser) skipComment() {
	i := bytes.IndexByte(p.d[p.pos:], '\n')
	if i < 0 {
		p.pos = len(p.d)
		return
	}
	p.pos += i
	p.newline()
}

// skipSpaces moves pos past spaces.
func (p *fastParser) skipSpaces() {
	for p.at(p.pos) == ' ' {
		p.pos++
	}
}

// endLine accepts only spaces and a comment up to the end of the line, and
// consumes the line break.
func (p *fastParser) endLine() {
	start := p.pos
	p.skipSpaces()
	switch p.at(p.pos) {
	case '\n':
		p.newline()
	case 0:
	case '#':
		if p.pos == start {
			panic(bail{})
		}
		p.skipComment()
	default:
		panic(bail{})
	}
}
