// Reading JSON that is already in canonical form straight from its bytes:
// a catalog written by opm (upstream's or ours) holds its property values
// compact but for indentation, keys sorted, strings and numbers as
// encoding/json writes them. For such a value the tree JSONParser builds
// and AppendCompact writes back would give the same bytes minus the
// white space, so a Cursor copies them instead. Anything else makes it
// give up, and the caller parses the value as usual: the Cursor never
// decides what a value means, only that it needs no decision.

package value

import (
	"bytes"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Cursor is a position in JSON text, with the line it is on, for reading
// values in canonical form (see AppendCanonical) and the plain keys and
// strings around them. A method that reports false leaves the Cursor
// anywhere: the caller drops it and parses from where it started (see
// JSONParser.Cursor and Resume).
type Cursor struct {
	Data      []byte
	Pos       int
	Line      int32
	LineStart int // the offset of the first byte of Line

	// The members of the objects being read, innermost last, and room
	// to reorder them (see sortMembers).
	members []member
	scratch []byte
	// text holds a string's decoded text (see transcodeString).
	text []byte
}

// member is an object member AppendCanonical wrote: its key, and where
// its text (key, colon, value) is in the output.
type member struct {
	key        []byte
	start, end int
}

// Col is the 1-based column (bytes) of Pos.
func (c *Cursor) Col() int32 { return int32(c.Pos-c.LineStart) + 1 }

// Space skips white space as the parser does.
func (c *Cursor) Space() {
	c.Pos, c.Line, c.LineStart = skipSpace(c.Data, c.Pos, c.Line, c.LineStart)
}

// Byte skips white space and then b, if b is next.
func (c *Cursor) Byte(b byte) bool {
	c.Space()
	if c.Pos < len(c.Data) && c.Data[c.Pos] == b {
		c.Pos++
		return true
	}
	return false
}

// Plain skips white space and reads a string without escapes whose
// decoded text is its bytes (valid UTF-8, no control characters, neither
// U+2028 nor U+2029): it returns the text between the quotes, a slice of
// Data.
func (c *Cursor) Plain() ([]byte, bool) {
	c.Space()
	start := c.Pos
	end, ok := c.canonicalString(false)
	if !ok {
		return nil, false
	}
	c.Pos = end
	return c.Data[start+1 : end-1], true
}

// Key reads a plain object key (see Plain) and the colon after it.
func (c *Cursor) Key() ([]byte, bool) {
	k, ok := c.Plain()
	return k, ok && c.Byte(':')
}

// Next reads what comes before member or element i (from 0) of an
// object or array whose opening bracket was read and whose closing one is
// end: nothing before the first, a comma before the others, or end after
// the last. more tells whether member or element i follows; ok is false
// for anything else.
func (c *Cursor) Next(end byte, i int) (more, ok bool) {
	switch {
	case c.Byte(end):
		return false, true
	case i == 0 || c.Byte(','):
		return true, true
	}
	return false, false
}

// AppendCanonical skips white space and appends the JSON value that
// follows to dst as AppendCompact writes the tree the parser builds of
// it, when that is its bytes without white space, each object's members
// in the order of their keys: keys without escapes and none repeated;
// strings of valid UTF-8 (see below); numbers integers of at most 15
// digits (which a float64 holds exactly, written the same); nesting at
// most maxDepth arrays and objects. Anything else, a syntax error
// included, reports false.
//
// A string with only the escapes encoding/json writes (\" \\ \b \f \n
// \r \t, \u00xx for other control characters, \u2028 and \u2029) is
// copied as it is. Other writers escape otherwise (Python's json.dump
// writes \u00e9 for é and pairs of \u escapes for characters beyond
// U+FFFF, some write \/ or \u003c); such a string is decoded and
// written again as encoding/json writes it (see transcodeString), as
// long as it is valid UTF-8 without raw control characters and its \u
// escapes of surrogate halves come in pairs.
func (c *Cursor) AppendCanonical(dst []byte, maxDepth int) ([]byte, bool) {
	c.Space()
	return c.canonical(dst, maxDepth)
}

func (c *Cursor) canonical(dst []byte, depth int) ([]byte, bool) {
	d := c.Data
	if c.Pos >= len(d) {
		return dst, false
	}
	switch b := d[c.Pos]; {
	case b == '"':
		end, ok := c.canonicalString(true)
		if !ok {
			return c.transcodeString(dst)
		}
		dst = append(dst, d[c.Pos:end]...)
		c.Pos = end
		return dst, true
	case b == '{':
		return c.canonicalObject(dst, depth-1)
	case b == '[':
		return c.canonicalArray(dst, depth-1)
	case b == '-' || b >= '0' && b <= '9':
		return c.canonicalInteger(dst)
	case b == 't':
		return c.word(dst, "true")
	case b == 'f':
		return c.word(dst, "false")
	case b == 'n':
		return c.word(dst, "null")
	}
	return dst, false
}

// transcodeString appends the string at Pos as AppendCompact writes the
// text the parser decodes it to, for a string canonicalString refused: it
// reports false unless every escape is well formed (a \u escape of half
// a surrogate pair followed by the other half), every other byte is
// valid UTF-8 and no control character is raw, so that decoding replaces
// nothing.
func (c *Cursor) transcodeString(dst []byte) ([]byte, bool) {
	d := c.Data
	i := c.Pos + 1
	for {
		i = skipPlain(d, i)
		if i >= len(d) {
			return dst, false
		}
		b := d[i]
		if b == '"' {
			break
		}
		n := 1
		switch {
		case b == '\\':
			n = escapeLen(d[i:])
		case b < 0x20:
			n = 0
		case b >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				n = 0
			} else {
				n = size
			}
		}
		if n == 0 {
			return dst, false
		}
		i += n
	}
	end := i + 1
	text, ok := AppendRawString(c.text[:0], d[c.Pos:end])
	if !ok {
		return dst, false
	}
	c.text, c.Pos = text, end
	// text is not written to while appendString reads it.
	return appendString(dst, unsafe.String(unsafe.SliceData(text), len(text)), false), true
}

