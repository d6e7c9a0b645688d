package fbcyaml

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// The JSON the emitter reads is scanned here, a token at a time, with
// encoding/value's primitives: its strings found by value.StringEnd,
// decoded by value.AppendRawString, its values skipped by value.SkipValue.

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

// str reads the string starting at i: a string without escapes is a
// part of the JSON text, one with escapes is decoded by encoding/value.
func (e *emitter) str(i int) (string, int, error) {
	// Most strings are short: their end is found in their first words,
	// with no call to a search that pays off on long ones.
	for j := i + 1; j+8 <= len(e.js) && j <= i+1+3*8; j += 8 {
		x := value.Word(e.js, j)
		if value.HasByte(x, '\\') {
			break
		}
		if value.HasByte(x, '"') {
			q := j + strings.IndexByte(e.js[j:j+8], '"')
			return e.js[i+1 : q], q + 1, nil
		}
	}
	end, ok := value.StringEnd(e.raw, i)
	if !ok {
		return "", end, e.syntaxError(end, "in a string")
	}
	body := e.js[i+1 : end-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body, end, nil
	}
	if e.buf, ok = value.AppendRawString(e.buf[:0], e.raw[i:end]); !ok {
		return "", end, fmt.Errorf("writing YAML: malformed JSON string at offset %d", i)
	}
	return string(e.buf), end, nil
}

// skipValue returns the offset after the value starting at i, checking
// little: the value is read properly when it is written.
//
// Writing an object skips its members' values to sort them, and then
// each member's object or array skips its own members: the ends of the
// objects and arrays inside a value skipped are kept (e.ends), so that
// each byte is scanned once, not once per level of nesting.
func (e *emitter) skipValue(i int) (int, error) {
	if end, ok := e.ends[i]; ok {
		return end, nil
	}
	if e.ends == nil {
		e.ends = make(map[int]int)
	}
	end, err := value.SkipValueRecording(e.raw, i, e.recordEnd)
	if err != nil {
		return end, fmt.Errorf("writing YAML: %w", err)
	}
	return end, nil
}

// recordEnd keeps where the object or array at start ends (see skipValue).
func (e *emitter) recordEnd(start, end int) { e.ends[start] = end }

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
