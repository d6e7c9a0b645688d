package fbcyaml

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fbcat/opm/internal/value"
)

// The layout go-yaml v2 uses by default.
const (
	bestIndent = 2
	bestWidth  = 80
)

type scalarStyle uint8

const (
	stylePlain scalarStyle = iota
	styleSingle
	styleDouble
	styleLiteral
)

// emitter keeps the state go-yaml v2's emitter tracks while it writes a
// document: the current column (in characters), the indentation and whether
// the last thing written was white space or indentation.
type emitter struct {
	out        []byte
	column     int
	indent     int
	flowLevel  int
	whitespace bool
	indention  bool
}

// nodeContext says where a node sits, which decides its layout.
type nodeContext struct {
	sequence  bool
	mapping   bool
	simpleKey bool
}

// AppendDocument appends v as one YAML document, byte-identical to what
// sigs.k8s.io/yaml.JSONToYAML produces for v's JSON encoding. The document
// ends with a newline and carries no "---" marker.
func AppendDocument(dst []byte, v *value.Value) []byte {
	e := emitter{out: dst, indent: -1, whitespace: true, indention: true}
	e.node(v, nodeContext{})
	e.writeIndent() // document end
	return e.out
}

func (e *emitter) put(b byte) {
	e.out = append(e.out, b)
	e.column++
}

func (e *emitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
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

func (e *emitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace = true
	e.indention = true
}

func (e *emitter) writeIndicator(ind string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	for i := 0; i < len(ind); {
		i += e.writeChar(ind, i)
	}
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

func (e *emitter) increaseIndent(flow, indentless bool) int {
	saved := e.indent
	if e.indent < 0 {
		if flow {
			e.indent = bestIndent
		} else {
			e.indent = 0
		}
	} else if !indentless {
		e.indent += bestIndent
	}
	return saved
}

func (e *emitter) node(v *value.Value, ctx nodeContext) {
	switch v.Kind {
	case value.Object:
		if len(v.Fields) == 0 || e.flowLevel > 0 {
			e.emptyCollection("{", "}")
			return
		}
		saved := e.increaseIndent(false, false)
		for _, i := range keyOrder(v.Fields) {
			f := &v.Fields[i]
			e.writeIndent()
			key := scalarFor(&value.Value{Kind: value.String, Str: f.Key})
			if !key.multiline && len(key.text) <= 128 {
				e.scalar(key, nodeContext{mapping: true, simpleKey: true})
				e.writeIndicator(":", false, false, false)
			} else {
				e.writeIndicator("?", true, false, true)
				e.scalar(key, nodeContext{mapping: true})
				e.writeIndent()
				e.writeIndicator(":", true, false, true)
			}
			e.node(&f.Value, nodeContext{mapping: true})
		}
		e.indent = saved
	case value.Array:
		if len(v.Items) == 0 || e.flowLevel > 0 {
			e.emptyCollection("[", "]")
			return
		}
		saved := e.increaseIndent(false, ctx.mapping && !e.indention)
		for i := range v.Items {
			e.writeIndent()
			e.writeIndicator("-", true, false, true)
			e.node(&v.Items[i], nodeContext{sequence: true})
		}
		e.indent = saved
	default:
		e.scalar(scalarFor(v), ctx)
	}
}

func (e *emitter) emptyCollection(open, close string) {
	e.writeIndicator(open, true, true, false)
	saved := e.increaseIndent(true, false)
	e.flowLevel++
	e.flowLevel--
	e.indent = saved
	e.writeIndicator(close, false, false, false)
}

// scalarData is a scalar ready to write: its text, the style go-yaml's
// marshaller asks for, and the emitter's analysis of the text.
type scalarData struct {
	text       string
	style      scalarStyle
	multiline  bool
	flowPlain  bool
	blockPlain bool
	single     bool
	block      bool
}

// scalarFor turns a leaf of the tree into the scalar go-yaml v2 writes for
// it after reading the node's JSON encoding back as YAML.
func scalarFor(v *value.Value) scalarData {
	var text string
	style := stylePlain
	switch v.Kind {
	case value.Null:
		text = "null"
	case value.Bool:
		text = strconv.FormatBool(v.Bool)
	case value.Number:
		text = numberText(v)
	case value.String:
		text = foldNEL(value.ValidUTF8(v.Str))
		switch {
		case strings.IndexByte(text, '\n') >= 0:
			style = styleLiteral
		case needsQuotes(text):
			style = styleDouble
		}
	}
	d := analyze(text)
	d.style = style
	return d
}

// numberText is how a JSON number, read by go-yaml v2, is written out
// again: integers as integers, the rest with strconv's shortest 'g' format.
// The literal is the one the number was parsed from, or else encoding/json's
// rendering of the float64.
func numberText(v *value.Value) string {
	js := v.Str
	if js == "" {
		js = string(value.AppendNumber(nil, v.Num))
	}
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

func (e *emitter) scalar(d scalarData, ctx nodeContext) {
	style := d.style
	if ctx.simpleKey && d.multiline {
		style = styleDouble
	}
	if style == stylePlain {
		if e.flowLevel > 0 && !d.flowPlain || e.flowLevel == 0 && !d.blockPlain {
			style = styleSingle
		}
		if len(d.text) == 0 && (e.flowLevel > 0 || ctx.simpleKey) {
			style = styleSingle
		}
	}
	if style == styleSingle && !d.single {
		style = styleDouble
	}
	if style == styleLiteral && (!d.block || e.flowLevel > 0 || ctx.simpleKey) {
		style = styleDouble
	}
	saved := e.increaseIndent(true, false)
	allowBreaks := !ctx.simpleKey
	switch style {
	case stylePlain:
		e.writePlain(d.text, allowBreaks)
	case styleSingle:
		e.writeSingle(d.text, allowBreaks)
	case styleDouble:
		e.writeDouble(d.text, allowBreaks)
	case styleLiteral:
		e.writeLiteral(d.text)
	}
	e.indent = saved
}

func charWidth(b byte) int {
	switch {
	case b&0x80 == 0x00:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	case b&0xF8 == 0xF0:
		return 4
	}
	return 1
}

// at returns s[i], or 0 past the end (libyaml reads a terminating NUL).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isBreak(s string, i int) bool {
	c := at(s, i)
	return c == '\r' || c == '\n' ||
		c == 0xC2 && at(s, i+1) == 0x85 ||
		c == 0xE2 && at(s, i+1) == 0x80 && (at(s, i+2) == 0xA8 || at(s, i+2) == 0xA9)
}

func isBlank(s string, i int) bool { c := at(s, i); return c == ' ' || c == '\t' }

func isBlankOrEnd(s string, i int) bool { return isBlank(s, i) || isBreak(s, i) || at(s, i) == 0 }

func isPrintable(s string, i int) bool {
	c, c1, c2 := at(s, i), at(s, i+1), at(s, i+2)
	return c == 0x0A ||
		c >= 0x20 && c <= 0x7E ||
		c == 0xC2 && c1 >= 0xA0 ||
		c > 0xC2 && c < 0xED ||
		c == 0xED && c1 < 0xA0 ||
		c == 0xEE ||
		c == 0xEF && !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF))
}

