package yamledit

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// entry is one item of a flow sequence or one pair of a flow mapping.
type entry struct {
	start, end int
	key, value *yaml.Node // key is nil for a sequence item
}

// id is the node an entry is removed by: the item, or the key.
func (e entry) id() *yaml.Node {
	if e.key != nil {
		return e.key
	}
	return e.value
}

// flowBounds finds the brackets of flow collection n and its entries, and
// refuses a collection with comments inside.
func (f *File) flowBounds(n *yaml.Node) (open, close int, entries []entry, err error) {
	if open, err = f.contentStart(n); err != nil {
		return 0, 0, nil, err
	}
	e, err := f.end(n)
	if err != nil {
		return 0, 0, nil, err
	}
	close, at := e-1, open+1
	step := 1
	if n.Kind == yaml.MappingNode {
		step = 2
	}
	for i := 0; i < len(n.Content); i += step {
		en := entry{value: n.Content[i]}
		if step == 2 {
			en.key, en.value = n.Content[i], n.Content[i+1]
		}
		en.start = f.nodeStart(en.id())
		if en.end, err = f.end(en.value); err != nil {
			return 0, 0, nil, err
		}
		if en.key != nil {
			ke, err := f.end(en.key)
			if err != nil {
				return 0, 0, nil, err
			}
			en.end = max(en.end, ke)
			if _, e, _, empty, err := f.emptyValue(en.key, en.value); err != nil {
				return 0, 0, nil, err
			} else if empty {
				en.end = e // "a: " and not "a:", which "a:," would misread
			}
		}
		if bytes.IndexByte(f.t.src[min(at, en.start):en.start], '#') >= 0 || (en.key != nil && f.hasComment(en.key, en.value)) {
			return 0, 0, nil, fmt.Errorf("%s: a comment inside a flow collection: cannot edit this safely", f.t.pos(n))
		}
		at = en.end
		entries = append(entries, en)
	}
	return open, close, entries, nil
}

// emptyValue reports whether v, the value of flow key k, has no text
// ("{a: , b}", "{a}"; yaml.v3 puts such a value at the next token), and
// where its text goes: src[start:end] is replaced by prefix and the text,
// after the key's ':' or, without one, after the key with ": ".
func (f *File) emptyValue(k, v *yaml.Node) (start, end int, prefix string, empty bool, err error) {
	ve, err := f.end(v)
	if err != nil || ve != f.nodeStart(v) {
		return 0, 0, "", false, err
	}
	ke, err := f.end(k)
	if err != nil {
		return 0, 0, "", false, err
	}
	src := f.t.src
	i := f.t.skipSpace(ke, false)
	if i >= len(src) || src[i] != ':' {
		return ke, ke, ": ", true, nil
	}
	j := i + 1
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return i + 1, j, " ", true, nil
}

// hasComment reports whether a comment sits between a flow key and its value.
func (f *File) hasComment(k, v *yaml.Node) bool {
	ke, err := f.end(k)
	if err != nil {
		return false
	}
	vs := f.nodeStart(v)
	return vs > ke && bytes.IndexByte(f.t.src[ke:vs], '#') >= 0
}

// flowEmitter is the emitter for the inside of flow collection n: JSON
// style when the document is JSON or n's keys (or string items) are
// double-quoted, compact when n is written without spaces.
func (f *File) flowEmitter(n *yaml.Node) emitter {
	return emitter{st: &f.style, inflow: true, json: f.style.jsonDoc || f.quoted(n), compact: f.compact(n)}
}

// quoted reports whether the string scalars that n holds directly (its
// keys for a mapping) are all double-quoted; with none, n's flow parent
// decides.
func (f *File) quoted(n *yaml.Node) bool {
	seen := false
	for i, c := range n.Content {
		if c.Kind != yaml.ScalarNode || (n.Kind == yaml.MappingNode && i%2 == 1) || (n.Kind == yaml.SequenceNode && c.Tag != "!!str") {
			continue
		}
		if c.Style&yaml.DoubleQuotedStyle == 0 {
			return false
		}
		seen = true
	}
	if p := f.links[n].parent; !seen && p != nil && isFlow(p) {
		return f.quoted(p)
	}
	return seen
}

// compact reports whether n is written without white space after its
// commas and colons; with nothing to tell, n's flow parent decides.
func (f *File) compact(n *yaml.Node) bool {
	var gaps [][2]int
	var prev int = -1
	for i, c := range n.Content {
		s := f.nodeStart(c)
		if prev >= 0 && s > prev {
			gaps = append(gaps, [2]int{prev, s})
		}
		e, err := f.end(c)
		if err != nil {
			return false
		}
		prev = e
		if n.Kind == yaml.MappingNode && i%2 == 1 && e == s {
			prev = -1 // an empty value: no colon gap to read
		}
	}
	for _, g := range gaps {
		if bytes.ContainsAny(f.t.src[g[0]:g[1]], " \t\r\n") {
			return false
		}
	}
	if len(gaps) > 0 {
		return true
	}
	if p := f.links[n].parent; p != nil && isFlow(p) {
		return f.compact(p)
	}
	return false
}

// flowCtx is how new entries of one flow collection are written.
type flowCtx struct {
	r           emitter
	eol         string
	multi       bool   // entries each on their own line
	indent      string // leading white space of an entry's line
	closeIndent string // leading white space of the closing bracket's line
	pretty      bool   // collections written over several lines, as JSON is
	step        int
}

