// Block collections of the fast path: mappings and sequences laid out
// by indentation, and the scalars and flow collections inside them.

package fbcyaml

import "github.com/fbcat/opm/encoding/value"

// block parses the node starting at pos, the first content of its line,
// at column indent, inside a collection at column parent.
func (p *fastParser) block(indent, parent int) value.Value {
	if p.at(p.pos) == '-' && p.isBlankEnd(p.pos+1) {
		return p.sequence(indent)
	}
	if p.isKey() {
		return p.mapping(indent)
	}
	return p.inlineValue(parent)
}

// mapping parses a block mapping whose keys are at column indent, the
// first one at pos.
func (p *fastParser) mapping(indent int) value.Value {
	p.nest()
	if p.props != 0 {
		p.propertyStart()
	}
	v := value.Value{Kind: value.Object}
	p.mark(&v)
	base := len(p.fields)
	typed := false
	for {
		var keyPos value.Value
		p.mark(&keyPos)
		key, plain, isTyped := p.key()
		typed = typed || isTyped
		if plain && key == "<<" {
			panic(bail{}) // merge keys
		}
		if p.depth == 1 {
			p.keyPos = append(p.keyPos, keyPos)
		}
		restore := p.propertyKey(key)
		val := p.mappingValue(indent)
		if p.props != 0 {
			val = p.propertyValue(key, val, restore)
		}
		if val.Line == 0 {
			val.Line, val.Col = keyPos.Line, keyPos.Col
		}
		p.fields = append(p.fields, value.Field{Key: key, Value: val})
		next, ok := p.peek()
		if !ok || next < indent {
			break
		}
		if next > indent {
			panic(bail{})
		}
		p.pos += next
		// The next line must hold a key: key gives up if it does not.
	}
	if p.depth == 1 {
		p.dups = value.FindDuplicates(p.fields[base:], func(i int) (int32, int32) { return p.keyPos[i].Line, p.keyPos[i].Col })
	}
	v.Fields = p.takeFields(base, typed)
	p.depth--
	return v
}

// takeFields copies the members of the mapping that starts at base of the
// scratch stack out of it, sorted by key, and pops them. Of equal keys
// the last one wins, as in go-yaml, unless typed (a key of the mapping
// was a number or a boolean): then two keys may be equal only as text
// ("1" and 1.0), and which one upstream keeps is left to go-yaml's path.
func (p *fastParser) takeFields(base int, typed bool) []value.Field {
	n := len(p.fields) - base
	var fields []value.Field
	switch {
	case p.compacting():
		fields = value.NormalizeFields(p.fieldArena.take(p.fields[base:]))
	case p.arena != nil:
		fields = value.NormalizeFields(p.arena.fields.take(p.fields[base:]))
	default:
		fields = value.NormalizeFields(append(make([]value.Field, 0, n), p.fields[base:]...))
	}
	if typed && len(fields) < n {
		panic(bail{})
	}
	clear(p.fields[base:])
	p.fields = p.fields[:base]
	return fields
}

// mappingValue parses what follows "key:".
func (p *fastParser) mappingValue(indent int) value.Value {
	p.skipSpaces()
	c := p.at(p.pos)
	if c != '\n' && c != 0 && c != '#' {
		return p.inlineValue(indent)
	}
	if c == '#' && p.at(p.pos-1) != ' ' {
		panic(bail{})
	}
	p.endLine()
	next, ok := p.peek()
	switch {
	case !ok:
	case next > indent:
		p.pos += next
		return p.block(next, indent)
	case next == indent && p.at(p.pos+next) == '-' && p.isBlankEnd(p.pos+next+1):
		p.pos += next
		return p.sequence(next)
	}
	return value.Value{Kind: value.Null}
}

// sequence parses a block sequence whose "-" are at column indent, the
// first one at pos.
func (p *fastParser) sequence(indent int) value.Value {
	p.nest()
	restore := p.propertyList()
	v := value.Value{Kind: value.Array}
	p.mark(&v)
	base := len(p.items)
	for {
		var itemPos value.Value
		p.mark(&itemPos)
		p.pos++ // '-'
		p.skipSpaces()
		var item value.Value
		switch c := p.at(p.pos); {
		case c == '\n' || c == 0 || c == '#':
			if c == '#' && p.at(p.pos-1) != ' ' {
				panic(bail{})
			}
			p.endLine()
			if next, ok := p.peek(); ok && next > indent {
				p.pos += next
				item = p.block(next, indent)
			} else {
				item = value.Value{Kind: value.Null, Line: itemPos.Line, Col: itemPos.Col}
			}
		case c == '-' && p.isBlankEnd(p.pos+1):
			item = p.sequence(p.col())
		case p.isKey():
			item = p.mapping(p.col())
		default:
			item = p.inlineValue(indent)
		}
		p.items = append(p.items, item)
		next, ok := p.peek()
		if !ok || next < indent {
			break
		}
		if next > indent {
			panic(bail{})
		}
		if p.at(p.pos+next) != '-' || !p.isBlankEnd(p.pos+next+1) {
			break // the next key of the mapping an indentless sequence is in
		}
		p.pos += next
	}
	v.Items = p.takeItems(base)
	p.props = restore
	p.depth--
	return v
}

// takeItems copies the items of the sequence that starts at base of the
// scratch stack out of it, and pops them.
func (p *fastParser) takeItems(base int) []value.Value {
	var items []value.Value
	switch {
	case p.compacting():
		items = p.itemArena.take(p.items[base:])
	case p.arena != nil:
		items = p.arena.items.take(p.items[base:])
	default:
		items = append(make([]value.Value, 0, len(p.items)-base), p.items[base:]...)
	}
	clear(p.items[base:])
	p.items = p.items[:base]
	return items
}

// inlineValue parses a scalar or empty collection that starts at pos, in
// a collection at column parent.
func (p *fastParser) inlineValue(parent int) value.Value {
	var v value.Value
	p.mark(&v)
	line, col := v.Line, v.Col
	switch c := p.at(p.pos); c {
	case '|':
		v = value.Value{Kind: value.String, Str: p.literal(parent)}
	case '"':
		v = value.Value{Kind: value.String, Str: p.doubleQuoted(parent)}
		p.endLine()
	case '\'':
		v = value.Value{Kind: value.String, Str: p.singleQuoted(parent)}
		p.endLine()
	case '{', '[':
		v = p.flowNode()
		p.endLine()
	default:
		if !plainStart(c, p.at(p.pos+1)) {
			panic(bail{})
		}
		v = resolveValue(p.plain(parent))
		p.noteNumber(&v)
	}
	v.Line, v.Col = line, col
	p.checkFinite(&v)
	return v
}