// analyze decides which styles can carry text, as go-yaml's emitter does.
func analyze(text string) scalarData {
	d := scalarData{text: text}
	if len(text) == 0 {
		d.blockPlain = true
		d.single = true
		return d
	}
	var blockIndicators, flowIndicators, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	var previousSpace, previousBreak bool
	if strings.HasPrefix(text, "---") || strings.HasPrefix(text, "...") {
		blockIndicators, flowIndicators = true, true
	}
	precededByWhitespace := true
	for i, w := 0, 0; i < len(text); i += w {
		w = charWidth(text[i])
		followedByWhitespace := i+w >= len(text) || isBlank(text, i+w)
		c := text[i]
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				flowIndicators, blockIndicators = true, true
			case '?', ':':
				flowIndicators = true
				if followedByWhitespace {
					blockIndicators = true
				}
			case '-':
				if followedByWhitespace {
					flowIndicators, blockIndicators = true, true
				}
			}
		} else {
			switch c {
			case ',', '?', '[', ']', '{', '}':
				flowIndicators = true
			case ':':
				flowIndicators = true
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					flowIndicators, blockIndicators = true, true
				}
			}
		}
		if !isPrintable(text, i) {
			special = true
		}
		switch {
		case c == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i+w == len(text) {
				trailingSpace = true
			}
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		case isBreak(text, i):
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == len(text) {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = isBlankOrEnd(text, i)
	}
	d.multiline = lineBreaks
	d.flowPlain, d.blockPlain, d.single, d.block = true, true, true, true
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		d.flowPlain, d.blockPlain = false, false
	}
	if trailingSpace {
		d.block = false
	}
	if breakSpace {
		d.flowPlain, d.blockPlain, d.single = false, false, false
	}
	if spaceBreak || special {
		d.flowPlain, d.blockPlain, d.single, d.block = false, false, false, false
	}
	if lineBreaks {
		d.flowPlain, d.blockPlain = false, false
	}
	if flowIndicators {
		d.flowPlain = false
	}
	if blockIndicators {
		d.blockPlain = false
	}
	return d
}

func (e *emitter) writePlain(s string, allowBreaks bool) {
	if !e.whitespace {
		e.put(' ')
	}
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && at(s, i+1) != ' ' {
				e.writeIndent()
				i++
			} else {
				i += e.writeChar(s, i)
			}
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
			i += e.writeChar(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeSingle(s string, allowBreaks bool) {
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 && at(s, i+1) != ' ' {
				e.writeIndent()
				i++
			} else {
				i += e.writeChar(s, i)
			}
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
			}
			i += e.writeChar(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeDouble(s string, allowBreaks bool) {
	e.writeIndicator("\"", true, false, false)
	spaces := false
	bom := strings.HasPrefix(s, "\xEF\xBB\xBF")
	for i := 0; i < len(s); {
		c := s[i]
		if !isPrintable(s, i) || bom || isBreak(s, i) || c == '"' || c == '\\' {
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w
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
			spaces = false
		} else if c == ' ' {
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 {
				e.writeIndent()
				if at(s, i+1) == ' ' {
					e.put('\\')
				}
				i++
			} else {
				i += e.writeChar(s, i)
			}
			spaces = true
		} else {
			i += e.writeChar(s, i)
			spaces = false
		}
	}
	e.writeIndicator("\"", false, false, false)
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeLiteral(s string) {
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
			i += e.writeChar(s, i)
			e.indention = false
			breaks = false
		}
	}
}

// keyOrder returns the indexes of fields in go-yaml v2's key order.
func keyOrder(fields []value.Field) []int {
	order := make([]int, len(fields))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case keyLess(fields[a].Key, fields[b].Key):
			return -1
		case keyLess(fields[b].Key, fields[a].Key):
			return 1
		}
		return 0
	})
	return order
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
