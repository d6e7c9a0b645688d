// Mapping keys of the fast path.

package fbcyaml

import "strconv"

// key parses a mapping key and the ':' after it. plain tells whether it
// was an unquoted key, typed whether it read as a number or a boolean.
func (p *fastParser) key() (key string, plain, typed bool) {
	start := p.pos
	switch c := p.at(p.pos); c {
	case '"':
		key = p.doubleQuotedLine()
	case '\'':
		key = p.singleQuotedLine()
	default:
		var text []byte
		if p.seenKey.text != nil && p.seenKey.at == p.pos {
			// isKey just read it.
			text, p.pos = p.seenKey.text, p.seenKey.end
		} else {
			if !plainStart(c, p.at(p.pos+1)) {
				panic(bail{})
			}
			var colon bool
			if text, colon = p.plainLine(); !colon {
				panic(bail{})
			}
		}
		key, typed = resolveKey(p.intern(text))
		plain = true
	}
	p.skipSpaces()
	if p.at(p.pos) != ':' || !p.isBlankEnd(p.pos+1) {
		panic(bail{})
	}
	p.checkKeyLength(start)
	p.pos++
	return key, plain, typed
}

// maxKeyLength is how far past the start of a key without "?" its ":" may
// be, in characters: YAML's limit, which go-yaml enforces.
const maxKeyLength = 1024

// checkKeyLength leaves keys whose ":" at pos is too far from their start
// to go-yaml. It counts bytes, which are never fewer than characters.
func (p *fastParser) checkKeyLength(start int) {
	if p.pos-start > maxKeyLength {
		panic(bail{})
	}
}

// seenKey is the plain key isKey last found: where it starts, where its
// text ends, and the text.
type seenKey struct {
	at, end int
	text    []byte
}

// isKey reports, without consuming anything, whether a mapping key starts
// at pos on this line.
func (p *fastParser) isKey() (ok bool) {
	save, saveLine, saveStart := p.pos, p.line, p.lineStart
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bail); !isBail {
				panic(r)
			}
			ok = false
		}
		p.pos, p.line, p.lineStart = save, saveLine, saveStart
	}()
	switch p.at(p.pos) {
	case '"':
		p.doubleQuotedLine()
	case '\'':
		p.singleQuotedLine()
	default:
		if !plainStart(p.at(p.pos), p.at(p.pos+1)) {
			return false
		}
		text, colon := p.plainLine()
		if colon {
			// The key that follows (mapping) reads it from here.
			p.seenKey = seenKey{at: save, end: p.pos, text: text}
		}
		return colon
	}
	p.skipSpaces()
	return p.at(p.pos) == ':' && p.isBlankEnd(p.pos+1)
}

// resolveKey turns a plain key into the string sigs.k8s.io/yaml makes of
// it: booleans and numbers are formatted (typed), null keys are refused.
func resolveKey(s string) (key string, typed bool) {
	r := resolvePlain(s)
	switch r.kind {
	case kindString, kindTimestamp:
		return s, false
	case kindBool:
		return strconv.FormatBool(r.b), true
	case kindInt:
		return strconv.FormatInt(r.i, 10), true
	case kindFloat:
		f := strconv.FormatFloat(r.f, 'g', -1, 32)
		switch f {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		}
		return f, true
	}
	panic(bail{}) // null and uint64 keys: go-yaml's path reports them
}
