package fbcyaml

import (
	"errors"
	"strings"

	"github.com/fbcat/opm/internal/value"
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
	v, err := value.ParseJSON(e.src[i:end])
	if err != nil {
		return "", end, e.syntaxError(i, "in a string")
	}
	return v.Str, end, nil
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
