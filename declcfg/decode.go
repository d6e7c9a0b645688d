package declcfg

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// sniffLen is how far upstream looks for a leading '{' to pick JSON.
const sniffLen = 4096

// document is one top-level value of a catalog file, or the reason it could
// not be decoded.
type document struct {
	Value value.Value
	Line  int32
	Err   *Error // File is not set
	Src   Source // Path is not set
	// Dups are the keys Value held more than once, of which it keeps the
	// last.
	Dups []value.Duplicate
	// With a DocumentCache: the document's key, and the bundle loaded
	// from the same text before (then Value is not decoded).
	key    docKey
	cached *cachedDoc
	// A bundle typed straight from the bytes (then Value is not
	// decoded; see quickBundle), and its compact JSON if asked for
	// (valid during emit only).
	quick   *Bundle
	compact []byte
}

// decodeFile splits a catalog file into documents the way upstream's
// YAMLOrJSONDecoder does and passes each to emit, in order: a file whose
// first non-space byte (within 4 KiB) is '{' is a JSON stream, anything
// else a YAML stream; a JSON stream that fails before its second object is
// read again as YAML from the failing object on. Unlike upstream it does
// not stop at the first bad YAML document; each document's failure is
// reported on its own. With q, a JSON bundle in canonical form is typed
// straight from the bytes (see quickBundle). yd says how YAML documents
// are decoded.
func decodeFile(data []byte, cache *DocumentCache, q *quickDecoder, yd yamlDecoding, emit func(document)) {
	if value.LooksLikeJSON(data, sniffLen) {
		decodeJSONStream(data, q, yd, emit)
		return
	}
	decodeYAMLStream(data, 0, 1, cache, yd, emit)
}

// yamlDecoding is how a YAML document is decoded: its properties' values
// as trees, or (compact) compacted (see fbcyaml.DecodeCompactingProperties)
// for a loader that only types the documents it decodes. With arena, the
// document's collections are built there (and with arena.Values its
// properties' compact JSON: for a loader whose visitor keeps nothing of
// an object, WithTransientItems), and the arena is reset once the
// document has been emitted: nothing keeps a document's tree.
type yamlDecoding struct {
	compact bool
	arena   *fbcyaml.Arena
}

func decodeJSONStream(data []byte, q *quickDecoder, yd yamlDecoding, emit func(document)) {
	p := value.NewJSONParser(data, 1)
	count := 0
	rewind, rewindLine := 0, int32(1)
	for !p.AtEOF() {
		off, line := p.Offset(), p.Line()
		if q != nil {
			c := p.Cursor()
			if b, ok := q.bundle(&c); ok {
				p.Resume(c)
				emit(document{Line: int32(b.Pos.Line), Src: Source{Off: off, End: p.Offset(), Line: line}, quick: b, compact: q.doc})
				count++
				rewind, rewindLine = p.Offset(), p.Line()
				continue
			}
		}
		v, err := p.Next()
		if err == nil && v.Kind == value.Object {
			emit(document{Value: v, Line: v.Line, Src: Source{Off: off, End: p.Offset(), Line: line}, Dups: p.Duplicates()})
			count++
			rewind, rewindLine = p.Offset(), p.Line()
			continue
		}
		var failure *Error
		if err != nil {
			failure = jsonSyntaxError(err)
		} else {
			failure = notAnObject(&v)
		}
		failed := document{Line: failure.lineOr(v.Line), Err: failure}
		if count > 1 {
			// Two objects make this an unambiguous JSON stream.
			emit(failed)
			return
		}
		// Upstream retries the rest of the file as YAML; if that fails too,
		// the JSON error is the one that makes sense to the author.
		start, line := skipToYAML(data, rewind, rewindLine)
		const (
			pending = iota
			streaming
			stopped
		)
		state := pending
		decodeYAMLStream(data[start:], start, line, nil, yd, func(d document) {
			switch {
			case state == pending && d.Err != nil:
				emit(failed)
				state = stopped
			case state != stopped:
				emit(d)
				state = streaming
			}
		})
		if state == pending {
			emit(failed)
		}
		return
	}
}

// skipToYAML skips white space after the last good JSON object up to and
// including the first line break, as upstream does before switching to YAML.
func skipToYAML(data []byte, off int, line int32) (int, int32) {
	for off < len(data) {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError || !unicode.IsSpace(r) {
			break
		}
		off += size
		if r == '\n' {
			line++
			break
		}
	}
	return off, line
}

