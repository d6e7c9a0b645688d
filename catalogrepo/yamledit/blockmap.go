package yamledit

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// blockMapSplices deletes keys of a block mapping, replaces values and
// adds new keys after the last one, at the mapping's indentation.
func (f *File) blockMapSplices(p *plan) ([]splice, error) {
	c := p.node.Content
	n := len(c) / 2
	col := f.col(c[0])
	ends := make([]int, n) // start of the line after each pair
	for i := 0; i < n; i++ {
		e, err := f.end(c[2*i+1])
		if err != nil {
			return nil, err
		}
		ke, err := f.end(c[2*i])
		if err != nil {
			return nil, err
		}
		ends[i] = f.t.next(f.t.extend(f.t.lineOf(max(e, ke)), col))
	}
	if err := f.t.noTabs(f.t.lineOf(f.nodeStart(c[0])), f.t.lineOf(ends[n-1]-1)); err != nil {
		return nil, err
	}
	var out []splice
	first, adds := 0, p.added
	if p.removed[c[0]] && !f.t.onlySpaceBefore(f.nodeStart(c[0])) {
		s, next, err := f.deleteLeading(p, col)
		if err != nil {
			return nil, err
		}
		out, first = append(out, s), next
		if next == n {
			adds = nil
		}
	}
	for i := first; i < n; i++ {
		k := c[2*i]
		if p.removed[k] {
			if !f.t.onlySpaceBefore(f.nodeStart(k)) {
				return nil, fmt.Errorf("%s: cannot delete a key that shares its line with something else", f.t.pos(k))
			}
			out = append(out, splice{start: f.t.start(f.t.lineOf(f.nodeStart(k))), end: ends[i]})
		} else if v, ok := p.set[k]; ok {
			sps, err := f.setBlockValue(k, c[2*i+1], v, col)
			if err != nil {
				return nil, err
			}
			out = append(out, sps...)
		}
	}
	switch {
	case len(adds) > 0:
		out = append(out, f.insertLines(ends[n-1], f.newKeys(adds, col)))
	case len(p.removed) == n && first == 0:
		s, err := f.emptyMarker(p.node, "{}", f.t.start(f.t.lineOf(f.nodeStart(c[0]))))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// newKeys writes the pairs of new keys at column col.
func (f *File) newKeys(adds []any, col int) []string {
	r := f.block()
	var lines []string
	for _, a := range adds {
		kv := a.(KV)
		lines = append(lines, r.keyed(spaces(col)+r.key(kv.Key)+":", col, kv.Value, 0)...)
	}
	return lines
}

// deleteLeading deletes the first keys of a mapping whose first key shares
// its line with a '-' ("- name: a"): the text from the first key to the
// first kept key goes, so that key moves up behind the '-'. When every key
// goes, the mapping becomes {} or the new keys. It returns the index of the
// first pair it did not handle.
func (f *File) deleteLeading(p *plan, col int) (splice, int, error) {
	c := p.node.Content
	n := len(c) / 2
	start := f.nodeStart(c[0])
	j := 0
	for j < n && p.removed[c[2*j]] {
		j++
	}
	if j < n {
		return splice{start: start, end: f.nodeStart(c[2*j])}, j, nil
	}
	e, err := f.end(p.node)
	if err != nil {
		return splice{}, 0, err
	}
	if len(p.added) == 0 {
		return splice{start: start, end: e, text: "{}"}, n, nil
	}
	lines := f.newKeys(p.added, col)
	lines[0] = lines[0][col:]
	return splice{start: start, end: e, text: strings.Join(lines, f.style.eol)}, n, nil
}

// setBlockValue replaces the value v of key k (at column col) of a block
// mapping. A scalar on the key's line is replaced in place (its quoting
// kept when the new value allows); a value written below the key is
// replaced line by line; comments on the key's line stay.
func (f *File) setBlockValue(k, v *yaml.Node, nv any, col int) ([]splice, error) {
	c, err := f.colonAfter(k)
	if err != nil {
		return nil, err
	}
	ve, err := f.end(v)
	if err != nil {
		return nil, err
	}
	var keep yaml.Style
	if v.Kind == yaml.ScalarNode {
		keep = v.Style
	}
	lines := f.block().keyed("", col, nv, keep)
	inline, rest := lines[0], lines[1:]
	vs := f.nodeStart(v)
	if f.t.lineOf(vs) == f.t.lineOf(f.nodeStart(k)) {
		if len(rest) == 0 && vs > c {
			return []splice{{start: vs, end: ve, text: strings.TrimPrefix(inline, " ")}}, nil
		}
		out := []splice{{start: c, end: ve, text: inline}}
		if len(rest) > 0 {
			out = append(out, f.insertLines(f.t.next(f.t.lineOf(ve)), rest))
		}
		return out, nil
	}
	var out []splice
	if inline != "" {
		out = append(out, splice{start: c, end: c, text: inline})
	}
	a, b := f.t.start(f.t.lineOf(vs)), f.t.next(f.t.lineOf(ve))
	s := splice{start: a, end: b}
	if len(rest) > 0 {
		s.text = strings.Join(rest, f.style.eol) + f.style.eol
		if b == len(f.t.src) && (b == 0 || f.t.src[b-1] != '\n') {
			s.text = strings.TrimSuffix(s.text, f.style.eol)
		}
	}
	return append(out, s), nil
}
