package fbcyaml

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/fbcat/opm/encoding/value"
)

// The layout go-yaml v2 uses by default.
const (
	bestIndent = 2
	bestWidth  = 80
)

// emitter keeps the state go-yaml v2's emitter tracks while it writes a
// document (the current column in characters, the indentation, whether the
// last thing written was white space or indentation) and the JSON it
// reads the document from.
type emitter struct {
	out        []byte
	column     int
	indent     int
	whitespace bool
	indention  bool

	js      string      // the JSON text
	raw     []byte      // the same text, as bytes
	members []member    // members of the objects being written, innermost last
	ends    map[int]int // where the objects and arrays skipped end, by start
	depth   int
	buf     []byte // scratch for decoding strings

	// known holds go-yaml's analysis of the short strings met last (keys,
	// types, groups, kinds, versions). It stays with the emitter in its
	// pool.
	known *shortStrings[scalarData]
}

// The emitter remembers the analysis of strings of up to knownLen bytes,
// in knownSize places.
const (
	knownLen  = 48
	knownSize = 1024
)

// member is an object member: its key and where its value starts.
type member struct {
	key string
	val int
}

// nodeContext says where a node sits, which decides its layout.
type nodeContext struct {
	mapping   bool
	simpleKey bool
}

var emitters = sync.Pool{New: func() any { return new(emitter) }}

// AppendJSON appends the YAML document that sigs.k8s.io/yaml.JSONToYAML
// makes of the JSON value js, as upstream writes YAML: keys in go-yaml's
// order, numbers and strings as go-yaml writes what it read. The document
// ends with a newline and carries no "---" marker. White space between
// tokens is allowed; an error is returned for input that is not JSON.
func AppendJSON(dst, js []byte) ([]byte, error) {
	e := emitters.Get().(*emitter)
	defer func() {
		clear(e.members)
		if len(e.ends) > 4096 {
			e.ends = nil // a large document's: not kept for the next
		}
		clear(e.ends)
		*e = emitter{members: e.members[:0], buf: e.buf[:0], ends: e.ends, known: e.known}
		emitters.Put(e)
	}()
	e.out, e.indent, e.whitespace, e.indention = dst, -1, true, true
	// The string shares js's bytes, which are only read, and only during
	// this call: scalars are copied into the output.
	e.js, e.raw = unsafe.String(unsafe.SliceData(js), len(js)), js
	i, err := e.value(skipSpace(e.js, 0), nodeContext{})
	if err == nil && skipSpace(e.js, i) != len(e.js) {
		err = e.syntaxError(skipSpace(e.js, i), "after the value")
	}
	if err != nil {
		return dst, err
	}
	e.writeIndent() // document end
	return e.out, nil
}

// AppendDocument appends v as one YAML document, byte-identical to what
// sigs.k8s.io/yaml.JSONToYAML produces for v's JSON encoding. v's numbers
// must be finite, as JSON's are.
func AppendDocument(dst []byte, v *value.Value) []byte {
	out, err := AppendJSON(dst, value.AppendCompact(nil, v))
	if err != nil {
		panic(fmt.Sprintf("fbcyaml: a tree's own JSON is not JSON: %v", err))
	}
	return out
}

func (e *emitter) syntaxError(i int, where string) error {
	if i >= len(e.js) {
		return fmt.Errorf("writing YAML: unexpected end of JSON %s", where)
	}
	return fmt.Errorf("writing YAML: invalid character %q in JSON %s at offset %d", e.js[i], where, i)
}

var errTooDeep = errors.New("writing YAML: JSON nested too deeply")

// value writes the JSON value at i and returns the offset after it.
func (e *emitter) value(i int, ctx nodeContext) (int, error) {
	if i >= len(e.js) {
		return i, e.syntaxError(i, "looking for a value")
	}
	switch c := e.js[i]; {
	case c == '{':
		return e.object(i, ctx)
	case c == '[':
		return e.array(i, ctx)
	case c == '"':
		s, end, err := e.str(i)
		if err == nil {
			e.scalar(e.stringScalar(s), ctx)
		}
		return end, err
	case c == '-' || c >= '0' && c <= '9':
		end := numberEnd(e.js, i)
		if end < 0 {
			return i, e.syntaxError(i, "in a number")
		}
		e.scalar(plainScalar(numberText(e.js[i:end])), ctx)
		return end, nil
	}
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(e.js[i:], lit) {
			e.scalar(plainScalar(lit), ctx)
			return i + len(lit), nil
		}
	}
	return i, e.syntaxError(i, "looking for a value")
}

// object writes the object at i as a block mapping, its members in
// go-yaml's key order.
func (e *emitter) object(i int, ctx nodeContext) (int, error) {
	if e.depth++; e.depth > value.MaxDepth {
		return i, errTooDeep
	}
	defer func() { e.depth-- }()
	base := len(e.members)
	i = skipSpace(e.js, i+1)
	if i < len(e.js) && e.js[i] == '}' {
		e.emptyCollection("{", "}")
		return i + 1, nil
	}
	if end, ok := e.objectInOrder(i); ok {
		return end, nil
	}
	for {
		if i >= len(e.js) || e.js[i] != '"' {
			return i, e.syntaxError(i, "looking for an object key")
		}
		key, next, err := e.str(i)
		if err != nil {
			return i, err
		}
		if i = skipSpace(e.js, next); i >= len(e.js) || e.js[i] != ':' {
			return i, e.syntaxError(i, "after an object key")
		}
		start := skipSpace(e.js, i+1)
		end, err := e.skipValue(start)
		if err != nil {
			return start, err
		}
		e.members = append(e.members, member{key: key, val: start})
		if i = skipSpace(e.js, end); i < len(e.js) && e.js[i] == ',' {
			i = skipSpace(e.js, i+1)
			continue
		}
		if i >= len(e.js) || e.js[i] != '}' {
			return i, e.syntaxError(i, "after an object member")
		}
		break
	}
	end := i + 1
	n := base + len(sortMembers(e.members[base:]))
	saved := e.increaseIndent(false, false)
	for k := base; k < n; k++ {
		m := e.members[k] // by index: writing the value may grow e.members
		e.mappingKey(m.key)
		if _, err := e.value(m.val, nodeContext{mapping: true}); err != nil {
			return m.val, err
		}
	}
	e.indent = saved
	clear(e.members[base:])
	e.members = e.members[:base]
	return end, nil
}

