package value

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fbcat/opm/position"
)

// MaxDepth bounds the nesting of arrays and objects, as encoding/json does,
// so that hostile input cannot exhaust the stack.
const MaxDepth = 10000

// JSONParser reads a stream of JSON values (objects may follow each other
// with or without white space in between, as encoding/json.Decoder allows)
// and decodes them with encoding/json's rules: strict RFC 8259 syntax,
// invalid UTF-8 replaced by U+FFFD, numbers as float64.
type JSONParser struct {
	data      []byte
	pos       int
	line      int32
	lineStart int
	depth     int
	buf       []byte
	dups      []Duplicate
	plain     bool // the last string read took the fast path (see Value.Plain)
	// The members and elements of the objects and arrays being read,
	// innermost last: each is copied out into a slice of its exact size
	// once complete, rather than grown an append at a time.
	fields []Field
	items  []Value
}

// NewJSONParser returns a parser over data whose first byte is on line
// firstLine.
func NewJSONParser(data []byte, firstLine int32) *JSONParser {
	return &JSONParser{data: data, line: firstLine}
}

// Offset is the byte offset of the next unread byte.
func (p *JSONParser) Offset() int { return p.pos }

// Line is the current line.
func (p *JSONParser) Line() int32 { return p.line }

// AtEOF skips white space and reports whether the input is exhausted.
func (p *JSONParser) AtEOF() bool {
	p.skipSpace()
	return p.pos >= len(p.data)
}

// Next decodes the next value of the stream.
func (p *JSONParser) Next() (Value, error) {
	p.skipSpace()
	p.dups = nil
	return p.value()
}

// Cursor is where the parser is, for reading what follows without it
// (see Cursor); Resume continues from where that stopped.
func (p *JSONParser) Cursor() Cursor {
	return Cursor{Data: p.data, Pos: p.pos, Line: p.line, LineStart: p.lineStart}
}

// Resume moves the parser to c, a Cursor over the same data that started
// at the parser's Cursor, as if it had read what c read.
func (p *JSONParser) Resume(c Cursor) {
	p.pos, p.line, p.lineStart = c.Pos, c.Line, c.LineStart
	p.dups = nil
}

// Duplicates are the keys that the object Next last returned holds more
// than once (at its top level; nested objects are not looked at), each at
// the position of its value.
func (p *JSONParser) Duplicates() []Duplicate { return p.dups }

// LooksLikeJSON reports whether the first non-space byte within the first
// window bytes of data is '{': how upstream's YAML-or-JSON decoder picks
// JSON over YAML.
func LooksLikeJSON(data []byte, window int) bool {
	head := bytes.TrimLeftFunc(data[:min(len(data), window)], unicode.IsSpace)
	return len(head) > 0 && head[0] == '{'
}

// ParseJSON decodes data, which must hold exactly one JSON value.
func ParseJSON(data []byte) (Value, error) {
	p := NewJSONParser(data, 1)
	v, err := p.Next()
	if err != nil {
		return Value{}, err
	}
	if !p.AtEOF() {
		return Value{}, p.errorf("invalid character %s after top-level value", quoteChar(p.data[p.pos]))
	}
	return v, nil
}

// errorf is malformed input where the parser is: a *position.Error
// without a file (its column in bytes), which the caller places.
func (p *JSONParser) errorf(format string, args ...any) *position.Error {
	return &position.Error{Line: int(p.line), Column: p.pos - p.lineStart + 1, Message: fmt.Sprintf(format, args...)}
}

func (p *JSONParser) eofError(what string) *position.Error {
	return p.errorf("unexpected end of input in %s", what)
}

func (p *JSONParser) skipSpace() {
	p.pos, p.line, p.lineStart = skipSpace(p.data, p.pos, p.line, p.lineStart)
}

// skipSpace returns where the white space at pos in d ends, with the line
// there and where that line starts, given those at pos.
func skipSpace(d []byte, pos int, line int32, lineStart int) (int, int32, int) {
	for pos < len(d) {
		switch d[pos] {
		case ' ':
			// Indentation comes in runs: eight spaces at a time.
			pos++
			for pos+8 <= len(d) && binary.LittleEndian.Uint64(d[pos:]) == spaces8 {
				pos += 8
			}
		case '\t', '\r':
			pos++
		case '\n':
			pos++
			line++
			lineStart = pos
		default:
			return pos, line, lineStart
		}
	}
	return pos, line, lineStart
}

