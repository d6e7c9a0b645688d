package value

import (
	"bytes"
	"encoding/json"
	"math"
	"math/bits"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"
)

const hexDigits = "0123456789abcdef"

// safeJSONByte marks ASCII bytes that encoding/json writes unescaped when
// HTML escaping is off.
var safeJSONByte = func() (t [utf8.RuneSelf]bool) {
	for i := 0x20; i < utf8.RuneSelf; i++ {
		t[i] = true
	}
	t['"'] = false
	t['\\'] = false
	return
}()

// AppendString appends s as a JSON string exactly as encoding/json does with
// HTML escaping off: control characters escaped, invalid UTF-8 replaced by
// \ufffd, U+2028 and U+2029 escaped.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s, false) }

// skipPlain returns the first offset from i at which a byte may need a
// look from appendString (or from the JSON parser and the Cursor, reading
// a string), stepping 8 bytes at a time over bytes that do not (printable
// ASCII, neither '"' nor '\\'): the offset of that byte, or of the last
// bytes, fewer than 8, which are left to the caller. Stopping at the byte
// itself, not at the start of its word, matters in prose and embedded
// JSON, where such bytes come every few words.
func skipPlain[T string | []byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if x := Word(s, i); !Printable(x, ' ') || HasByte(x, '"') || HasByte(x, '\\') {
			break
		}
	}
	if i+8 <= len(s) { // the quick test failed: which byte it was
		x := Word(s, i)
		i += bits.TrailingZeros64(outside(x, ' ')|equal(x, '"')|equal(x, '\\')) >> 3
	}
	return i
}

// skipPlainHTML is skipPlain for a writer that also escapes '<', '>' and
// '&' as encoding/json does by default. A word has '"' or '&' where, with
// bit 2 of every byte set, it has '&'; '<' or '>' where, with bit 1 set,
// it has '>'.
func skipPlainHTML(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if x := Word(s, i); !Printable(x, ' ') || HasByte(x|4*lowBits, '&') || HasByte(x|2*lowBits, '>') || HasByte(x, '\\') {
			break
		}
	}
	if i+8 <= len(s) {
		x := Word(s, i)
		i += bits.TrailingZeros64(outside(x, ' ')|equal(x, '\\')|equal(x|4*lowBits, '&')|equal(x|2*lowBits, '>')) >> 3
	}
	return i
}

func appendString(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		j := i
		if escapeHTML {
			j = skipPlainHTML(s, i)
		} else {
			j = skipPlain(s, i)
		}
		if j > i {
			i = j
			continue
		}
		if b := s[i]; b < utf8.RuneSelf {
			if safeJSONByte[b] && !(escapeHTML && (b == '<' || b == '>' || b == '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendNumber appends f formatted as encoding/json formats a float64.
func AppendNumber(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Turn e-09 into e-9, as encoding/json does.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// AppendCompact appends v as compact JSON with sorted keys.
func AppendCompact(dst []byte, v *Value) []byte { return appendCompact(dst, v, false) }

// scratch holds buffers Compact writes into before copying out exactly
// what it wrote: appending to a nil slice would allocate every size on
// the way up.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// Compact returns v as AppendCompact writes it, in a slice of its own of
// exactly that size; for a Raw node, the node's own bytes (see Raw),
// which must not be changed.
func Compact(v *Value) []byte {
	if v.Kind == Raw {
		return unsafe.Slice(unsafe.StringData(v.Str), len(v.Str))
	}
	buf := scratch.Get().(*[]byte)
	*buf = AppendCompact((*buf)[:0], v)
	out := bytes.Clone(*buf)
	if cap(*buf) <= 16<<20 { // do not keep a huge buffer alive
		scratch.Put(buf)
	}
	return out
}

// AppendKubernetesJSON appends v as compact JSON the way Kubernetes writes
// an unstructured object (encoding/json defaults): keys sorted, HTML
// characters escaped, and integers that fit in 64 bits written exactly;
// other numbers are float64.
func AppendKubernetesJSON(dst []byte, v *Value) []byte { return appendCompact(dst, v, true) }

func appendCompact(dst []byte, v *Value, kube bool) []byte {
	switch v.Kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		return strconv.AppendBool(dst, v.Bool)
	case Number:
		if kube {
			text := v.Str
			if text == "" {
				text = string(AppendNumber(nil, v.Num))
			}
			if i, err := strconv.ParseInt(text, 10, 64); err == nil {
				return strconv.AppendInt(dst, i, 10)
			}
		}
		return AppendNumber(dst, v.Num)
	case String:
		if v.Plain && !kube {
			dst = append(dst, '"')
			dst = append(dst, v.Str...)
			return append(dst, '"')
		}
		return appendString(dst, v.Str, kube)
	case Array:
		dst = append(dst, '[')
		for i := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCompact(dst, &v.Items[i], kube)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i := range v.Fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, v.Fields[i].Key, kube)
			dst = append(dst, ':')
			dst = appendCompact(dst, &v.Fields[i].Value, kube)
		}
		return append(dst, '}')
	case Raw:
		return append(dst, v.Str...)
	}
	return dst
}

// Newline appends a line break followed by depth levels of four-space
// indentation, the layout of upstream's JSON writer.
func Newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for ; depth > 0; depth-- {
		dst = append(dst, "    "...)
	}
	return dst
}

// AppendIndentedRaw appends JSON text with json.Indent's layout, four
// spaces per level, the opening bracket at the current position and nested
// lines starting at depth+1. White space between tokens is dropped, so the
// input need not be compact; key order and number text are kept as they are.
func AppendIndentedRaw(dst, raw []byte, depth int) []byte {
	needIndent := false
	start := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			dst = append(dst, raw[start:i]...)
			start = i + 1
			continue
		}
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			dst = append(dst, raw[start:i]...)
			start = i
			dst = Newline(dst, depth)
		}
		switch c {
		case '"':
			i = stringEnd(raw, i) - 1
		case '{', '[':
			needIndent = true
		case ',':
			dst = append(dst, raw[start:i+1]...)
			start = i + 1
			dst = Newline(dst, depth)
		case ':':
			dst = append(dst, raw[start:i+1]...)
			start = i + 1
			dst = append(dst, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				dst = append(dst, raw[start:i]...)
				start = i
				depth--
				dst = Newline(dst, depth)
			}
		}
	}
	return append(dst, raw[start:]...)
}

// stringEnd returns the offset after the string that starts at raw[i]
// (or len(raw) if it does not end), found with a vectorised search for
// its closing quote: string bodies (base64 data) are most of the bytes.
func stringEnd(raw []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(raw[j:], '"')
		if k < 0 {
			return len(raw)
		}
		q := j + k
		b := q
		for b > j && raw[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// ValidUTF8 replaces every byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does when it writes a string.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// Marshal encodes v with encoding/json, compact and without HTML
// escaping: how upstream builds property values.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
