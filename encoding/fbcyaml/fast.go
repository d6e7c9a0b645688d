package fbcyaml

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/fbcat/opm/encoding/value"
)

// The fast path reads the YAML that catalogs are made of (what go-yaml
// writes, and what people write by hand): block mappings and sequences
// indented with spaces, plain, single- and double-quoted scalars (also over
// several lines), literal block scalars, comments, and flow collections
// that fit on one line. Anything else (anchors, tags, flow collections over
// several lines, folded scalars, tabs, merge keys, ...) makes it give up, and the
// document is read by go-yaml instead. It reports no syntax errors of its
// own: malformed input also goes to go-yaml, which words the error. Where
// it does accept a document, the tree it builds is the one go-yaml would
// produce (the differential tests hold it to that), with positions. The
// one error it does report is a number JSON cannot hold (NaN, infinities),
// which go-yaml reads without complaint, so that it points at the value.

// bail aborts the fast path.
type bail struct{}

type fastParser struct {
	d         []byte
	pos       int
	line      int32
	lineStart int

	// Scratch stacks for the members of the collections being parsed;
	// each collection copies its members out once complete.
	fields []value.Field
	items  []value.Value

	depth     int    // collections open around pos
	nonFinite *Error // the first NaN or infinity of the document
	// text is scratch space for block scalars, which are copied out.
	text []byte
	// keyPos holds the positions of the keys of the top-level mapping,
	// in order; dups the keys it holds more than once.
	keyPos []value.Value
	dups   []value.Duplicate
}

var parsers = sync.Pool{New: func() any { return new(fastParser) }}

func fastDecode(doc []byte, line int32) (v value.Value, dups []value.Duplicate, ok bool, err error) {
	if !fastSafe(doc) {
		return value.Value{}, nil, false, nil
	}
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bail); !isBail {
				panic(r)
			}
			v, dups, ok, err = value.Value{}, nil, false, nil
		}
	}()
	p := parsers.Get().(*fastParser)
	defer func() {
		clear(p.fields)
		clear(p.items)
		*p = fastParser{fields: p.fields[:0], items: p.items[:0], text: p.text[:0], keyPos: p.keyPos[:0]}
		parsers.Put(p)
	}()
	p.d, p.line = doc, line
	v = p.document()
	if p.nonFinite != nil {
		return value.Value{}, nil, true, p.nonFinite
	}
	return v, p.dups, true, nil
}

