package yamledit

import (
	"fmt"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// This file finds where a node's text is: yaml.v3 gives where a node
// starts (its anchor or tag included), the end is found by reading the
// text the way the parser did.

// nodeStart is the offset of n's first character, its properties included.
func (f *File) nodeStart(n *yaml.Node) int { return f.t.offset(n.Line, n.Column) }

// col is the column (0-based, in runes) where n starts.
func (f *File) col(n *yaml.Node) int { return f.colAt(f.nodeStart(n)) }

// colAt is the column (0-based, in runes) of offset off.
func (f *File) colAt(off int) int {
	return utf8.RuneCount(f.t.src[f.t.start(f.t.lineOf(off)):off])
}

// isBreak reports whether c ends a node property (anchor or tag).
func isBreak(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', '[', ']', '{', '}':
		return true
	}
	return false
}

// isAnchorChar reports whether c may be part of an anchor name, as the
// YAML parser reads them.
func isAnchorChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

// propsEnd is the offset just after the anchor and tag that start a
// scalar, alias or flow collection (nodeStart when it has none).
func (f *File) propsEnd(n *yaml.Node) int {
	src := f.t.src
	i := f.nodeStart(n)
	for i < len(src) && (src[i] == '&' || src[i] == '!') {
		anchor := src[i] == '&'
		for i++; i < len(src) && !isBreak(src[i]) && (!anchor || isAnchorChar(src[i])); i++ {
		}
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j < len(src) && (src[j] == '&' || src[j] == '!') {
			i = j
			continue
		}
	}
	return i
}

// contentStart is where n's own text begins after its properties; it may
// be on a later line. Comments there are refused.
func (f *File) contentStart(n *yaml.Node) (int, error) {
	i := f.t.skipSpace(f.propsEnd(n), false)
	if i < len(f.t.src) && f.t.src[i] == '#' {
		return 0, fmt.Errorf("%s: a comment between a node's properties and its value: cannot edit this safely", f.t.pos(n))
	}
	return i, nil
}

// isFlow reports whether collection n is written in flow style.
func isFlow(n *yaml.Node) bool { return n.Style&yaml.FlowStyle != 0 }

// end is the offset just after n's text: no trailing spaces, comments or
// line break.
func (f *File) end(n *yaml.Node) (int, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return f.nodeStart(n), nil
		}
		return f.end(n.Content[0])
	case yaml.AliasNode:
		s := f.nodeStart(n)
		if s >= len(f.t.src) || f.t.src[s] != '*' {
			return 0, fmt.Errorf("%s: cannot find the alias *%s in the text", f.t.pos(n), n.Value)
		}
		return s + 1 + len(n.Value), nil
	case yaml.ScalarNode:
		return f.scalarEnd(n)
	}
	if isFlow(n) {
		return f.flowEnd(n)
	}
	if len(n.Content) == 0 {
		return 0, fmt.Errorf("%s: an empty block collection", f.t.pos(n))
	}
	e, err := f.end(n.Content[len(n.Content)-1])
	if err != nil || n.Kind != yaml.MappingNode {
		return e, err
	}
	ke, err := f.end(n.Content[len(n.Content)-2])
	return max(e, ke), err
}

// scalarEnd finds the end of a scalar's text by its style.
func (f *File) scalarEnd(n *yaml.Node) (int, error) {
	i := f.propsEnd(n)
	switch n.Style &^ (yaml.TaggedStyle | yaml.FlowStyle) {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		return f.quotedEnd(n)
	case yaml.LiteralStyle, yaml.FoldedStyle:
		return f.blockScalarEnd(n)
	}
	if n.Value == "" {
		return i, nil
	}
	return f.plainEnd(n, f.t.skipSpace(i, false))
}