func quoteChar(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c < 0x20 || c >= 0x7f:
		return fmt.Sprintf("byte 0x%02x", c)
	}
	return "'" + string(c) + "'"
}

func (p *JSONParser) value() (Value, error) {
	if p.pos >= len(p.data) {
		return Value{}, p.eofError("value")
	}
	line, col := p.line, int32(p.pos-p.lineStart)+1
	var v Value
	var err error
	switch c := p.data[p.pos]; {
	case c == '{':
		v, err = p.object()
	case c == '[':
		v, err = p.array()
	case c == '"':
		var s string
		s, err = p.str()
		v = Value{Kind: String, Str: s, Plain: p.plain}
	case c == '-' || (c >= '0' && c <= '9'):
		v, err = p.number()
	case c == 't':
		err = p.literal("true")
		v = Value{Kind: Bool, Bool: true}
	case c == 'f':
		err = p.literal("false")
		v = Value{Kind: Bool}
	case c == 'n':
		err = p.literal("null")
		v = Value{Kind: Null}
	default:
		return Value{}, p.errorf("invalid character %s looking for beginning of value", quoteChar(c))
	}
	v.Line, v.Col = line, col
	return v, err
}

func (p *JSONParser) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.data) {
			return p.eofError("literal " + word)
		}
		if p.data[p.pos] != word[i] {
			return p.errorf("invalid character %s in literal %s (expecting '%c')", quoteChar(p.data[p.pos]), word, word[i])
		}
		p.pos++
	}
	return nil
}

func (p *JSONParser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.errorf("exceeded max depth of %d nested arrays and objects", MaxDepth)
	}
	return nil
}

func (p *JSONParser) object() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	base := len(p.fields)
	defer func() {
		p.depth--
		p.fields = pop(p.fields, base)
	}()
	p.pos++ // '{'
	v := Value{Kind: Object, Fields: []Field{}}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.eofError("object")
		}
		if p.data[p.pos] != '"' {
			return Value{}, p.errorf("invalid character %s looking for beginning of object key string", quoteChar(p.data[p.pos]))
		}
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.eofError("object")
		}
		if p.data[p.pos] != ':' {
			return Value{}, p.errorf("invalid character %s after object key", quoteChar(p.data[p.pos]))
		}
		p.pos++
		p.skipSpace()
		elem, err := p.value()
		if err != nil {
			return Value{}, err
		}
		p.fields = append(p.fields, Field{Key: key, Value: elem})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.eofError("object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			v.Fields = slices.Clone(p.fields[base:])
			if p.depth == 1 {
				p.dups = FindDuplicates(v.Fields, func(i int) (int32, int32) { return v.Fields[i].Value.Line, v.Fields[i].Value.Col })
			}
			v.Fields = NormalizeFields(v.Fields)
			return v, nil
		default:
			return Value{}, p.errorf("invalid character %s after object key:value pair", quoteChar(p.data[p.pos]))
		}
	}
}

func (p *JSONParser) array() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	base := len(p.items)
	defer func() {
		p.depth--
		p.items = pop(p.items, base)
	}()
	p.pos++ // '['
	v := Value{Kind: Array, Items: []Value{}}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		elem, err := p.value()
		if err != nil {
			return Value{}, err
		}
		p.items = append(p.items, elem)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.eofError("array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			v.Items = slices.Clone(p.items[base:])
			return v, nil
		default:
			return Value{}, p.errorf("invalid character %s after array element", quoteChar(p.data[p.pos]))
		}
	}
}

// pop drops the elements of stack from base on, cleared so that the
// stack does not keep what they point to alive.
func pop[T any](stack []T, base int) []T {
	clear(stack[base:])
	return stack[:base]
}