// fastSafe accepts documents made only of printable characters and "\n".
// Tabs, carriage returns, control characters, invalid UTF-8, byte order
// marks and the Unicode line breaks NEL, LS and PS are left to go-yaml.
func fastSafe(d []byte) bool {
	const (
		lows  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for i := 0; i < len(d); {
		// Eight printable ASCII bytes at a time: no high bit set, no byte
		// below 0x20, no 0x7F.
		for i+8 <= len(d) {
			w := binary.LittleEndian.Uint64(d[i:])
			below := (w - 0x2020202020202020) &^ w & highs
			del := ((w ^ 0x7f7f7f7f7f7f7f7f) - lows) &^ (w ^ 0x7f7f7f7f7f7f7f7f) & highs
			if w&highs != 0 || below != 0 || del != 0 {
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

func (p *fastParser) at(i int) byte {
	if i < len(p.d) {
		return p.d[i]
	}
	return 0
}

func (p *fastParser) col() int { return p.pos - p.lineStart }

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

func (p *fastParser) document() value.Value {
	if bytes.HasPrefix(p.d, []byte("---")) && p.isBlankEnd(3) {
		p.pos = 3
		p.endLine()
	}
	indent, ok := p.peek()
	if !ok {
		return value.Value{Kind: value.Null}
	}
	p.pos += indent
	if !p.isKey() {
		panic(bail{}) // documents that are not mappings are errors; go-yaml words them
	}
	v := p.mapping(indent)
	if _, ok := p.peek(); ok {
		panic(bail{})
	}
	return v
}

// block parses the node starting at pos, the first content of its line,
// at column indent, inside a collection at column parent.
func (p *fastParser) block(indent, parent int) value.Value {
	if p.at(p.pos) == '-' && p.isBlankEnd(p.pos+1) {
		return p.sequence(indent)
	}
	if p.isKey() {
		return p.mapping(indent)
	}
	return p.inlineValue(parent)
}

// nest enters a collection. Documents nested deeper than go-yaml allows
// are left to it, to word the error.
func (p *fastParser) nest() {
	p.depth++
	if p.depth > value.MaxDepth {
		panic(bail{})
	}
}

func (p *fastParser) mapping(indent int) value.Value {
	p.nest()
	v := value.Value{Kind: value.Object}
	p.mark(&v)
	base := len(p.fields)
	typed := false
	for {
		var keyPos value.Value
		p.mark(&keyPos)
		key, plain, isTyped := p.key()
		typed = typed || isTyped
		if plain && key == "<<" {
			panic(bail{}) // merge keys
		}
		if p.depth == 1 {
			p.keyPos = append(p.keyPos, keyPos)
		}
		val := p.mappingValue(indent)
		if val.Line == 0 {
			val.Line, val.Col = keyPos.Line, keyPos.Col
		}
		p.fields = append(p.fields, value.Field{Key: key, Value: val})
		next, ok := p.peek()
		if !ok || next < indent {
			break
		}
		if next > indent {
			panic(bail{})
		}
		p.pos += next
		if !p.isKey() {
			panic(bail{})
		}
	}
	if p.depth == 1 {
		p.dups = value.FindDuplicates(p.fields[base:], func(i int) (int32, int32) { return p.keyPos[i].Line, p.keyPos[i].Col })
	}
	v.Fields = p.takeFields(base, typed)
	p.depth--
	return v
}

// takeFields copies the members of the mapping that starts at base of the
// scratch stack out of it, sorted by key, and pops them. Of equal keys
// the last one wins, as in go-yaml, unless typed (a key of the mapping
// was a number or a boolean): then two keys may be equal only as text
// ("1" and 1.0), and which one upstream keeps is left to go-yaml's path.
func (p *fastParser) takeFields(base int, typed bool) []value.Field {
	n := len(p.fields) - base
	fields := value.NormalizeFields(append(make([]value.Field, 0, n), p.fields[base:]...))
	if typed && len(fields) < n {
		panic(bail{})
	}
	clear(p.fields[base:])
	p.fields = p.fields[:base]
	return fields
}

// mappingValue parses what follows "key:".
func (p *fastParser) mappingValue(indent int) value.Value {
	p.skipSpaces()
	c := p.at(p.pos)
	if c != '\n' && c != 0 && c != '#' {
		return p.inlineValue(indent)
	}
	if c == '#' && p.at(p.pos-1) != ' ' {
		panic(bail{})
	}
	p.endLine()
	next, ok := p.peek()
	switch {
	case !ok:
	case next > indent:
		p.pos += next
		return p.block(next, indent)
	case next == indent && p.at(p.pos+next) == '-' && p.isBlankEnd(p.pos+next+1):
		p.pos += next
		return p.sequence(next)
	}
	return value.Value{Kind: value.Null}
}

func (p *fastParser) sequence(indent int) value.Value {
	p.nest()
	v := value.Value{Kind: value.Array}
	p.mark(&v)
	base := len(p.items)
	for {
		var itemPos value.Value
		p.mark(&itemPos)
		p.pos++ // '-'
		p.skipSpaces()
		var item value.Value
		switch c := p.at(p.pos); {
		case c == '\n' || c == 0 || c == '#':
			if c == '#' && p.at(p.pos-1) != ' ' {
				panic(bail{})
			}
			p.endLine()
			if next, ok := p.peek(); ok && next > indent {
				p.pos += next
				item = p.block(next, indent)
			} else {
				item = value.Value{Kind: value.Null, Line: itemPos.Line, Col: itemPos.Col}
			}
		case c == '-' && p.isBlankEnd(p.pos+1):
			item = p.sequence(p.col())
		case p.isKey():
			item = p.mapping(p.col())
		default:
			item = p.inlineValue(indent)
		}
		p.items = append(p.items, item)
		next, ok := p.peek()
		if !ok || next < indent {
			break
		}
		if next > indent {
			panic(bail{})
		}
		if p.at(p.pos+next) != '-' || !p.isBlankEnd(p.pos+next+1) {
			break // the next key of the mapping an indentless sequence is in
		}
		p.pos += next
	}
	v.Items = append(make([]value.Value, 0, len(p.items)-base), p.items[base:]...)
	clear(p.items[base:])
	p.items = p.items[:base]
	p.depth--
	return v
}

// inlineValue parses a scalar or empty collection that starts at pos, in
// a collection at column parent.
func (p *fastParser) inlineValue(parent int) value.Value {
	var v value.Value
	p.mark(&v)
	line, col := v.Line, v.Col
	switch c := p.at(p.pos); c {
	case '|':
		v = value.Value{Kind: value.String, Str: p.literal(parent)}
	case '"':
		v = value.Value{Kind: value.String, Str: p.doubleQuoted(parent)}
		p.endLine()
	case '\'':
		v = value.Value{Kind: value.String, Str: p.singleQuoted(parent)}
		p.endLine()
	case '{', '[':
		v = p.flowNode()
		p.endLine()
	default:
		if !plainStart(c, p.at(p.pos+1)) {
			panic(bail{})
		}
		v = resolveValue(p.plain(parent))
	}
	v.Line, v.Col = line, col
	p.checkFinite(&v)
	return v
}

// plainStart reports whether a plain scalar may start with c followed by
// next in block context.
func plainStart(c, next byte) bool {
	switch c {
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '\n', 0, ' ':
		return false
	case '-', '?', ':':
		return next != ' ' && next != '\n' && next != 0
	}
	return true
}

// plainLine scans the plain scalar text on the current line from pos: it
// ends at the line break, at " #" (a comment) or at ": " (a key). It
// returns the text without trailing spaces and whether a ": " ended it.
func (p *fastParser) plainLine() (text []byte, colon bool) {
	start := p.pos
	d := p.d
	for {
		i := p.pos
		for i < len(d) && !plainStop[d[i]] {
			i++
		}
		p.pos = i
		switch p.at(i) {
		case '\n', 0:
			return bytes.TrimRight(d[start:i], " "), false
		case ':':
			if p.isBlankEnd(i + 1) {
				return bytes.TrimRight(d[start:i], " "), true
			}
		case '#':
			if p.at(i-1) == ' ' {
				return bytes.TrimRight(d[start:i], " "), false
			}
		}
		p.pos++
	}
}

// plainStop marks the bytes plainLine must look at.
var plainStop = [256]bool{'\n': true, ':': true, '#': true, 0: true}

// plain parses a plain scalar that may continue on following lines
// indented deeper than parent; lines fold into spaces, empty lines into
// line breaks.
func (p *fastParser) plain(parent int) string {
	text, colon := p.plainLine()
	if colon {
		panic(bail{}) // "mapping values are not allowed in this context"
	}
	if p.at(p.pos) == '#' {
		p.skipComment()
		return string(text)
	}
	if p.at(p.pos) == 0 {
		return string(text)
	}
	p.newline()
	var out []byte
	for {
		// Look ahead over empty lines for a continuation line.
		save, saveLine := p.pos, p.line
		empty := 0
		indent := 0
		for {
			i := p.pos
			for p.at(i) == ' ' {
				i++
			}
			if p.at(i) == '\n' {
				p.pos = i
				p.newline()
				empty++
				continue
			}
			indent = i - p.pos
			if p.at(i) == 0 || indent <= parent {
				p.pos, p.line, p.lineStart = save, saveLine, save
				if out == nil {
					return string(text)
				}
				return string(out)
			}
			p.pos = i
			break
		}
		if p.at(p.pos) == '#' {
			panic(bail{}) // a comment ends the scalar; rare enough to leave to go-yaml
		}
		more, colon := p.plainLine()
		if colon || p.at(p.pos) == '#' {
			panic(bail{})
		}
		if out == nil {
			out = append([]byte(nil), text...)
		}
		if empty == 0 {
			out = append(out, ' ')
		}
		for ; empty > 0; empty-- {
			out = append(out, '\n')
		}
		out = append(out, more...)
		if p.at(p.pos) == 0 {
			return string(out)
		}
		p.newline()
	}
}

// key parses a mapping key and the ':' after it. plain tells whether it
// was an unquoted key, typed whether it read as a number or a boolean.
func (p *fastParser) key() (key string, plain, typed bool) {
	start := p.pos
	switch c := p.at(p.pos); c {
	case '"':
		key = p.doubleQuotedLine()
	case '\'':
		key = p.singleQuotedLine()
	default:
		if !plainStart(c, p.at(p.pos+1)) {
			panic(bail{})
		}
		text, colon := p.plainLine()
		if !colon {
			panic(bail{})
		}
		key, typed = resolveKey(string(text))
		plain = true
	}
	p.skipSpaces()
	if p.at(p.pos) != ':' || !p.isBlankEnd(p.pos+1) {
		panic(bail{})
	}
	p.checkKeyLength(start)
	p.pos++
	return key, plain, typed
}

// maxKeyLength is how far past the start of a key without "?" its ":" may
// be, in characters: YAML's limit, which go-yaml enforces.
const maxKeyLength = 1024

// checkKeyLength leaves keys whose ":" at pos is too far from their start
// to go-yaml. It counts bytes, which are never fewer than characters.
func (p *fastParser) checkKeyLength(start int) {
	if p.pos-start > maxKeyLength {
		panic(bail{})
	}
}

// isKey reports, without consuming anything, whether a mapping key starts
// at pos on this line.
func (p *fastParser) isKey() (ok bool) {
	save, saveLine, saveStart := p.pos, p.line, p.lineStart
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bail); !isBail {
				panic(r)
			}
			ok = false
		}
		p.pos, p.line, p.lineStart = save, saveLine, saveStart
	}()
	switch p.at(p.pos) {
	case '"':
		p.doubleQuotedLine()
	case '\'':
		p.singleQuotedLine()
	default:
		if !plainStart(p.at(p.pos), p.at(p.pos+1)) {
			return false
		}
		_, colon := p.plainLine()
		return colon
	}
	p.skipSpaces()
	return p.at(p.pos) == ':' && p.isBlankEnd(p.pos+1)
}

// resolveKey turns a plain key into the string sigs.k8s.io/yaml makes of
// it: booleans and numbers are formatted (typed), null keys are refused.
func resolveKey(s string) (key string, typed bool) {
	r := resolvePlain(s)
	switch r.kind {
	case kindString, kindTimestamp:
		return s, false
	case kindBool:
		return strconv.FormatBool(r.b), true
	case kindInt:
		return strconv.FormatInt(r.i, 10), true
	case kindFloat:
		f := strconv.FormatFloat(r.f, 'g', -1, 32)
		switch f {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		}
		return f, true
	}
	panic(bail{}) // null and uint64 keys: go-yaml's path reports them
}

// resolveValue turns a plain scalar into the value upstream ends up with.
func resolveValue(s string) value.Value {
	r := resolvePlain(s)
	switch r.kind {
	case kindString, kindTimestamp:
		return value.Value{Kind: value.String, Str: s}
	case kindNull:
		return value.Value{Kind: value.Null}
	case kindBool:
		return value.Value{Kind: value.Bool, Bool: r.b}
	case kindInt:
		// The exact integer is kept for writers that do not go through
		// float64 (Kubernetes objects in bundles).
		return value.Value{Kind: value.Number, Num: float64(r.i), Str: strconv.FormatInt(r.i, 10)}
	case kindUint:
		return value.Value{Kind: value.Number, Num: float64(r.u), Str: strconv.FormatUint(r.u, 10)}
	case kindFloat:
		return value.Value{Kind: value.Number, Num: r.f}
	}
	panic(bail{})
}

// checkFinite notes the first number of the document that JSON cannot
// hold; the document is still read to its end, as a syntax error after
// it is the error go-yaml reports.
func (p *fastParser) checkFinite(v *value.Value) {
	if v.Kind == value.Number && p.nonFinite == nil && (math.IsNaN(v.Num) || math.IsInf(v.Num, 0)) {
		p.nonFinite = &Error{Line: v.Line, Col: v.Col, Msg: nonFiniteMsg(v.Num)}
	}
}

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
	var s, whitespace []byte
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
				return string(s)
			case !single && c == '"':
				p.pos++
				return string(s)
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

// literal parses a literal block scalar ("|") whose header is at pos, in a
// collection at column parent, with go-yaml's indentation detection and
// chomping.
func (p *fastParser) literal(parent int) string {
	header := p.pos
	p.pos++ // '|'
	chomp, increment := 0, 0
	for k := 0; k < 2; k++ {
		switch c := p.at(p.pos); {
		case (c == '+' || c == '-') && chomp == 0:
			chomp = 1
			if c == '-' {
				chomp = -1
			}
			p.pos++
		case c >= '1' && c <= '9' && increment == 0:
			increment = int(c - '0')
			p.pos++
		}
	}
	p.endLine()
	indent := 0
	if increment > 0 {
		indent = increment
		if parent >= 0 {
			indent = parent + increment
		}
	}
	var leadingBreak, trailingBreaks []byte
	s := p.text[:0]
	p.blockBreaks(&indent, &trailingBreaks, parent)
	for p.col() == indent && p.pos < len(p.d) {
		s = append(s, leadingBreak...)
		leadingBreak = leadingBreak[:0]
		s = append(s, trailingBreaks...)
		trailingBreaks = trailingBreaks[:0]
		end := bytes.IndexByte(p.d[p.pos:], '\n')
		if end < 0 {
			panic(bail{})
		}
		s = append(s, p.d[p.pos:p.pos+end]...)
		p.pos += end
		leadingBreak = append(leadingBreak, '\n')
		p.newline()
		p.blockBreaks(&indent, &trailingBreaks, parent)
	}
	if chomp != -1 {
		s = append(s, leadingBreak...)
	}
	if chomp == 1 {
		s = append(s, trailingBreaks...)
	}
	// Leave pos at the start of the line that ended the scalar (or at the
	// end of a document that ends on the header line).
	if p.lineStart > header {
		p.pos = p.lineStart
	}
	p.text = s[:0]
	return string(s)
}

// blockBreaks eats indentation and empty lines before block scalar content,
// detecting the indentation if it is still 0.
func (p *fastParser) blockBreaks(indent *int, breaks *[]byte, parent int) {
	maxIndent := 0
	for {
		for (*indent == 0 || p.col() < *indent) && p.at(p.pos) == ' ' {
			p.pos++
		}
		maxIndent = max(maxIndent, p.col())
		if p.at(p.pos) != '\n' {
			break
		}
		*breaks = append(*breaks, '\n')
		p.newline()
	}
	if *indent == 0 {
		*indent = max(maxIndent, parent+1, 1)
	}
}

// flowNode parses a flow collection or scalar that ends on this line.
func (p *fastParser) flowNode() value.Value {
	var v value.Value
	p.mark(&v)
	line, col := v.Line, v.Col
	switch p.at(p.pos) {
	case '[':
		v = p.flowSequence()
	case '{':
		v = p.flowMapping()
	case '"':
		v = value.Value{Kind: value.String, Str: p.doubleQuotedLine()}
	case '\'':
		v = value.Value{Kind: value.String, Str: p.singleQuotedLine()}
	default:
		text, _ := p.flowPlain()
		v = resolveValue(string(text))
	}
	v.Line, v.Col = line, col
	p.checkFinite(&v)
	return v
}

func (p *fastParser) enterFlow() {
	p.nest()
	p.pos++
	if p.col() > 0 && len(p.items)+len(p.fields) > 1<<20 {
		panic(bail{})
	}
}

func (p *fastParser) flowSequence() value.Value {
	p.enterFlow() // '['
	v := value.Value{Kind: value.Array}
	base := len(p.items)
	for {
		p.skipSpaces()
		if p.at(p.pos) == ']' {
			p.pos++
			break
		}
		p.items = append(p.items, p.flowNode())
		p.skipSpaces()
		switch p.at(p.pos) {
		case ',':
			p.pos++
			continue
		case ']':
			p.pos++
		default:
			panic(bail{}) // single-pair mappings, line breaks, ...
		}
		break
	}
	v.Items = append(make([]value.Value, 0, len(p.items)-base), p.items[base:]...)
	clear(p.items[base:])
	p.items = p.items[:base]
	p.depth--
	return v
}

func (p *fastParser) flowMapping() value.Value {
	p.enterFlow() // '{'
	v := value.Value{Kind: value.Object}
	base := len(p.fields)
	typed := false
	for {
		p.skipSpaces()
		if p.at(p.pos) == '}' {
			p.pos++
			break
		}
		var key string
		quoted := false
		start := p.pos
		switch p.at(p.pos) {
		case '"':
			key, quoted = p.doubleQuotedLine(), true
		case '\'':
			key, quoted = p.singleQuotedLine(), true
		default:
			text, colon := p.flowPlain()
			if !colon {
				panic(bail{})
			}
			var isTyped bool
			key, isTyped = resolveKey(string(text))
			typed = typed || isTyped
			if key == "<<" {
				panic(bail{})
			}
		}
		p.skipSpaces()
		if p.at(p.pos) != ':' || (!quoted && !p.isBlankEnd(p.pos+1)) {
			panic(bail{})
		}
		p.checkKeyLength(start)
		p.pos++
		p.skipSpaces()
		if c := p.at(p.pos); c == ',' || c == '}' || c == '\n' || c == 0 {
			panic(bail{}) // empty values
		}
		p.fields = append(p.fields, value.Field{Key: key, Value: p.flowNode()})
		p.skipSpaces()
		switch p.at(p.pos) {
		case ',':
			p.pos++
			continue
		case '}':
			p.pos++
		default:
			panic(bail{})
		}
		break
	}
	v.Fields = p.takeFields(base, typed)
	if v.Fields == nil {
		v.Fields = []value.Field{}
	}
	p.depth--
	return v
}

// flowPlain scans a plain scalar inside a flow collection: it ends at a
// flow indicator, at ": " or at " #". colon tells whether ": " ended it.
func (p *fastParser) flowPlain() (text []byte, colon bool) {
	// In flow context "?" and ":" cannot start a plain scalar at all.
	if c := p.at(p.pos); c == '?' || c == ':' || !plainStart(c, p.at(p.pos+1)) {
		panic(bail{})
	}
	start := p.pos
	for {
		c := p.at(p.pos)
		switch c {
		case ',', '[', ']', '{', '}':
			return bytes.TrimRight(p.d[start:p.pos], " "), false
		case '?':
			panic(bail{}) // ends the scalar and starts a key: "[a?]" is an error
		case '\n', 0:
			panic(bail{}) // flow collections over several lines
		case ':':
			switch next := p.at(p.pos + 1); next {
			case ' ', '\n', 0:
				return bytes.TrimRight(p.d[start:p.pos], " "), true
			case ',', '?', '[', ']', '{', '}':
				panic(bail{})
			}
		case '#':
			if p.at(p.pos-1) == ' ' {
				panic(bail{})
			}
		}
		p.pos++
	}
}
