// Reading compact JSON many times over without building a tree: a Tape
// indexes every value of the text in one pass, containers before their
// contents, so that a reader can look at an object's keys, then at the
// members it wants, and skip the rest at once.

package value

import (
	"bytes"
	"strconv"
	"unsafe"
)

// Tape is an index of a compact JSON text (no white space between
// tokens), as AppendCompact writes one: a node for every value, in
// document order, a container's node followed by those of its contents.
// Its slices are reused by the next Parse.
type Tape struct {
	Data  []byte
	Nodes []Node
	text  []byte // a decoded string (see Text)
	stack []int32
}

// Node is one value of a Tape.
type Node struct {
	Kind Kind
	// Start and End locate the value's text in Data (a string's with its
	// quotes).
	Start, End int32
	// KeyStart and KeyEnd locate the key of an object member (with its
	// quotes); both are 0 for other values.
	KeyStart, KeyEnd int32
	// Next is the index of the node after the value and its contents.
	Next int32
	// Len is the number of members or elements of an object or array.
	Len int32
}

// Parse indexes data, which must hold exactly one compact JSON value.
// It reports false for anything else, or for a text of 2 GiB or more; it
// checks the syntax, but not that strings are valid UTF-8 or numbers
// well formed beyond their characters (see Number). Containers are
// indexed without recursion: the stack holds those that are open.
func (t *Tape) Parse(data []byte) bool {
	t.Data, t.Nodes, t.stack = data, t.Nodes[:0], t.stack[:0]
	d := data
	if len(d) >= 1<<31 {
		return false
	}
	pos, ok := 0, true
	var ks, ke int32 // the key of the value at pos, if a member
	for {
		// A value starts at pos.
		if pos >= len(d) {
			return false
		}
		n := Node{Start: int32(pos), KeyStart: ks, KeyEnd: ke}
		switch b := d[pos]; {
		case b == '{' || b == '[':
			n.Kind = Array
			if b == '{' {
				n.Kind = Object
			}
			t.stack = append(t.stack, int32(len(t.Nodes)))
			t.Nodes = append(t.Nodes, n)
			pos++
			if pos < len(d) && d[pos] == b+2 { // '}' or ']': empty
				pos = t.close(pos)
				break
			}
			ks, ke = 0, 0
			if b == '{' {
				if pos, ks, ke, ok = t.key(pos); !ok {
					return false
				}
			}
			continue
		default:
			if n.Kind, pos, ok = scalar(d, pos); !ok {
				return false
			}
			n.End, n.Next = int32(pos), int32(len(t.Nodes)+1)
			t.Nodes = append(t.Nodes, n)
		}
		var more bool
		if pos, ks, ke, more = t.after(pos); !more {
			return pos == len(d) && len(t.stack) == 0
		}
	}
}

// after is called where a value ends, at pos: it counts the value in its
// container and reads on to where the next member or element starts (and
// that member's key), ending the containers that end first. more is
// false when nothing follows: at the end of the top-level value, or at a
// syntax error (then pos is not the end of the text, or a container is
// left open).
func (t *Tape) after(pos int) (next int, ks, ke int32, more bool) {
	d := t.Data
	for len(t.stack) > 0 {
		open := &t.Nodes[t.stack[len(t.stack)-1]]
		open.Len++
		if pos >= len(d) {
			return pos, 0, 0, false
		}
		if d[pos] == ',' {
			if open.Kind == Object {
				next, ks, ke, more = t.key(pos + 1)
				return next, ks, ke, more
			}
			return pos + 1, 0, 0, true
		}
		if open.Kind == Object && d[pos] != '}' || open.Kind == Array && d[pos] != ']' {
			return pos, 0, 0, false
		}
		pos = t.close(pos)
	}
	return pos, 0, 0, false
}

// scalar reads the string, number, boolean or null at pos, and returns
// its kind and the offset after it.
func scalar(d []byte, pos int) (Kind, int, bool) {
	switch b := d[pos]; {
	case b == '"':
		end, ok := StringEnd(d, pos)
		return String, end, ok
	case b == 't' || b == 'f' || b == 'n':
		w, kind := "null", Null
		switch b {
		case 't':
			w, kind = "true", Bool
		case 'f':
			w, kind = "false", Bool
		}
		return kind, pos + len(w), bytes.HasPrefix(d[pos:], []byte(w))
	case b == '-' || b >= '0' && b <= '9':
		for pos++; pos < len(d) && numberByte(d[pos]); pos++ {
		}
		return Number, pos, true
	}
	return 0, pos, false
}

// close ends the innermost open container, whose closing bracket is at
// pos, and returns the offset after it.
func (t *Tape) close(pos int) int {
	i := t.stack[len(t.stack)-1]
	t.stack = t.stack[:len(t.stack)-1]
	n := &t.Nodes[i]
	n.End, n.Next = int32(pos+1), int32(len(t.Nodes))
	return pos + 1
}

// key reads an object key and its colon at pos.
func (t *Tape) key(pos int) (next int, ks, ke int32, ok bool) {
	d := t.Data
	if pos >= len(d) || d[pos] != '"' {
		return pos, 0, 0, false
	}
	end, ok := StringEnd(d, pos)
	if !ok || end >= len(d) || d[end] != ':' {
		return pos, 0, 0, false
	}
	return end + 1, int32(pos), int32(end), true
}

func numberByte(b byte) bool {
	return b >= '0' && b <= '9' || b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-'
}

// Key is the key of node i, decoded (see Text).
func (t *Tape) Key(i int32) string {
	n := &t.Nodes[i]
	return t.decode(n.KeyStart, n.KeyEnd)
}

// Text is the text of string node i, decoded as the parser decodes it.
// Without escapes it is the bytes of Data; either way it is valid only
// until the next call of Key or Text, or until Data changes.
func (t *Tape) Text(i int32) string {
	n := &t.Nodes[i]
	return t.decode(n.Start, n.End)
}

func (t *Tape) decode(start, end int32) string {
	raw := t.Data[start:end]
	if len(raw) < 2 {
		return ""
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return unsafe.String(unsafe.SliceData(inner), len(inner))
	}
	var ok bool
	if t.text, ok = AppendRawString(t.text[:0], raw); !ok {
		return ""
	}
	return unsafe.String(unsafe.SliceData(t.text), len(t.text))
}

// Number is the value of number node i as the parser reads it, and
// whether the node is a well-formed number.
func (t *Tape) Number(i int32) (float64, bool) {
	n := &t.Nodes[i]
	raw := t.Data[n.Start:n.End]
	if !wellFormedNumber(raw) {
		return 0, false
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(raw), len(raw)), 64)
	return f, err == nil
}

// wellFormedNumber reports whether raw is a JSON number literal.
func wellFormedNumber(raw []byte) bool {
	p := JSONParser{data: raw}
	_, err := p.number()
	return err == nil && p.pos == len(raw)
}