// escapeLen returns the length of the well-formed escape at the start of
// s (a surrogate pair's two \u escapes counting as one), else 0.
func escapeLen(s []byte) int {
	if len(s) < 2 {
		return 0
	}
	if s[1] != 'u' {
		if shortEscape[s[1]] == 0 {
			return 0
		}
		return 2
	}
	r, ok := hex4(s, 2)
	switch {
	case !ok:
		return 0
	case !utf16.IsSurrogate(r):
		return 6
	}
	if len(s) < 12 || s[6] != '\\' || s[7] != 'u' {
		return 0
	}
	if r2, ok := hex4(s, 8); !ok || utf16.DecodeRune(r, r2) == utf8.RuneError {
		return 0
	}
	return 12
}

func (c *Cursor) word(dst []byte, w string) ([]byte, bool) {
	if !bytes.HasPrefix(c.Data[c.Pos:], []byte(w)) {
		return dst, false
	}
	c.Pos += len(w)
	return append(dst, w...), true
}

func (c *Cursor) canonicalObject(dst []byte, depth int) ([]byte, bool) {
	if depth < 0 {
		return dst, false
	}
	c.Pos++ // '{'
	dst = append(dst, '{')
	if c.Byte('}') {
		return append(dst, '}'), true
	}
	base := len(c.members)
	defer func() { c.members = c.members[:base] }()
	sorted := true
	for {
		c.Space()
		start := c.Pos
		key, ok := c.Key()
		if !ok {
			return dst, false
		}
		if n := len(c.members); n > base && bytes.Compare(c.members[n-1].key, key) >= 0 {
			sorted = false
		}
		m := member{key: key, start: len(dst)}
		dst = append(dst, c.Data[start:start+len(key)+2]...)
		dst = append(dst, ':')
		if dst, ok = c.AppendCanonical(dst, depth); !ok {
			return dst, false
		}
		m.end = len(dst)
		c.members = append(c.members, m)
		switch {
		case c.Byte(','):
			dst = append(dst, ',')
		case c.Byte('}'):
			if !sorted && !c.sortMembers(dst, c.members[base:]) {
				return dst, false
			}
			return append(dst, '}'), true
		default:
			return dst, false
		}
	}
}

