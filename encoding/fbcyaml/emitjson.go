package fbcyaml

import (
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON the emitter reads is scanned here, a token at a time. Strings
// are found with a vectorised search for their closing quote, so that
// long ones (base64 data) cost little more than a copy.

var errEndOfJSON = errors.New("writing YAML: unexpected end of JSON")

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the offset after the string starting at s[i] and
// whether it holds escapes.
func stringEnd(s string, i int) (end int, escaped bool, ok bool) {
	for j := i + 1; ; {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return len(s), false, false
		}
		q := j + k
		b := q
		for b > j && s[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q + 1, strings.IndexByte(s[i+1:q], '\\') >= 0, true
		}
		j = q + 1
	}
}

// str reads the string starting at i.
func (e *emitter) str(i int) (string, int, error) {
	end, escaped, ok := stringEnd(e.js, i)
	if !ok {
		return "", end, e.syntaxError(end, "in a string")
	}
	if !escaped {
		return e.js[i+1 : end-1], end, nil
	}
	e.buf = e.buf[:0]
	body := e.js[i+1 : end-1]
	for {
		k := strings.IndexByte(body, '\\')
		if k < 0 {
			break
		}
		e.buf = append(e.buf, body[:k]...)
		n, ok := e.unescape(body[k:])
		if !ok {
			return "", end, e.syntaxError(end-1-len(body)+k, "in a string escape")
		}
		body = body[k+n:]
	}
	e.buf = append(e.buf, body...)
	return string(e.buf), end, nil
}

// unescape appends what the escape sequence at the start of s stands for
// (as encoding/json reads it: a lone surrogate is U+FFFD) and returns its
// length.
func (e *emitter) unescape(s string) (int, bool) {
	if len(s) < 2 {
		return 0, false
	}
	switch c := s[1]; c {
	case '"', '\\', '/':
		e.buf = append(e.buf, c)
	case 'b':
		e.buf = append(e.buf, '\b')
	case 'f':
		e.buf = append(e.buf, '\f')
	case 'n':
		e.buf = append(e.buf, '\n')
	case 'r':
		e.buf = append(e.buf, '\r')
	case 't':
		e.buf = append(e.buf, '\t')
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 0, false
		}
		if utf16.IsSurrogate(r) {
			if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				if r2, ok := hex4(s[8:]); ok {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						e.buf = utf8.AppendRune(e.buf, d)
						return 12, true
					}
				}
			}
			r = utf8.RuneError
		}
		e.buf = utf8.AppendRune(e.buf, r)
		return 6, true
	default:
		return 0, false
	}
	return 2, true
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skipValue returns the offset after the value starting at i, checking
// little: the value is read properly when it is written.
func skipValue(s string, i int) (int, error) {
	if i >= len(s) {
		return i, errEndOfJSON
	}
	switch s[i] {
	case '"':
		end, _, ok := stringEnd(s, i)
		if !ok {
			return end, errEndOfJSON
		}
		return end, nil
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				end, _, ok := stringEnd(s, i)
				if !ok {
					return end, errEndOfJSON
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return i, errEndOfJSON
	}
	for i < len(s) && !strings.ContainsRune(",}] \t\n\r", rune(s[i])) {
		i++
	}
	return i, nil
}

// numberEnd returns the offset after the JSON number starting at i, or -1
// if there is none.
func numberEnd(s string, i int) int {
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return -1
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}
