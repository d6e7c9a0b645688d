package fbcyaml

import (
	"bytes"
	"sync"
	"unsafe"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// The fast path reads the YAML that catalogs are made of (what go-yaml
// writes, and what people write by hand): block mappings and sequences
// indented with spaces, plain, single- and double-quoted scalars (also over
// several lines), literal block scalars, comments, and flow collections
// that fit on one line. Anything else (anchors, tags, flow collections over
// several lines, folded scalars, tabs, merge keys, ...) makes it give up, and the
// document is read by go-yaml instead. It reports no syntax errors of its
// own: malformed input also goes to go-yaml, which words the error. Where
// it does accept a document, the tree it builds is the one go-yaml would
// produce (the differential tests hold it to that), with positions. The
// one error it does report is a number JSON cannot hold (NaN, infinities),
// which go-yaml reads without complaint, so that it points at the value.
//
// The parser is in parts: the scanner (fastscan.go), block collections
// (fastblock.go), keys (fastkey.go), plain, quoted and literal scalars
// (fastplain.go, fastquoted.go, fastliteral.go) and flow collections
// (fastflow.go).

// bail aborts the fast path.
type bail struct{}

// uncompacted starts the fast path over without compacting property
// values (see fastraw.go).
type uncompacted struct{}

// fastParser is the state of the fast path over one document.
type fastParser struct {
	d         []byte
	pos       int
	line      int32
	lineStart int

	// Scratch stacks for the members of the collections being parsed;
	// each collection copies its members out once complete.
	fields []value.Field
	items  []value.Value

	depth     int             // collections open around pos
	nonFinite *position.Error // the first NaN or infinity of the document
	// text is scratch space for the scalars built rather than taken from
	// the document (blocks, folded and quoted scalars); see builtText.
	text []byte
	// keyPos holds the positions of the keys of the top-level mapping,
	// in order; dups the keys it holds more than once.
	keyPos []value.Value
	dups   []value.Duplicate
	// strs holds short keys and plain scalars already read, kept across
	// documents: catalogs repeat them (field names, groups, kinds,
	// versions, descriptors) bundle after bundle.
	strs *shortStrings[struct{}]
	// seenKey spares key a second scan of the key isKey just found.
	seenKey seenKey

	// With compactProps, the values of the document's properties that
	// are collections are built in the arenas and compacted as soon as
	// they are complete (see fastraw.go); props says where the parser
	// is, raw is scratch space for the compact JSON.
	compactProps bool
	props        uint8
	propType     string // the type of the property being parsed, if read
	// propCompacted: the value of the property being parsed was compacted.
	propCompacted bool
	keepTree      bool // the property value being compacted stays a tree
	fieldArena    arena[value.Field]
	itemArena     arena[value.Value]
	textArena     arena[byte]
	raw           []byte
	arena         *Arena // the caller's, for the document's tree (see Arena)
}

// A parser keeps internSlots strings of up to internLen bytes.
const (
	internLen   = 48
	internSlots = 1 << 12
)

// intern returns text as a string, one it made before for the same text
// if it is short.
func (p *fastParser) intern(text []byte) string {
	if len(text) > internLen {
		return string(text)
	}
	if p.strs == nil {
		p.strs = newShortStrings[struct{}](internSlots)
	}
	// The text is looked up in place; only a string not there is copied.
	e, ok := p.strs.at(unsafe.String(unsafe.SliceData(text), len(text)))
	if !ok {
		e.s = string(text)
	}
	return e.s
}

// scalarText returns the text of a scalar on one line of the document:
// in a property value being compacted, the document's own bytes, which
// outlive the value's tree (see compactProperty); elsewhere a string of
// its own, interned if short.
func (p *fastParser) scalarText(text []byte) string {
	if p.compacting() {
		return unsafe.String(unsafe.SliceData(text), len(text))
	}
	return p.intern(text)
}

// owned returns b, which nothing else holds or changes, as a string
// without copying it.
func owned(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// parsers keeps fastParsers, with their scratch stacks, between documents.
var parsers = sync.Pool{New: func() any { return new(fastParser) }}

// fastDecode reads doc, whose first line is line, on the fast path. ok is
// false when the fast path gave up and go-yaml must read the document.
func fastDecode(doc []byte, line int32, compactProps bool, a *Arena) (v value.Value, dups []value.Duplicate, ok bool, err error) {
	if !fastSafe(doc) {
		return value.Value{}, nil, false, nil
	}
	defer func() {
		switch r := recover(); r.(type) {
		case nil:
		case bail:
			v, dups, ok, err = value.Value{}, nil, false, nil
		case uncompacted:
			v, dups, ok, err = fastDecode(doc, line, false, a)
		default:
			panic(r)
		}
	}()
	p := parsers.Get().(*fastParser)
	defer func() {
		clear(p.fields)
		clear(p.items)
		p.resetArenas()
		*p = fastParser{fields: p.fields[:0], items: p.items[:0], text: p.text[:0], keyPos: p.keyPos[:0], strs: p.strs,
			fieldArena: p.fieldArena, itemArena: p.itemArena, textArena: p.textArena, raw: p.raw[:0]}
		parsers.Put(p)
	}()
	p.d, p.line, p.compactProps, p.arena = doc, line, compactProps, a
	v = p.document()
	if p.nonFinite != nil {
		return value.Value{}, nil, true, p.nonFinite
	}
	return v, p.dups, true, nil
}

// document parses the whole document: a mapping, or nothing at all.
func (p *fastParser) document() value.Value {
	if bytes.HasPrefix(p.d, []byte("---")) && p.isBlankEnd(3) {
		p.pos = 3
		p.endLine()
	}
	indent, ok := p.peek()
	if !ok {
		return value.Value{Kind: value.Null}
	}
	p.pos += indent
	if !p.isKey() {
		panic(bail{}) // documents that are not mappings are errors; go-yaml words them
	}
	v := p.mapping(indent)
	if _, ok := p.peek(); ok {
		panic(bail{})
	}
	return v
}

// nest enters a collection. Documents nested deeper than go-yaml allows
// are left to it, to word the error.
func (p *fastParser) nest() {
	p.depth++
	if p.depth > value.MaxDepth {
		panic(bail{})
	}
}
