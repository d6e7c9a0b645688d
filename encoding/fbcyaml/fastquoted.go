// Single- and double-quoted scalars of the fast path, with go-yaml's
// folding and escapes.

package fbcyaml

import "unicode/utf8"

// singleQuotedLine and doubleQuotedLine parse a quoted scalar that must end
// on the line it starts on, as keys do.
func (p *fastParser) singleQuotedLine() string {
	line := p.line
	s := p.singleQuoted(-1)
	if p.line != line {
		panic(bail{})
	}
	return s
}

// doubleQuotedLine: see singleQuotedLine.
func (p *fastParser) doubleQuotedLine() string {
	line := p.line
	s := p.doubleQuoted(-1)
	if p.line != line {
		panic(bail{})
	}
	return s
}

// quoted scans a quoted scalar with go-yaml's folding rules: line breaks
// and the blanks around them fold into one space, or into n-1 line breaks
// for n breaks; an escaped line break in a double-quoted scalar joins the
// lines. Continuation lines must be indented deeper than parent.
func (p *fastParser) quoted(parent int, single bool) string {
	p.pos++ // opening quote
	s, whitespace := p.text[:0], []byte(nil)
	for {
		leadingBlanks := false
	chars:
		for {
			c := p.at(p.pos)
			switch {
			case c == ' ' || c == '\n':
				break chars
			case c == 0:
				panic(bail{}) // unterminated
			case single && c == '\'':
				if p.at(p.pos+1) == '\'' {
					s = append(s, '\'')
					p.pos += 2
					continue
				}
				p.pos++
				return p.builtText(s)
			case !single && c == '"':
				p.pos++
				return p.builtText(s)
			case !single && c == '\\':
				if p.at(p.pos+1) == '\n' {
					p.pos++
					p.newline()
					p.checkContinuation(parent)
					leadingBlanks = true
					break chars
				}
				s = p.escape(s)
			default:
				size := 1
				if c >= utf8.RuneSelf {
					_, size = utf8.DecodeRune(p.d[p.pos:])
				}
				s = append(s, p.d[p.pos:p.pos+size]...)
				p.pos += size
			}
		}
		breaks := 0
		firstBreak := false
		for {
			c := p.at(p.pos)
			if c == ' ' {
				if !leadingBlanks {
					whitespace = append(whitespace, ' ')
				}
				p.pos++
				continue
			}
			if c != '\n' {
				break
			}
			if !leadingBlanks {
				whitespace = whitespace[:0]
				firstBreak = true
				leadingBlanks = true
			} else {
				breaks++
			}
			p.newline()
			p.checkContinuation(parent)
		}
		if leadingBlanks {
			if firstBreak && breaks == 0 {
				s = append(s, ' ')
			} else {
				for ; breaks > 0; breaks-- {
					s = append(s, '\n')
				}
			}
		} else {
			s = append(s, whitespace...)
			whitespace = whitespace[:0]
		}
	}
}

// singleQuoted and doubleQuoted parse a quoted scalar whose continuation
// lines are indented deeper than parent.
func (p *fastParser) singleQuoted(parent int) string { return p.quoted(parent, true) }
func (p *fastParser) doubleQuoted(parent int) string { return p.quoted(parent, false) }

// checkContinuation refuses quoted-scalar lines that are not indented
// deeper than the enclosing collection (go-yaml may read them differently
// or reject them).
func (p *fastParser) checkContinuation(parent int) {
	i := p.pos
	for p.at(i) == ' ' {
		i++
	}
	if p.at(i) != '\n' && i-p.pos <= parent {
		panic(bail{})
	}
	if p.at(i) == 0 {
		panic(bail{})
	}
}

// escape decodes the escape sequence at pos in a double-quoted scalar.
func (p *fastParser) escape(s []byte) []byte {
	e := p.at(p.pos + 1)
	p.pos += 2
	switch e {
	case '0':
		return append(s, 0)
	case 'a':
		return append(s, '\a')
	case 'b':
		return append(s, '\b')
	case 't', '\t':
		return append(s, '\t')
	case 'n':
		return append(s, '\n')
	case 'v':
		return append(s, '\v')
	case 'f':
		return append(s, '\f')
	case 'r':
		return append(s, '\r')
	case 'e':
		return append(s, 0x1B)
	case ' ':
		return append(s, ' ')
	case '"':
		return append(s, '"')
	case '\'':
		return append(s, '\'')
	case '\\':
		return append(s, '\\')
	case 'N':
		return utf8.AppendRune(s, 0x85)
	case '_':
		return utf8.AppendRune(s, 0xA0)
	case 'L':
		return utf8.AppendRune(s, 0x2028)
	case 'P':
		return utf8.AppendRune(s, 0x2029)
	}
	n := 0
	switch e {
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		panic(bail{})
	}
	var r uint32
	for k := 0; k < n; k++ {
		c := p.at(p.pos + k)
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			panic(bail{})
		}
		r = r<<4 | uint32(d)
	}
	p.pos += n
	if (r >= 0xD800 && r <= 0xDFFF) || r > 0x10FFFF {
		panic(bail{})
	}
	return utf8.AppendRune(s, rune(r))
}
