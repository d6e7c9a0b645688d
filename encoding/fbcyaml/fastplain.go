// Plain (unquoted) scalars of the fast path, and the values they
// resolve to.

package fbcyaml

import (
	"bytes"
	"math"
	"strconv"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// plainStart reports whether a plain scalar may start with c followed by
// next in block context.
func plainStart(c, next byte) bool {
	switch c {
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '\n', 0, ' ':
		return false
	case '-', '?', ':':
		return next != ' ' && next != '\n' && next != 0
	}
	return true
}

// plainLine scans the plain scalar text on the current line from pos: it
// ends at the line break, at " #" (a comment) or at ": " (a key). It
// returns the text without trailing spaces and whether a ": " ended it.
func (p *fastParser) plainLine() (text []byte, colon bool) {
	start := p.pos
	d := p.d
	for {
		i := p.pos
		for i < len(d) && !plainStop[d[i]] {
			i++
		}
		p.pos = i
		switch p.at(i) {
		case '\n', 0:
			return bytes.TrimRight(d[start:i], " "), false
		case ':':
			if p.isBlankEnd(i + 1) {
				return bytes.TrimRight(d[start:i], " "), true
			}
		case '#':
			if p.at(i-1) == ' ' {
				return bytes.TrimRight(d[start:i], " "), false
			}
		}
		p.pos++
	}
}

// plainStop marks the bytes plainLine must look at.
var plainStop = [256]bool{'\n': true, ':': true, '#': true, 0: true}

// plain parses a plain scalar that may continue on following lines
// indented deeper than parent; lines fold into spaces, empty lines into
// line breaks.
func (p *fastParser) plain(parent int) string {
	text, colon := p.plainLine()
	if colon {
		panic(bail{}) // "mapping values are not allowed in this context"
	}
	if p.at(p.pos) == '#' {
		p.skipComment()
		return p.scalarText(text)
	}
	if p.at(p.pos) == 0 {
		return p.scalarText(text)
	}
	p.newline()
	var out []byte
	for {
		// Look ahead over empty lines for a continuation line.
		save, saveLine := p.pos, p.line
		empty := 0
		indent := 0
		for {
			i := p.pos
			for p.at(i) == ' ' {
				i++
			}
			if p.at(i) == '\n' {
				p.pos = i
				p.newline()
				empty++
				continue
			}
			indent = i - p.pos
			if p.at(i) == 0 || indent <= parent {
				p.pos, p.line, p.lineStart = save, saveLine, save
				if out == nil {
					return p.scalarText(text)
				}
				return p.builtText(out)
			}
			p.pos = i
			break
		}
		if p.at(p.pos) == '#' {
			// A comment line, however deep it is indented, ends the
			// scalar: the lines from save on are read as the rest of
			// the collection (blank and comment lines, then content).
			p.pos, p.line, p.lineStart = save, saveLine, save
			if out == nil {
				return p.scalarText(text)
			}
			return p.builtText(out)
		}
		more, colon := p.plainLine()
		if colon {
			panic(bail{})
		}
		if out == nil {
			out = append(p.text[:0], text...)
		}
		if empty == 0 {
			out = append(out, ' ')
		}
		for ; empty > 0; empty-- {
			out = append(out, '\n')
		}
		out = append(out, more...)
		if p.at(p.pos) == '#' {
			// A comment after the text ends the scalar too.
			p.skipComment()
			return p.builtText(out)
		}
		if p.at(p.pos) == 0 {
			return p.builtText(out)
		}
		p.newline()
	}
}

// resolveValue turns a plain scalar into the value upstream ends up with.
func resolveValue(s string) value.Value {
	r := resolvePlain(s)
	switch r.kind {
	case kindString, kindTimestamp:
		return value.Value{Kind: value.String, Str: s}
	case kindNull:
		return value.Value{Kind: value.Null}
	case kindBool:
		return value.Value{Kind: value.Bool, Bool: r.b}
	case kindInt:
		// The exact integer is kept for writers that do not go through
		// float64 (Kubernetes objects in bundles).
		return value.Value{Kind: value.Number, Num: float64(r.i), Str: strconv.FormatInt(r.i, 10)}
	case kindUint:
		return value.Value{Kind: value.Number, Num: float64(r.u), Str: strconv.FormatUint(r.u, 10)}
	case kindFloat:
		return value.Value{Kind: value.Number, Num: r.f}
	}
	panic(bail{})
}

// checkFinite notes the first number of the document that JSON cannot
// hold; the document is still read to its end, as a syntax error after
// it is the error go-yaml reports.
func (p *fastParser) checkFinite(v *value.Value) {
	if v.Kind == value.Number && p.nonFinite == nil && (math.IsNaN(v.Num) || math.IsInf(v.Num, 0)) {
		p.nonFinite = &position.Error{Line: int(v.Line), Column: int(v.Col), Message: nonFiniteMsg(v.Num)}
	}
}
