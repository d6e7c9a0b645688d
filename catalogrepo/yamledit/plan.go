package yamledit

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// splice replaces src[start:end] with text.
type splice struct {
	start, end int
	text       string
	depth      int // depth of the edited container: deeper insertions go first
	order      int // order of the edited container's first edit
}

// plan is every edit of one container.
type plan struct {
	node    *yaml.Node
	removed map[*yaml.Node]bool // removed items, or deleted keys
	added   []any               // appended values, or KVs of new keys
	set     map[*yaml.Node]any  // key node -> new value
	order   int
}

// Bytes applies every recorded edit to the original text, checks that the
// result reads back as the original document with the edits applied, and
// returns it. Without edits it returns the original text.
func (f *File) Bytes() ([]byte, error) {
	src := f.t.src
	if len(f.ops) == 0 {
		return append([]byte(nil), src...), nil
	}
	sps, err := f.splices()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	at := 0
	for _, s := range sps {
		b.Write(src[at:s.start])
		b.WriteString(s.text)
		at = s.end
	}
	b.Write(src[at:])
	out := []byte(b.String())
	if f.mutate != nil {
		out = f.mutate(out)
	}
	if err := f.verify(out); err != nil {
		return nil, err
	}
	return out, nil
}

// plans groups the recorded edits by container, in the order of each
// container's first edit.
func (f *File) plans() []*plan {
	byNode := map[*yaml.Node]*plan{}
	var out []*plan
	for _, o := range f.ops {
		p := byNode[o.node]
		if p == nil {
			p = &plan{node: o.node, removed: map[*yaml.Node]bool{}, set: map[*yaml.Node]any{}, order: len(out)}
			byNode[o.node] = p
			out = append(out, p)
		}
		switch {
		case o.kind == opAppend:
			p.added = append(p.added, o.value)
		case o.kind == opRemove || o.kind == opDelete:
			p.removed[o.item] = true
		case o.item != nil:
			p.set[o.item] = o.value
		default:
			p.added = append(p.added, KV{o.key, o.value})
		}
	}
	return out
}

// splices turns the plans into text splices sorted by position, and
// refuses splices that overlap.
func (f *File) splices() ([]splice, error) {
	var all []splice
	for _, p := range f.plans() {
		var sps []splice
		var err error
		switch n := p.node; {
		case n.Kind == yaml.ScalarNode || f.emptyUnderBlockKey(n):
			sps, err = f.fromEmpty(p)
		case isFlow(n):
			sps, err = f.flowSplices(p)
		case n.Kind == yaml.SequenceNode:
			sps, err = f.blockSeqSplices(p)
		default:
			sps, err = f.blockMapSplices(p)
		}
		if err != nil {
			return nil, err
		}
		for i := range sps {
			sps[i].depth, sps[i].order = f.links[p.node].depth, p.order
		}
		all = append(all, sps...)
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if (a.start == a.end) != (b.start == b.end) {
			return a.start == a.end
		}
		if a.depth != b.depth {
			return a.depth > b.depth
		}
		return a.order < b.order
	})
	if err := f.checkEOF(all); err != nil {
		return nil, err
	}
	for i := 1; i < len(all); i++ {
		if all[i-1].end > all[i].start {
			return nil, fmt.Errorf("%s:%d: overlapping edits", f.t.name, f.t.lineOf(all[i].start)+1)
		}
	}
	return all, nil
}

// checkEOF refuses to add text after a block scalar that ends the file
// without a line break: the line break the addition needs would become
// part of the scalar's value.
func (f *File) checkEOF(sps []splice) error {
	src := f.t.src
	if len(src) == 0 || src[len(src)-1] == '\n' || len(sps) == 0 || sps[len(sps)-1].start != len(src) || sps[len(sps)-1].text == "" {
		return nil
	}
	n := f.Root()
	for len(n.Content) > 0 {
		n = n.Content[len(n.Content)-1]
	}
	if st := n.Style &^ yaml.TaggedStyle; n.Kind == yaml.ScalarNode && (st == yaml.LiteralStyle || st == yaml.FoldedStyle) {
		return fmt.Errorf("%s: the file ends in a block scalar without a final line break: add one before editing after it", f.t.pos(n))
	}
	return nil
}

// insertLines inserts whole lines at offset at, the start of a line (or
// the end of a file that does not end with a line break).
func (f *File) insertLines(at int, lines []string) splice {
	eol := f.style.eol
	text := strings.Join(lines, eol) + eol
	if src := f.t.src; at == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
		text = eol + strings.Join(lines, eol)
	}
	return splice{start: at, end: at, text: text}
}

// block is the emitter for block context.
func (f *File) block() emitter { return emitter{st: &f.style} }