// decodeYAMLStream decodes data, which starts at offset base and line
// firstLine of its file. A document the cache (if any) holds is not
// decoded.
func decodeYAMLStream(data []byte, base int, firstLine int32, cache *DocumentCache, yd yamlDecoding, emit func(document)) {
	chunks, splitErr := fbcyaml.SplitDocuments(data, firstLine)
	for _, c := range chunks {
		var key docKey
		if cache != nil {
			k := cache.key(c.Data)
			hit, owner := cache.claim(k)
			if hit != nil {
				emit(document{Line: c.Line, Src: Source{Off: base + c.Off, End: base + c.End, Line: c.Line, YAML: true}, cached: hit})
				continue
			}
			if owner {
				key = k
			}
		}
		decodeYAMLDocument(c, base, key, yd, emit)
		if key.n > 0 {
			cache.settle(key)
		}
	}
	if splitErr != nil {
		var se *position.Error
		if errors.As(splitErr, &se) {
			emit(document{Line: int32(se.Line), Err: &Error{Line: se.Line, Message: se.Message}})
		}
	}
}

// decodeYAMLDocument decodes one document of a YAML stream that starts at
// offset base of its file; key is set when a DocumentCache is to record
// the document's bundle (see fileWalk.document).
func decodeYAMLDocument(c fbcyaml.Doc, base int, key docKey, yd yamlDecoding, emit func(document)) {
	var v value.Value
	var dups []value.Duplicate
	var err error
	if yd.arena != nil {
		defer yd.arena.Reset() // once emit has returned
	}
	if yd.compact {
		v, dups, err = fbcyaml.DecodeCompactingPropertiesIn(c.Data, c.Line, yd.arena)
	} else {
		v, dups, err = fbcyaml.DecodeWithDuplicatesIn(c.Data, c.Line, yd.arena)
	}
	switch {
	case err != nil:
		emit(document{Line: c.Line, Err: yamlSyntaxError(c.Data, c.Line, err)})
	case v.Kind == value.Null:
		emit(document{Line: c.Line, Err: &Error{Line: int(c.Line), Message: "empty YAML document: it holds only white space or comments; delete it together with its \"---\" separator"}})
	case v.Kind != value.Object:
		emit(document{Line: c.Line, Err: notAnObject(&v)})
	default:
		line := v.Line
		if line == 0 {
			line = c.Line
		}
		emit(document{Value: v, Line: line, Src: Source{Off: base + c.Off, End: base + c.End, Line: c.Line, YAML: true}, Dups: dups, key: key})
	}
}

// decodeDocument decodes the document src locates in data, the whole file.
func decodeDocument(data []byte, src Source) (value.Value, error) {
	if src.Off < 0 || src.End > len(data) || src.Off > src.End {
		return value.Value{}, errors.New("the document is no longer where it was")
	}
	raw := data[src.Off:src.End]
	if src.YAML {
		return fbcyaml.DecodeDocument(raw, src.Line)
	}
	return value.NewJSONParser(raw, src.Line).Next()
}

func (e *Error) lineOr(l int32) int32 {
	if e.Line > 0 {
		return int32(e.Line)
	}
	return l
}

func jsonSyntaxError(err error) *Error {
	var se *position.Error
	if errors.As(err, &se) {
		return &Error{Line: se.Line, Column: se.Column, Message: "invalid JSON: " + se.Message}
	}
	return &Error{Message: "invalid JSON: " + err.Error()}
}

// yamlSyntaxError places the error err of decoding the YAML document
// doc, which starts on file line docLine, at the line upstream names for
// it: go-yaml v2's, which upstream reads each document of a catalog with
// (see fbcyaml.SyntaxError), counted from the document's first line. A
// problem go-yaml names no line of (an unknown anchor, aliases that
// expand too far) is put on the document's first line.
func yamlSyntaxError(doc []byte, docLine int32, err error) *Error {
	ye := fbcyaml.SyntaxError(doc, docLine, err)
	if ye == nil {
		return &Error{Line: int(docLine), Message: "invalid YAML: " + err.Error()}
	}
	line := ye.Line
	if line == 0 {
		line = int(docLine)
	}
	return &Error{Line: line, Column: ye.Column, Message: "invalid YAML: " + ye.Message}
}

func notAnObject(v *value.Value) *Error {
	what := v.Kind.String()
	switch v.Kind {
	case value.String:
		what = fmt.Sprintf("the text %q", value.Truncate(v.Str, 40))
	case value.Array:
		what = "a list"
	case value.Number:
		what = "a number"
	case value.Bool:
		what = "a boolean"
	}
	return &Error{Line: int(v.Line), Column: int(v.Col), Message: fmt.Sprintf("document is %s, not an object: a catalog file holds only objects with a \"schema\" field (list files that are not catalog data in .indexignore)", what)}
}
