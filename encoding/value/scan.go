// Scanning JSON without building values: for reading a few members of a
// large object (a CSV with its icon, a CRD with its schemas, an
// olm.csv.metadata value with its description) at a fraction of the cost
// of ParseJSON, which copies every string and allocates every node.

package value

import (
	"bytes"
	"fmt"

	"github.com/fbcat/opm/position"
)

// ScanObject walks the members of the JSON object data in the order they
// are written, repeated keys included, calling member with each key
// (decoded as ParseJSON decodes it) and the raw bytes of its value. The
// values are skipped, not decoded: they are checked only for balanced
// brackets and closed strings, and a scalar for being there at all, so
// decode what member keeps with ParseJSON or RawString. What follows the
// object is not looked at. An error from member ends the walk and is
// returned as it is; malformed data gives a *position.Error (its offset
// in its message, its Line and Column unknown, 0).
func ScanObject(data []byte, member func(key string, raw []byte) error) error {
	s := scanner{data: data}
	s.space()
	if !s.byte('{') {
		return s.fail("the value is not a JSON object")
	}
	s.space()
	if s.byte('}') {
		return nil
	}
	for {
		s.space()
		key, err := s.key()
		if err != nil {
			return err
		}
		s.space()
		if !s.byte(':') {
			return s.fail("expected ':' after an object key")
		}
		s.space()
		start := s.pos
		if err := s.skipValue(); err != nil {
			return err
		}
		if err := member(key, data[start:s.pos]); err != nil {
			return err
		}
		s.space()
		if s.byte('}') {
			return nil
		}
		if !s.byte(',') {
			return s.fail("expected ',' or '}' after an object member")
		}
	}
}

// RawString decodes raw, the text of one JSON string quotes included, as
// ParseJSON does (escapes decoded, invalid UTF-8 replaced). ok is false
// when raw is anything else.
func RawString(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	p := JSONParser{data: raw}
	s, err := p.str()
	return s, err == nil && p.pos == len(raw)
}

// AppendRawString appends to dst what RawString decodes raw to, for a
// caller that decodes many strings through one buffer. ok is false, and
// dst returned as it was, when raw is not one JSON string.
func AppendRawString(dst, raw []byte) (out []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return dst, false
	}
	p := JSONParser{data: raw}
	b, err := p.appendStr(dst, 1, 1)
	if err != nil || p.pos != len(raw) {
		return dst, false
	}
	return b, true
}

// scanner walks JSON text without building values.
type scanner struct {
	data []byte
	pos  int
	// record, if set, is told where every object and array skipped
	// starts and ends.
	record func(start, end int)
	starts []int // with record: the open brackets being skipped
}

func (s *scanner) fail(msg string) error {
	return &position.Error{Message: fmt.Sprintf("offset %d: %s", s.pos, msg)}
}

func (s *scanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// byte consumes c if it is next.
func (s *scanner) byte(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// key reads an object key.
func (s *scanner) key() (string, error) {
	start := s.pos
	if err := s.skipString(); err != nil {
		return "", err
	}
	key, ok := RawString(s.data[start:s.pos])
	if !ok {
		s.pos = start
		return "", s.fail("malformed object key")
	}
	return key, nil
}

// skipString skips a string, the opening quote next.
func (s *scanner) skipString() error {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return s.fail("expected a string")
	}
	end, ok := StringEnd(s.data, s.pos)
	if !ok {
		s.pos++
		return s.fail("unclosed string")
	}
	s.pos = end
	return nil
}

// StringEnd returns the offset just after the JSON string whose opening
// quote is data[i]: its closing quote is the first quote after an even
// number of backslashes, found with a vectorised search for each quote,
// so that a long string (base64 data) costs little more than a copy. ok is false
// when the string is not closed. Nothing else is checked: RawString
// decodes what StringEnd delimits.
func StringEnd(data []byte, i int) (end int, ok bool) {
	for j := i + 1; ; {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data), false
		}
		q := j + k
		b := q
		for b > j && data[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}

// SkipValue returns the offset just after the JSON value that starts at
// data[i], checked as ScanObject checks the values it skips: strings
// closed, brackets balanced, a scalar there at all (running to the next
// delimiter or space). Malformed data gives a *position.Error with its
// offset in its message (its Line and Column unknown, 0).
func SkipValue(data []byte, i int) (int, error) {
	return SkipValueRecording(data, i, nil)
}

// SkipValueRecording is SkipValue that also calls record with the start
// and end offsets of every object and array it skips, the value's own and
// those inside it, innermost first: a caller that will skip the values
// inside again can look their ends up instead of scanning them once per
// level of nesting.
func SkipValueRecording(data []byte, i int, record func(start, end int)) (int, error) {
	s := scanner{data: data, pos: i, record: record}
	if err := s.skipValue(); err != nil {
		return s.pos, err
	}
	return s.pos, nil
}

// skipValue skips one value: a string, an object or array (strings and
// brackets inside followed), or a scalar running to the next delimiter.
func (s *scanner) skipValue() error {
	if s.pos >= len(s.data) {
		return s.fail("expected a value")
	}
	switch s.data[s.pos] {
	case '"':
		return s.skipString()
	case '{', '[':
		return s.skipNested()
	}
	start := s.pos
	for s.pos < len(s.data) && !scalarEnd[s.data[s.pos]] {
		s.pos++
	}
	if s.pos == start {
		return s.fail("expected a value")
	}
	return nil
}

// scalarEnd marks the bytes that end a scalar: delimiters and space.
var scalarEnd = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\n': true, '\r': true}

// nestedStop marks the bytes skipNested stops at.
var nestedStop = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// skipNested skips an object or array, its opening bracket next. Between
// the bytes it stops at there are a few others at most (a colon, a comma,
// a number, white space), so it looks at them one by one.
func (s *scanner) skipNested() error {
	depth := 0
	for s.pos < len(s.data) {
		i := s.pos
		for i < len(s.data) && !nestedStop[s.data[i]] {
			i++
		}
		if i == len(s.data) {
			break
		}
		s.pos = i
		switch s.data[s.pos] {
		case '"':
			if err := s.skipString(); err != nil {
				return err
			}
			continue
		case '{', '[':
			depth++
			if s.record != nil {
				s.starts = append(s.starts, s.pos)
			}
		default:
			depth--
			if s.record != nil && len(s.starts) > 0 {
				n := len(s.starts) - 1
				s.record(s.starts[n], s.pos+1)
				s.starts = s.starts[:n]
			}
		}
		s.pos++
		if depth == 0 {
			return nil
		}
	}
	s.pos = len(s.data)
	return s.fail("unclosed object or array")
}
