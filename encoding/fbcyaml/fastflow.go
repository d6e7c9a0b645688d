// Flow collections ("[...]", "{...}") of the fast path, which must
// end on the line they start on.

package fbcyaml

import (
	"bytes"

	"github.com/fbcat/opm/encoding/value"
)

// flowNode parses a flow collection or scalar that ends on this line.
func (p *fastParser) flowNode() value.Value {
	var v value.Value
	p.mark(&v)
	line, col := v.Line, v.Col
	switch p.at(p.pos) {
	case '[':
		v = p.flowSequence()
	case '{':
		v = p.flowMapping()
	case '"':
		v = value.Value{Kind: value.String, Str: p.doubleQuotedLine()}
	case '\'':
		v = value.Value{Kind: value.String, Str: p.singleQuotedLine()}
	default:
		text, _ := p.flowPlain()
		v = resolveValue(string(text))
		p.noteNumber(&v)
	}
	v.Line, v.Col = line, col
	p.checkFinite(&v)
	return v
}

// enterFlow enters the flow collection whose bracket is at pos.
func (p *fastParser) enterFlow() {
	p.nest()
	p.pos++
	if p.col() > 0 && len(p.items)+len(p.fields) > 1<<20 {
		panic(bail{})
	}
}

// flowSequence parses a flow sequence ("[a, b]") that starts at pos.
func (p *fastParser) flowSequence() value.Value {
	p.enterFlow() // '['
	v := value.Value{Kind: value.Array}
	base := len(p.items)
	for {
		p.skipSpaces()
		if p.at(p.pos) == ']' {
			p.pos++
			break
		}
		p.items = append(p.items, p.flowNode())
		p.skipSpaces()
		switch p.at(p.pos) {
		case ',':
			p.pos++
			continue
		case ']':
			p.pos++
		default:
			panic(bail{}) // single-pair mappings, line breaks, ...
		}
		break
	}
	v.Items = p.takeItems(base)
	p.depth--
	return v
}

// flowMapping parses a flow mapping ("{a: b}") that starts at pos.
func (p *fastParser) flowMapping() value.Value {
	p.enterFlow() // '{'
	v := value.Value{Kind: value.Object}
	base := len(p.fields)
	typed := false
	for {
		p.skipSpaces()
		if p.at(p.pos) == '}' {
			p.pos++
			break
		}
		var key string
		quoted := false
		start := p.pos
		switch p.at(p.pos) {
		case '"':
			key, quoted = p.doubleQuotedLine(), true
		case '\'':
			key, quoted = p.singleQuotedLine(), true
		default:
			text, colon := p.flowPlain()
			if !colon {
				panic(bail{})
			}
			var isTyped bool
			key, isTyped = resolveKey(string(text))
			typed = typed || isTyped
			if key == "<<" {
				panic(bail{})
			}
		}
		p.skipSpaces()
		if p.at(p.pos) != ':' || (!quoted && !p.isBlankEnd(p.pos+1)) {
			panic(bail{})
		}
		p.checkKeyLength(start)
		p.pos++
		p.skipSpaces()
		if c := p.at(p.pos); c == ',' || c == '}' || c == '\n' || c == 0 {
			panic(bail{}) // empty values
		}
		p.fields = append(p.fields, value.Field{Key: key, Value: p.flowNode()})
		p.skipSpaces()
		switch p.at(p.pos) {
		case ',':
			p.pos++
			continue
		case '}':
			p.pos++
		default:
			panic(bail{})
		}
		break
	}
	v.Fields = p.takeFields(base, typed)
	if v.Fields == nil {
		v.Fields = []value.Field{}
	}
	p.depth--
	return v
}

// flowPlain scans a plain scalar inside a flow collection: it ends at a
// flow indicator, at ": " or at " #". colon tells whether ": " ended it.
func (p *fastParser) flowPlain() (text []byte, colon bool) {
	// In flow context "?" and ":" cannot start a plain scalar at all.
	if c := p.at(p.pos); c == '?' || c == ':' || !plainStart(c, p.at(p.pos+1)) {
		panic(bail{})
	}
	start := p.pos
	for {
		c := p.at(p.pos)
		switch c {
		case ',', '[', ']', '{', '}':
			return bytes.TrimRight(p.d[start:p.pos], " "), false
		case '?':
			panic(bail{}) // ends the scalar and starts a key: "[a?]" is an error
		case '\n', 0:
			panic(bail{}) // flow collections over several lines
		case ':':
			switch next := p.at(p.pos + 1); next {
			case ' ', '\n', 0:
				return bytes.TrimRight(p.d[start:p.pos], " "), true
			case ',', '?', '[', ']', '{', '}':
				panic(bail{})
			}
		case '#':
			if p.at(p.pos-1) == ' ' {
				panic(bail{})
			}
		}
		p.pos++
	}
}