// sortMembers puts the members of an object, written to dst one after
// another, in the order of their keys, as the tree keeps them. It
// reports false for a repeated key, whose last value the tree keeps:
// that is for the parser to say.
func (c *Cursor) sortMembers(dst []byte, ms []member) bool {
	slices.SortFunc(ms, func(a, b member) int { return bytes.Compare(a.key, b.key) })
	for i := 1; i < len(ms); i++ {
		if bytes.Equal(ms[i-1].key, ms[i].key) {
			return false
		}
	}
	from, to := len(dst), 0
	for _, m := range ms {
		from, to = min(from, m.start), max(to, m.end)
	}
	c.scratch = append(c.scratch[:0], dst[from:to]...)
	out := dst[from:from]
	for i, m := range ms {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, c.scratch[m.start-from:m.end-from]...)
	}
	return true
}

func (c *Cursor) canonicalArray(dst []byte, depth int) ([]byte, bool) {
	if depth < 0 {
		return dst, false
	}
	c.Pos++ // '['
	dst = append(dst, '[')
	if c.Byte(']') {
		return append(dst, ']'), true
	}
	for {
		var ok bool
		if dst, ok = c.AppendCanonical(dst, depth); !ok {
			return dst, false
		}
		switch {
		case c.Byte(','):
			dst = append(dst, ',')
		case c.Byte(']'):
			return append(dst, ']'), true
		default:
			return dst, false
		}
	}
}

// maxExactDigits is how many decimal digits an integer may have for a
// float64 to hold it exactly and encoding/json to write it back as it was.
const maxExactDigits = 15

func (c *Cursor) canonicalInteger(dst []byte) ([]byte, bool) {
	d := c.Data
	start, i := c.Pos, c.Pos
	if d[i] == '-' {
		i++
	}
	digits := i
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	n := i - digits
	switch {
	case n == 0 || n > maxExactDigits:
		return dst, false
	case d[digits] == '0' && (n > 1 || digits > start): // 01, -0
		return dst, false
	case i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E'):
		return dst, false
	}
	c.Pos = i
	return append(dst, d[start:i]...), true
}

// canonicalString checks the string whose opening quote is at Pos and
// returns the offset after its closing quote. With escapes set, the
// escapes encoding/json writes are allowed; without, none is.
func (c *Cursor) canonicalString(escapes bool) (int, bool) {
	d := c.Data
	if c.Pos >= len(d) || d[c.Pos] != '"' {
		return 0, false
	}
	i := c.Pos + 1
	for {
		i = skipPlain(d, i)
		if i >= len(d) {
			return 0, false
		}
		switch b := d[i]; {
		case b == '"':
			return i + 1, true
		case b == '\\':
			n := canonicalEscape(d[i:])
			if !escapes || n == 0 {
				return 0, false
			}
			i += n
		case b < 0x20:
			return 0, false
		case b < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return 0, false
			}
			i += size
		}
	}
}

// canonicalEscape returns the length of the escape at the start of s if
// encoding/json writes the character it stands for that way, else 0.
func canonicalEscape(s []byte) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '"', '\\', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
	default:
		return 0
	}
	r, ok := hex4(s, 2)
	if !ok || bytes.ContainsAny(s[2:6], "ABCDEF") { // encoding/json writes lower-case hex digits
		return 0
	}
	switch r {
	case '\b', '\f', '\n', '\r', '\t':
		return 0 // written with the short escape
	case '\u2028', '\u2029':
		return 6
	}
	if r < 0x20 {
		return 6
	}
	return 0
}