// flowCtx reads the layout of flow collection n from its entries; an
// empty one inside a multi-line flow parent gets a line of its own.
func (f *File) flowCtx(n *yaml.Node, open, close int, entries []entry) (flowCtx, error) {
	t := f.t
	c := flowCtx{r: f.flowEmitter(n), eol: f.style.eol, step: f.style.flowStep, closeIndent: t.leading(t.lineOf(close))}
	if len(entries) == 0 {
		p := f.links[n].parent
		if p == nil || !isFlow(p) {
			return c, nil
		}
		po, pc, pe, err := f.flowBounds(p)
		if err != nil {
			return c, err
		}
		if pc2, _ := f.flowCtx(p, po, pc, pe); pc2.multi {
			base := t.leading(t.lineOf(open))
			c.multi, c.pretty, c.indent, c.closeIndent, c.step = true, c.r.json, base+spaces(pc2.step), base, pc2.step
		}
		return c, nil
	}
	last := entries[len(entries)-1]
	l := t.lineOf(last.start)
	if l != t.lineOf(open) && t.onlySpaceBefore(last.start) {
		c.multi, c.indent = true, t.leading(l)
	}
	v := last.value
	if multiLine := (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && t.lineOf(last.end) > t.lineOf(f.nodeStart(v)); multiLine {
		if len(v.Content) > 0 {
			a, _ := t.indent(t.lineOf(f.nodeStart(v)))
			b, _ := t.indent(t.lineOf(f.nodeStart(v.Content[0])))
			if b > a {
				c.step = b - a
			}
		}
		c.pretty = c.multi
	}
	c.pretty = c.pretty || (c.multi && c.r.json)
	return c, nil
}

// entry writes one new entry: an item, or key and value.
func (c flowCtx) entry(key *string, v any) string {
	lines := []string{c.r.flow(v)}
	if c.pretty {
		lines = c.r.pretty(v, c.indent, c.step)
	}
	if key != nil {
		_, colon := c.r.seps()
		lines[0] = c.r.key(*key) + colon + lines[0]
	}
	return strings.Join(lines, c.eol)
}

// fill writes the whole inside of a collection that had no entries left.
func (c flowCtx) fill(added []string) string {
	if len(added) == 0 {
		return ""
	}
	if c.multi {
		return c.eol + c.indent + strings.Join(added, ","+c.eol+c.indent) + c.eol + c.closeIndent
	}
	comma, _ := c.r.seps()
	return strings.Join(added, comma)
}

// flowSplices removes entries of a flow collection with one adjacent
// comma, replaces values, and adds entries before the closing bracket.
func (f *File) flowSplices(p *plan) ([]splice, error) {
	open, close, entries, err := f.flowBounds(p.node)
	if err != nil {
		return nil, err
	}
	if err := f.t.noTabs(f.t.lineOf(open), f.t.lineOf(close)); err != nil {
		return nil, err
	}
	ctx, err := f.flowCtx(p.node, open, close, entries)
	if err != nil {
		return nil, err
	}
	out, kept, err := f.flowSets(p, ctx, entries)
	if err != nil {
		return nil, err
	}
	var added []string
	for _, a := range p.added {
		if kv, ok := a.(KV); ok {
			added = append(added, ctx.entry(&kv.Key, kv.Value))
		} else {
			added = append(added, ctx.entry(nil, a))
		}
	}
	if kept < 0 {
		return append(out, splice{start: open + 1, end: close, text: ctx.fill(added)}), nil
	}
	for i := 0; i < kept; i++ {
		if p.removed[entries[i].id()] {
			out = append(out, splice{start: entries[i].start, end: entries[i+1].start})
		}
	}
	last := entries[len(entries)-1]
	if kept < len(entries)-1 {
		out = append(out, splice{start: entries[kept].end, end: last.end})
	}
	if len(added) > 0 {
		comma, _ := ctx.r.seps()
		if ctx.multi {
			comma = "," + ctx.eol + ctx.indent
		}
		out = append(out, splice{start: last.end, end: last.end, text: comma + strings.Join(added, comma)})
	}
	return out, nil
}

// flowSets replaces the values of existing keys, and returns the index of
// the last entry kept (-1 when none is).
func (f *File) flowSets(p *plan, ctx flowCtx, entries []entry) ([]splice, int, error) {
	var out []splice
	kept := -1
	for i, e := range entries {
		if !p.removed[e.id()] {
			kept = i
		}
		nv, ok := p.set[e.id()]
		if e.key == nil || !ok {
			continue
		}
		ve, err := f.end(e.value)
		if err != nil {
			return nil, 0, err
		}
		text := ctx.entry(nil, nv)
		if s, isStr := nv.(string); isStr && e.value.Kind == yaml.ScalarNode {
			text = ctx.r.str(s, false, e.value.Style)
		}
		sp := splice{start: f.nodeStart(e.value), end: ve, text: text}
		if s, e2, prefix, empty, err := f.emptyValue(e.key, e.value); err != nil {
			return nil, 0, err
		} else if empty {
			sp = splice{start: s, end: e2, text: prefix + text}
		}
		out = append(out, sp)
	}
	return out, kept, nil
}