// quotedEnd finds the closing quote of a single- or double-quoted scalar.
func (f *File) quotedEnd(n *yaml.Node) (int, error) {
	src := f.t.src
	i, err := f.contentStart(n)
	if err != nil {
		return 0, err
	}
	if i >= len(src) || (src[i] != '"' && src[i] != '\'') {
		return 0, fmt.Errorf("%s: cannot find the opening quote of the scalar", f.t.pos(n))
	}
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch {
		case q == '"' && src[j] == '\\':
			j++
		case src[j] == q && q == '\'' && j+1 < len(src) && src[j+1] == '\'':
			j++
		case src[j] == q:
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("%s: cannot find the closing quote of the scalar", f.t.pos(n))
}

// isSpace reports whether c is white space or a line break.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// plainEnd matches a plain scalar's value against the text from i on: the
// value is the text with line breaks and indentation folded into spaces
// or newlines, so every run of white space in one matches one in the other.
func (f *File) plainEnd(n *yaml.Node, i int) (int, error) {
	src, v := f.t.src, n.Value
	for j := 0; j < len(v); {
		if v[j] == ' ' || v[j] == '\n' {
			for j < len(v) && (v[j] == ' ' || v[j] == '\n') {
				j++
			}
			k := i
			for k < len(src) && isSpace(src[k]) {
				k++
			}
			if k == i {
				return 0, fmt.Errorf("%s: cannot find the scalar %q in the text", f.t.pos(n), v)
			}
			i = k
			continue
		}
		if i >= len(src) || src[i] != v[j] {
			return 0, fmt.Errorf("%s: cannot find the scalar %q in the text", f.t.pos(n), v)
		}
		i++
		j++
	}
	return i, nil
}

// blockScalarEnd finds the end of a literal (|) or folded (>) scalar: the
// end of its last content line, or of its trailing blank lines when it
// keeps them (+).
func (f *File) blockScalarEnd(n *yaml.Node) (int, error) {
	t := f.t
	i, err := f.contentStart(n)
	if err != nil {
		return 0, err
	}
	if i >= len(t.src) || (t.src[i] != '|' && t.src[i] != '>') {
		return 0, fmt.Errorf("%s: cannot find the block scalar indicator", f.t.pos(n))
	}
	header := t.lineOf(i)
	end, keep := i+1, false
	for end < t.end(header) && (t.src[end] == '+' || t.src[end] == '-' || (t.src[end] >= '1' && t.src[end] <= '9')) {
		keep = keep || t.src[end] == '+'
		end++
	}
	if n.Value == "" && !keep {
		return end, nil
	}
	content, last := -1, header
	for l := header + 1; l < t.nlines(); l++ {
		if t.blank(l) {
			if keep && content >= 0 {
				last = l
			}
			continue
		}
		ind, _ := t.indent(l)
		if content < 0 {
			content = ind - leadingSpaces(n.Value)
		}
		if ind < content {
			break
		}
		last = l
	}
	if last == header {
		return end, nil
	}
	return t.end(last), nil
}

// leadingSpaces counts the spaces a string starts with.
func leadingSpaces(s string) int {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	return n
}

// flowEnd finds the bracket that closes a flow collection.
func (f *File) flowEnd(n *yaml.Node) (int, error) {
	open, err := f.contentStart(n)
	if err != nil {
		return 0, err
	}
	src := f.t.src
	want := byte(']')
	if n.Kind == yaml.MappingNode {
		want = '}'
	}
	i := open + 1
	for _, c := range n.Content {
		e, err := f.end(c)
		if err != nil {
			return 0, err
		}
		i = max(i, e)
	}
	for i < len(src) && (isSpace(src[i]) || src[i] == ',') {
		i++
	}
	if i < len(src) && src[i] == '#' {
		return 0, fmt.Errorf("%s: a comment inside a flow collection: cannot edit this safely", f.t.pos(n))
	}
	if i >= len(src) || src[i] != want {
		return 0, fmt.Errorf("%s: cannot find the closing %q of the flow collection", f.t.pos(n), want)
	}
	return i + 1, nil
}

// dashOf finds the '-' that introduces an item of a block sequence.
func (f *File) dashOf(item *yaml.Node) (int, error) {
	src := f.t.src
	for i := f.nodeStart(item) - 1; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case '-':
			return i, nil
		}
		break
	}
	return 0, fmt.Errorf("%s: cannot find the '-' of the sequence item", f.t.pos(item))
}

// colonAfter finds the ':' after a mapping key and returns the offset just
// after it.
func (f *File) colonAfter(k *yaml.Node) (int, error) {
	e, err := f.end(k)
	if err != nil {
		return 0, err
	}
	src := f.t.src
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	if e >= len(src) || src[e] != ':' {
		return 0, fmt.Errorf("%s: cannot find the ':' after the key %q", f.t.pos(k), k.Value)
	}
	return e + 1, nil
}