func (p *JSONParser) number() (Value, error) {
	start := p.pos
	d := p.data
	i := p.pos
	if d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		p.pos = i
		return Value{}, p.eofError("numeric literal")
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		p.pos = i
		return Value{}, p.errorf("invalid character %s in numeric literal", quoteChar(d[i]))
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			p.pos = i
			if i >= len(d) {
				return Value{}, p.eofError("numeric literal")
			}
			return Value{}, p.errorf("invalid character %s after decimal point in numeric literal", quoteChar(d[i]))
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			p.pos = i
			if i >= len(d) {
				return Value{}, p.eofError("numeric literal")
			}
			return Value{}, p.errorf("invalid character %s in exponent of numeric literal", quoteChar(d[i]))
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	p.pos = i
	text := string(d[start:i])
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		p.pos = start
		return Value{}, p.errorf("number %s is out of range for a 64-bit float", text)
	}
	return Value{Kind: Number, Num: f, Str: text}, nil
}

// plainStringByte marks bytes that end the fast path of string scanning.
var plainStringByte = func() (t [256]bool) {
	for i := 0x20; i < 0x80; i++ {
		t[i] = true
	}
	t['"'] = false
	t['\\'] = false
	return
}()

// str decodes the string literal at pos. A string of printable ASCII
// without escapes, most of a catalog's, is copied out at once; anything
// else goes through strSlow.
func (p *JSONParser) str() (string, error) {
	d := p.data
	p.pos++ // opening quote
	start := p.pos
	i := skipPlain(d, start)
	for i < len(d) && plainStringByte[d[i]] {
		i++
	}
	if i < len(d) && d[i] == '"' {
		p.pos = i + 1
		p.plain = true
		return string(d[start:i]), nil
	}
	p.plain = false
	return p.strSlow(start, i)
}

// strSlow decodes the rest of a string literal that starts at start,
// from i, where the plain prefix ends: escapes, control characters or
// non-ASCII bytes.
func (p *JSONParser) strSlow(start, i int) (string, error) {
	b, err := p.appendStr(p.buf[:0], start, i)
	if err != nil {
		return "", err
	}
	p.buf = b
	return string(b), nil
}

// appendStr appends to b the string literal that starts at start, whose
// bytes up to i are plain, and moves pos past its closing quote.
func (p *JSONParser) appendStr(b []byte, start, i int) ([]byte, error) {
	d := p.data
	b = append(b, d[start:i]...)
	for {
		if i >= len(d) {
			p.pos = i
			return b, p.eofError("string literal")
		}
		c := d[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return b, nil
		case c == '\\':
			if i+1 >= len(d) {
				p.pos = i + 1
				return b, p.eofError("string escape code")
			}
			if r := shortEscape[d[i+1]]; r != 0 {
				b = append(b, r)
				i += 2
				continue
			}
			var err error
			if b, i, err = p.unicodeEscape(b, i); err != nil {
				return b, err
			}
		case c < 0x20:
			p.pos = i
			return b, p.errorf("invalid control character %s in string literal (write it as an escape such as \\n or \\t)", quoteChar(c))
		case c < utf8.RuneSelf:
			// A run of plain bytes is appended at once.
			j := skipPlain(d, i+1)
			for j < len(d) && plainStringByte[d[j]] {
				j++
			}
			b = append(b, d[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, unicode.ReplacementChar)
			} else {
				b = append(b, d[i:i+size]...)
			}
			i += size
		}
	}
}

// shortEscape maps the letter of each two-character escape sequence
// (\n, \", \/, ...) to the byte it stands for.
var shortEscape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unicodeEscape appends to b the character of the \uXXXX escape at d[i],
// and returns the index after it; any other escape letter is an error. An
// escape of half a surrogate pair takes the other half with it; a lone
// half becomes U+FFFD, as in encoding/json.
func (p *JSONParser) unicodeEscape(b []byte, i int) ([]byte, int, error) {
	d := p.data
	if e := d[i+1]; e != 'u' {
		p.pos = i + 1
		return b, i, p.errorf("invalid character %s in string escape code", quoteChar(e))
	}
	r, ok := hex4(d, i+2)
	if !ok {
		p.pos = i + 2
		return b, i, p.errorf("invalid \\u escape in string literal (need 4 hex digits)")
	}
	i += 6
	if utf16.IsSurrogate(r) {
		if r2, ok := hex4(d, i+2); ok && i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
			if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
				return utf8.AppendRune(b, dec), i + 6, nil
			}
		}
		r = unicode.ReplacementChar
	}
	return utf8.AppendRune(b, r), i, nil
}

// hex4 reads the four hex digits at d[i] as a UTF-16 code unit.
func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}
