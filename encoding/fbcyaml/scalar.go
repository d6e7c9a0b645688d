package fbcyaml

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fbcat/opm/encoding/value"
)

type scalarStyle uint8

const (
	stylePlain scalarStyle = iota
	styleSingle
	styleDouble
	styleLiteral
)

// stringScalar is the scalar go-yaml v2 writes for a JSON string it read
// back as YAML.
func stringScalar(s string) scalarData {
	text := foldNEL(value.ValidUTF8(s))
	d := analyze(text)
	switch {
	case strings.IndexByte(text, '\n') >= 0:
		d.style = styleLiteral
	case needsQuotes(text):
		d.style = styleDouble
	}
	return d
}

// plainScalar is a number, boolean or null, which go-yaml writes plain.
func plainScalar(text string) scalarData { return analyze(text) }

// numberText is how a JSON number, read by go-yaml v2, is written out
// again: integers as integers, the rest with strconv's shortest 'g' format.
func numberText(js string) string {
	r := resolvePlain(js)
	switch r.kind {
	case kindInt:
		return strconv.FormatInt(r.i, 10)
	case kindUint:
		return strconv.FormatUint(r.u, 10)
	case kindFloat:
		switch {
		case math.IsInf(r.f, 1):
			return ".inf"
		case math.IsInf(r.f, -1):
			return "-.inf"
		case math.IsNaN(r.f):
			return ".nan"
		}
		return strconv.FormatFloat(r.f, 'g', -1, 64)
	}
	return js
}

// scalar writes d in the style go-yaml's emitter picks for it here.
func (e *emitter) scalar(d scalarData, ctx nodeContext) {
	style := d.style
	if ctx.simpleKey && d.multiline {
		style = styleDouble
	}
	if style == stylePlain {
		if !d.blockPlain || len(d.text) == 0 && ctx.simpleKey {
			style = styleSingle
		}
	}
	if style == styleSingle && !d.single {
		style = styleDouble
	}
	if style == styleLiteral && (!d.block || ctx.simpleKey) {
		style = styleDouble
	}
	saved := e.increaseIndent(true, false)
	allowBreaks := !ctx.simpleKey
	switch style {
	case stylePlain:
		e.writePlain(d, allowBreaks)
	case styleSingle:
		e.writeSingle(d, allowBreaks)
	case styleDouble:
		e.writeDouble(d.text, allowBreaks)
	case styleLiteral:
		e.writeLiteral(d)
	}
	e.indent = saved
}

// Bytes that end a run the writers copy in one piece: white space, and
// the bytes that may start a line break (NEL, LS, PS) or need quoting.
var (
	plainWriteStop   = stopSet(" \r\n\xC2\xE2")
	singleWriteStop  = stopSet(" \r\n\xC2\xE2'")
	literalWriteStop = stopSet("\r\n\xC2\xE2")
)

func stopSet(bytes string) (t [256]bool) {
	for i := 0; i < len(bytes); i++ {
		t[bytes[i]] = true
	}
	return
}

// runEnd returns the end of the run that starts with the character at
// s[i] and goes on up to a stop byte.
func runEnd(s string, i int, stop *[256]bool) int {
	i += charWidth(s[i])
	// No stop set holds a printable ASCII byte other than ' ' and '\''.
	for ; i+8 <= len(s); i += 8 {
		if x := value.Word(s, i); !value.Printable(x, '!') || value.HasByte(x, '\'') {
			break
		}
	}
	for ; i < len(s) && !stop[s[i]]; i++ {
	}
	return i
}

// writeRun copies characters that need no attention.
func (e *emitter) writeRun(s string, ascii bool) {
	e.out = append(e.out, s...)
	if ascii {
		e.column += len(s)
	} else {
		e.column += utf8.RuneCountInString(s)
	}
}

// writeChar copies the character starting at s[i] and returns its width.
func (e *emitter) writeChar(s string, i int) int {
	w := charWidth(s[i])
	e.out = append(e.out, s[i:i+w]...)
	e.column++
	return w
}

func (e *emitter) writeBreak(s string, i int) int {
	if s[i] == '\n' {
		e.putBreak()
		return 1
	}
	w := e.writeChar(s, i)
	e.column = 0
	return w
}