// itemSpan is the text of a block sequence item: from the start of its
// '-' line to the start of the line after its last line (comments indented
// deeper than the '-' that follow it included). shared tells that the '-'
// is not the first thing on its line.
func (f *File) itemSpan(item *yaml.Node) (start, end, dash int, shared bool, err error) {
	d, err := f.dashOf(item)
	if err != nil {
		return 0, 0, 0, false, err
	}
	e, err := f.end(item)
	if err != nil {
		return 0, 0, 0, false, err
	}
	col := f.colAt(d)
	last := f.t.extend(f.t.lineOf(e), col)
	return f.t.start(f.t.lineOf(d)), f.t.next(last), d, !f.t.onlySpaceBefore(d), nil
}

// blockSeqSplices removes items of a block sequence and appends new ones
// after its last item, indented like it.
func (f *File) blockSeqSplices(p *plan) ([]splice, error) {
	items := p.node.Content
	var out []splice
	var end, dash int
	for _, it := range items {
		s, e, d, shared, err := f.itemSpan(it)
		if err != nil {
			return nil, err
		}
		if p.removed[it] {
			if shared {
				return nil, fmt.Errorf("%s: cannot remove an item whose '-' shares its line with its parent", f.t.pos(it))
			}
			out = append(out, splice{start: s, end: e})
		}
		end, dash = e, d
	}
	if err := f.t.noTabs(f.t.lineOf(f.nodeStart(items[0])), f.t.lineOf(end-1)); err != nil {
		return nil, err
	}
	if len(p.added) > 0 {
		off := 2
		if last := items[len(items)-1]; f.t.lineOf(f.nodeStart(last)) == f.t.lineOf(dash) && f.nodeStart(last)-dash > 2 {
			off = f.nodeStart(last) - dash
		}
		lead := spaces(f.colAt(dash)) + "-" + spaces(off-1)
		var lines []string
		for _, v := range p.added {
			lines = append(lines, f.block().dashed(lead, v)...)
		}
		return append(out, f.insertLines(end, lines)), nil
	}
	if len(p.removed) == len(items) {
		s, err := f.emptyMarker(p.node, "[]", out[0].start)
		return append(out, s), err
	}
	return out, nil
}

// emptyMarker writes marker ("[]" or "{}") for a block collection all of
// whose entries are removed: after the ':' of its key, or for the
// document's top node in place of the removed lines (at).
func (f *File) emptyMarker(n *yaml.Node, marker string, at int) (splice, error) {
	l := f.links[n]
	switch {
	case l.key != nil:
		c, err := f.colonAfter(l.key)
		return splice{start: c, end: c, text: " " + marker}, err
	case l.parent == f.doc:
		return splice{start: at, end: at, text: marker + f.style.eol}, nil
	case l.parent.Kind == yaml.SequenceNode && !isFlow(l.parent):
		d, err := f.dashOf(n)
		return splice{start: d + 1, end: d + 1, text: " " + marker}, err
	}
	return splice{}, fmt.Errorf("%s: cannot remove every entry of a %s that is not the value of a key", f.t.pos(n), kindName(n))
}

// emptyUnderBlockKey reports whether n is an empty flow sequence that is
// the value of a key of a block mapping.
func (f *File) emptyUnderBlockKey(n *yaml.Node) bool {
	l := f.links[n]
	return n.Kind == yaml.SequenceNode && isFlow(n) && len(n.Content) == 0 && l.key != nil && !isFlow(l.parent) && !f.style.jsonDoc
}

// fromEmpty appends to a null value of a key, or to an empty flow sequence
// under a key in block context: the block sequence goes on the lines after
// the key, with the null or [] taken off the key's line.
func (f *File) fromEmpty(p *plan) ([]splice, error) {
	v, k := p.node, f.links[p.node].key
	e, err := f.end(v)
	if err != nil {
		return nil, err
	}
	if isFlow(f.links[v].parent) {
		r := f.flowEmitter(f.links[v].parent)
		var parts []string
		for _, a := range p.added {
			parts = append(parts, r.flow(a))
		}
		comma, _ := r.seps()
		sp := splice{start: f.nodeStart(v), end: e, text: "[" + strings.Join(parts, comma) + "]"}
		if s, e2, prefix, empty, err := f.emptyValue(k, v); err != nil {
			return nil, err
		} else if empty {
			sp = splice{start: s, end: e2, text: prefix + sp.text}
		}
		return []splice{sp}, nil
	}
	c, err := f.colonAfter(k)
	if err != nil {
		return nil, err
	}
	if err := f.t.noTabs(f.t.lineOf(c), f.t.lineOf(e)); err != nil {
		return nil, err
	}
	var out []splice
	if e > c {
		out = append(out, splice{start: c, end: e})
	}
	var lines []string
	for _, a := range p.added {
		lines = append(lines, f.block().dashed(spaces(f.col(k)+f.style.seqIndent)+"- ", a)...)
	}
	return append(out, f.insertLines(f.t.next(f.t.lineOf(e)), lines)), nil
}
