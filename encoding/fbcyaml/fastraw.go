// Property values handed out compacted: a caller that only compacts the
// values of a document's properties (render, which writes each value as
// JSON and looks at nothing inside it) asks the fast path for them as
// value.Raw. They are most of a catalog's bytes (a bundle's CSV metadata),
// and as trees they were allocated node by node, to be compacted and
// dropped once the document was typed. Here the collections of such a
// value are built in arenas the parser keeps, the value is compacted as
// soon as it is complete, and the arenas are reused for the next one.

package fbcyaml

import (
	"bytes"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// Where the fast path is, for compactProps.
const (
	inProperties    = 1 << iota // the value of the document's "properties"
	inPropertyList              // the items of that value, a sequence
	inPropertyValue             // the value of a property, being compacted
)

// A property's value is compacted only once its type is known, and not if
// it is olm.bundle.object, whose data the loader checks in the tree (see
// declcfg's bundleObjectErrors).
const bundleObjectType = "olm.bundle.object"

// propertyStart notes, in a mapping just entered, whether it is one of
// the document's properties, whose type is not known yet.
func (p *fastParser) propertyStart() {
	if p.depth == 3 && p.props == inProperties|inPropertyList {
		p.propType, p.propCompacted = "", false
	}
}

// propertyKey notes, before the value of key is parsed in a mapping at
// the current depth, whether that value is the list of the document's
// properties or the value of one of them to compact, and returns what to
// restore once it is parsed (see propertyValue).
func (p *fastParser) propertyKey(key string) (restore uint8) {
	restore = p.props
	switch {
	case !p.compactProps:
	case p.depth == 1 && key == "properties":
		p.props = inProperties
	case p.depth == 3 && p.props == inProperties|inPropertyList && key == "value" && p.propType != "" && p.propType != bundleObjectType:
		p.props |= inPropertyValue
		p.keepTree = false
	}
	return restore
}

// propertyValue takes the value v of key just parsed: compacts it if it
// is a property's value, notes a property's type, and restores where the
// parser is to restore.
func (p *fastParser) propertyValue(key string, v value.Value, restore uint8) value.Value {
	if p.compacting() && restore&inPropertyValue == 0 {
		v = p.compactProperty(v)
		p.propCompacted = true
	}
	p.props = restore
	if p.depth == 3 && p.props == inProperties|inPropertyList && key == "type" {
		if p.propCompacted {
			// A second type after the value: the value may be
			// olm.bundle.object's after all. Such a document is read
			// again with its trees whole.
			panic(uncompacted{})
		}
		p.propType = ""
		if v.Kind == value.String {
			p.propType = v.Str
		}
	}
	return v
}

// propertyList notes, in a sequence just entered, whether its items are
// the document's properties, and returns what to restore when it ends.
func (p *fastParser) propertyList() (restore uint8) {
	restore = p.props
	if p.props == inProperties && p.depth == 2 {
		p.props |= inPropertyList
	}
	return restore
}

// compacting reports whether the collection being completed belongs to a
// property value being compacted.
func (p *fastParser) compacting() bool { return p.props&inPropertyValue != 0 }

// noteNumber keeps the tree of the property value being compacted if v,
// a scalar of it, is an integer with more digits than a float64 holds
// exactly: the loader warns of those (declcfg's roundedNumbers), with
// their line, which compact JSON no longer tells.
func (p *fastParser) noteNumber(v *value.Value) {
	if v.Kind == value.Number && len(v.Str) > 15 && p.compacting() {
		p.keepTree = true
	}
}

// compactProperty turns a property value that is a collection into its
// compact JSON (or, if it must be kept as a tree, copies it out of the
// arenas) and empties the arenas its nodes were built in.
func (p *fastParser) compactProperty(v value.Value) value.Value {
	if v.Kind != value.Object && v.Kind != value.Array {
		return v
	}
	var out value.Value
	if p.keepTree {
		out = copyTree(v)
	} else {
		p.raw = value.AppendCompact(p.raw[:0], &v)
		// A copy of its own, for Compact to hand out (see value.Raw), or
		// the caller's to reuse.
		var b []byte
		if p.arena != nil && p.arena.Values {
			b = p.arena.raw.take(p.raw)
		} else {
			b = bytes.Clone(p.raw)
		}
		out = value.Value{Kind: value.Raw, Str: owned(b), Line: v.Line, Col: v.Col}
	}
	p.resetArenas()
	return out
}

// resetArenas empties the arenas the collections and the built texts of
// a property value being compacted were kept in.
func (p *fastParser) resetArenas() {
	p.fieldArena.reset()
	p.itemArena.reset()
	p.textArena.reset()
}

// builtText returns, as a string, a scalar's text that was built in
// p.text (folded, unescaped or a block), which keeps the space b grew
// to: in a property value being compacted, a copy in the text arena,
// which lives until the value is (see compactProperty); elsewhere a
// string of its own, interned if short.
func (p *fastParser) builtText(b []byte) string {
	p.text = b[:0]
	if p.compacting() {
		return owned(p.textArena.take(b))
	}
	return p.intern(b)
}

// copyTree copies the collections of v out of the arenas, and its
// strings off the document's bytes (see scalarText).
func copyTree(v value.Value) value.Value {
	v.Str = strings.Clone(v.Str)
	switch v.Kind {
	case value.Object:
		fields := make([]value.Field, len(v.Fields))
		for i, f := range v.Fields {
			fields[i] = value.Field{Key: strings.Clone(f.Key), Value: copyTree(f.Value)}
		}
		v.Fields = fields
	case value.Array:
		items := make([]value.Value, len(v.Items))
		for i := range v.Items {
			items[i] = copyTree(v.Items[i])
		}
		v.Items = items
	}
	return v
}