func (e *emitter) writePlain(d scalarData, allowBreaks bool) {
	s := d.text
	if !e.whitespace {
		e.put(' ')
	}
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && at(s, i+1) != ' ' {
				e.writeIndent()
			} else {
				e.put(' ')
			}
			i++
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i += e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			j := runEnd(s, i, &plainWriteStop)
			e.writeRun(s[i:j], d.ascii)
			i = j
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeSingle(d scalarData, allowBreaks bool) {
	s := d.text
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 && at(s, i+1) != ' ' {
				e.writeIndent()
			} else {
				e.put(' ')
			}
			i++
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i += e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if s[i] == '\'' {
				e.put('\'')
				e.put('\'')
				i++
			} else {
				j := runEnd(s, i, &singleWriteStop)
				e.writeRun(s[i:j], d.ascii)
				i = j
			}
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

// doubleRun marks the ASCII bytes a double-quoted scalar holds as they
// are: printable, not a quote, a backslash or a space.
var doubleRun = func() (t [256]bool) {
	for c := 0x21; c <= 0x7E; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = false, false
	return
}()

func (e *emitter) writeDouble(s string, allowBreaks bool) {
	e.writeIndicator("\"", true, false, false)
	spaces := false
	bom := strings.HasPrefix(s, "\xEF\xBB\xBF")
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case doubleRun[c] && !bom:
			j := i + 1
			for j < len(s) && doubleRun[s[j]] {
				j++
			}
			e.writeRun(s[i:j], true)
			i = j
			spaces = false
		case !isPrintable(s, i) || bom || isBreak(s, i) || c == '"' || c == '\\':
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w
			e.writeEscape(r)
			spaces = false
		case c == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 {
				e.writeIndent()
				if at(s, i+1) == ' ' {
					e.put('\\')
				}
				i++
			} else {
				e.put(' ')
				i++
			}
			spaces = true
		default:
			i += e.writeChar(s, i)
			spaces = false
		}
	}
	e.writeIndicator("\"", false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeEscape writes r escaped, as go-yaml does in double quotes.
func (e *emitter) writeEscape(r rune) {
	e.put('\\')
	switch r {
	case 0x00:
		e.put('0')
	case 0x07:
		e.put('a')
	case 0x08:
		e.put('b')
	case 0x09:
		e.put('t')
	case 0x0A:
		e.put('n')
	case 0x0B:
		e.put('v')
	case 0x0C:
		e.put('f')
	case 0x0D:
		e.put('r')
	case 0x1B:
		e.put('e')
	case 0x22:
		e.put('"')
	case 0x5C:
		e.put('\\')
	case 0x85:
		e.put('N')
	case 0xA0:
		e.put('_')
	case 0x2028:
		e.put('L')
	case 0x2029:
		e.put('P')
	default:
		digits := 8
		switch {
		case r <= 0xFF:
			e.put('x')
			digits = 2
		case r <= 0xFFFF:
			e.put('u')
			digits = 4
		default:
			e.put('U')
		}
		for k := (digits - 1) * 4; k >= 0; k -= 4 {
			e.put("0123456789ABCDEF"[(r>>uint(k))&0x0F])
		}
	}
}

func (e *emitter) writeLiteral(d scalarData) {
	s := d.text
	e.writeIndicator("|", true, false, false)
	// Block scalar hints: an explicit indentation when the text starts with
	// white space, and the chomping indicator for its trailing breaks.
	if at(s, 0) == ' ' || isBreak(s, 0) {
		e.writeIndicator(string(rune('0'+bestIndent)), false, false, false)
	}
	last := len(s) - 1
	for last > 0 && s[last]&0xC0 == 0x80 {
		last--
	}
	switch {
	case !isBreak(s, last):
		e.writeIndicator("-", false, false, false)
	case last == 0:
		e.writeIndicator("+", false, false, false)
	default:
		prev := last - 1
		for prev > 0 && s[prev]&0xC0 == 0x80 {
			prev--
		}
		if isBreak(s, prev) {
			e.writeIndicator("+", false, false, false)
		}
	}
	e.putBreak()
	e.indention = true
	e.whitespace = true
	breaks := true
	for i := 0; i < len(s); {
		if isBreak(s, i) {
			i += e.writeBreak(s, i)
			e.indention = true
			breaks = true
		} else {
			if breaks {
				e.writeIndent()
			}
			j := runEnd(s, i, &literalWriteStop)
			e.writeRun(s[i:j], d.ascii)
			i = j
			e.indention = false
			breaks = false
		}
	}
}

// foldNEL reproduces what happens to a raw U+0085 (NEXT LINE) when upstream
// reads its own JSON back as YAML: the character is a line break inside a
// double-quoted scalar, so it and the spaces around it fold into one space
// (or into n-1 newlines for a run of n breaks).
func foldNEL(s string) string {
	if !strings.Contains(s, "\u0085") {
		return s
	}
	isNEL := func(i int) bool { return s[i] == 0xC2 && i+1 < len(s) && s[i+1] == 0x85 }
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != ' ' && !isNEL(i) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j, breaks := i, 0
		for j < len(s) && (s[j] == ' ' || isNEL(j)) {
			if s[j] == ' ' {
				j++
			} else {
				breaks++
				j += 2
			}
		}
		switch breaks {
		case 0:
			b.WriteString(s[i:j])
		case 1:
			b.WriteByte(' ')
		default:
			b.WriteString(strings.Repeat("\n", breaks-1))
		}
		i = j
	}
	return b.String()
}