// mappingKey writes a key of a block mapping on a line of its own, and
// the ':' after it: a simple key if it fits on one line, else an explicit
// one ("? key").
func (e *emitter) mappingKey(key string) {
	e.writeIndent()
	k := e.stringScalar(key)
	if !k.multiline && len(k.text) <= 128 {
		e.scalar(k, nodeContext{mapping: true, simpleKey: true})
		e.writeIndicator(":", false, false, false)
		return
	}
	e.writeIndicator("?", true, false, true)
	e.scalar(k, nodeContext{mapping: true})
	e.writeIndent()
	e.writeIndicator(":", true, false, true)
}

// stringScalar is stringScalar(s), remembered for short strings.
func (e *emitter) stringScalar(s string) scalarData {
	if len(s) == 0 || len(s) > knownLen {
		return stringScalar(s)
	}
	if e.known == nil {
		e.known = newShortStrings[scalarData](knownSize)
	}
	at, ok := e.known.at(s)
	if !ok {
		at.s = strings.Clone(s)
		at.v = stringScalar(at.s)
	}
	return at.v
}

// objectInOrder writes the members of the object whose first key is at
// i as they come, which is what object does when they come in go-yaml's
// order (the common case: JSON written from a tree has its keys in byte
// order, which is go-yaml's for most keys), without skipping each value
// first to find the next key. At the first key out of that order, or at
// anything that is not JSON, it takes back what it wrote and returns
// false, for object to do it the long way.
func (e *emitter) objectInOrder(i int) (int, bool) {
	out, members := len(e.out), len(e.members)
	column, indent, whitespace, indention := e.column, e.indent, e.whitespace, e.indention
	undo := func() (int, bool) {
		// A member that failed may leave its own members behind.
		clear(e.members[members:])
		e.out, e.members = e.out[:out], e.members[:members]
		e.column, e.indent, e.whitespace, e.indention = column, indent, whitespace, indention
		return i, false
	}
	saved := e.increaseIndent(false, false)
	prev := ""
	for first := true; ; first = false {
		if i >= len(e.js) || e.js[i] != '"' {
			return undo()
		}
		key, next, err := e.str(i)
		if err != nil || !first && (prev >= key || keyLess(key, prev)) {
			return undo()
		}
		if next = skipSpace(e.js, next); next >= len(e.js) || e.js[next] != ':' {
			return undo()
		}
		e.mappingKey(key)
		end, err := e.value(skipSpace(e.js, next+1), nodeContext{mapping: true})
		if err != nil {
			return undo()
		}
		prev = key
		if end = skipSpace(e.js, end); end < len(e.js) && e.js[end] == ',' {
			i = skipSpace(e.js, end+1)
			continue
		}
		if end >= len(e.js) || e.js[end] != '}' {
			return undo()
		}
		e.indent = saved
		return end + 1, true
	}
}

// array writes the array at i as a block sequence.
func (e *emitter) array(i int, ctx nodeContext) (int, error) {
	if e.depth++; e.depth > value.MaxDepth {
		return i, errTooDeep
	}
	defer func() { e.depth-- }()
	i = skipSpace(e.js, i+1)
	if i < len(e.js) && e.js[i] == ']' {
		e.emptyCollection("[", "]")
		return i + 1, nil
	}
	saved := e.increaseIndent(false, ctx.mapping && !e.indention)
	for {
		e.writeIndent()
		e.writeIndicator("-", true, false, true)
		end, err := e.value(i, nodeContext{})
		if err != nil {
			return end, err
		}
		if i = skipSpace(e.js, end); i < len(e.js) && e.js[i] == ',' {
			i = skipSpace(e.js, i+1)
			continue
		}
		if i >= len(e.js) || e.js[i] != ']' {
			return i, e.syntaxError(i, "after an array element")
		}
		break
	}
	e.indent = saved
	return i + 1, nil
}

// emptyCollection writes {} or [], which go-yaml writes in flow style.
func (e *emitter) emptyCollection(open, close string) {
	e.writeIndicator(open, true, true, false)
	e.writeIndicator(close, false, false, false)
}

func (e *emitter) put(b byte) {
	e.out = append(e.out, b)
	e.column++
}

func (e *emitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
}

func (e *emitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace = true
	e.indention = true
}

// writeIndicator writes an ASCII indicator.
func (e *emitter) writeIndicator(ind string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, ind...)
	e.column += len(ind)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

func (e *emitter) increaseIndent(flow, indentless bool) int {
	saved := e.indent
	if e.indent < 0 {
		if flow {
			e.indent = bestIndent
		} else {
			e.indent = 0
		}
	} else if !indentless {
		e.indent += bestIndent
	}
	return saved
}
