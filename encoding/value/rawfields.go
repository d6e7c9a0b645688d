package value

import (
	"bytes"
	"fmt"
)

// RawFields returns the raw JSON of the members of the JSON object data
// whose names are among keys (the first member of each name), skipping
// the other members without decoding them. It is for reading a few small
// members of a large object, such as the install modes of an
// olm.csv.metadata value whose description and examples make up most of
// it. Skipped members are checked only for balanced brackets and closed
// strings; the returned values are not checked at all, so decode them
// with a validating decoder.
func RawFields(data []byte, keys ...string) (map[string][]byte, error) {
	s := rawScanner{data: data}
	s.space()
	if !s.byte('{') {
		return nil, s.fail("the value is not a JSON object")
	}
	out := map[string][]byte{}
	s.space()
	if s.byte('}') {
		return out, nil
	}
	for {
		s.space()
		key, err := s.key()
		if err != nil {
			return nil, err
		}
		s.space()
		if !s.byte(':') {
			return nil, s.fail("expected ':' after an object key")
		}
		s.space()
		start := s.pos
		if err := s.skipValue(); err != nil {
			return nil, err
		}
		if _, seen := out[key]; !seen && contains(keys, key) {
			out[key] = data[start:s.pos]
		}
		s.space()
		if s.byte('}') {
			return out, nil
		}
		if !s.byte(',') {
			return nil, s.fail("expected ',' or '}' after an object member")
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// rawScanner walks JSON text without building values.
type rawScanner struct {
	data []byte
	pos  int
}

func (s *rawScanner) fail(msg string) error {
	return fmt.Errorf("offset %d: %s", s.pos, msg)
}

func (s *rawScanner) space() {
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
func (s *rawScanner) byte(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// key reads an object key; keys with escapes are decoded by ParseJSON.
func (s *rawScanner) key() (string, error) {
	start := s.pos
	if err := s.skipString(); err != nil {
		return "", err
	}
	raw := s.data[start:s.pos]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	v, err := ParseJSON(raw)
	if err != nil {
		return "", err
	}
	return v.Str, nil
}

// skipString skips a string, the opening quote next. The closing quote
// is the first quote after an even number of backslashes.
func (s *rawScanner) skipString() error {
	if !s.byte('"') {
		return s.fail("expected a string")
	}
	for {
		i := bytes.IndexByte(s.data[s.pos:], '"')
		if i < 0 {
			return s.fail("unclosed string")
		}
		s.pos += i + 1
		backslashes := 0
		for j := s.pos - 2; j >= 0 && s.data[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return nil
		}
	}
}

// skipValue skips one value: a string, an object or array (strings and
// brackets inside followed), or a scalar running to the next delimiter.
func (s *rawScanner) skipValue() error {
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
	for s.pos < len(s.data) && bytes.IndexByte([]byte(",}] \t\n\r"), s.data[s.pos]) < 0 {
		s.pos++
	}
	if s.pos == start {
		return s.fail("expected a value")
	}
	return nil
}

// skipNested skips an object or array, its opening bracket next.
func (s *rawScanner) skipNested() error {
	depth := 0
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '"':
			if err := s.skipString(); err != nil {
				return err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		s.pos++
		if depth == 0 {
			return nil
		}
	}
	return s.fail("unclosed object or array")
}
