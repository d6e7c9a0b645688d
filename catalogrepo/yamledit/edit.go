package yamledit

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

type opKind int

const (
	opAppend opKind = iota
	opRemove
	opSet
	opDelete
)

// op is one recorded edit.
type op struct {
	kind  opKind
	node  *yaml.Node // the sequence or mapping edited
	item  *yaml.Node // the removed item; the key node of Set (existing key) and Delete
	key   string     // Set and Delete
	value any        // normalized value of Append and Set
}

// replaced are the subtrees an op takes away from the text.
func (o op) replaced() []*yaml.Node {
	switch {
	case o.kind == opRemove:
		return []*yaml.Node{o.item}
	case o.kind == opDelete:
		return []*yaml.Node{o.item, valueOf(o.node, o.item)}
	case o.kind == opSet && o.item != nil:
		return []*yaml.Node{valueOf(o.node, o.item)}
	}
	return nil
}

// valueOf is the value paired with key node k in mapping m.
func valueOf(m, k *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i] == k {
			return m.Content[i+1]
		}
	}
	return nil
}

// Append adds v as the last item of seq. seq may also be a null value of a
// mapping key (`entries:` or `entries: ~`), which becomes a sequence, or an
// empty flow sequence (`entries: []`).
func (f *File) Append(seq *yaml.Node, v any) error {
	if err := f.editable(seq); err != nil {
		return err
	}
	switch {
	case seq.Kind == yaml.SequenceNode:
	case isNull(seq) && f.links[seq].key != nil:
	default:
		return fmt.Errorf("%s: cannot append to a %s: not a sequence or the null value of a key", f.t.pos(seq), kindName(seq))
	}
	nv, err := normalize(v)
	if err != nil {
		return fmt.Errorf("%s: %w", f.t.pos(seq), err)
	}
	return f.record(op{kind: opAppend, node: seq, value: nv})
}

// Remove deletes item, an item of seq, with its lines.
func (f *File) Remove(seq, item *yaml.Node) error {
	if err := f.editable(seq); err != nil {
		return err
	}
	if seq.Kind != yaml.SequenceNode {
		return fmt.Errorf("%s: cannot remove an item from a %s", f.t.pos(seq), kindName(seq))
	}
	if item == nil || f.links[item].parent != seq {
		return fmt.Errorf("%s: the item to remove is not an item of this sequence", f.t.pos(seq))
	}
	if err := f.keepsAliases(item); err != nil {
		return err
	}
	return f.record(op{kind: opRemove, node: seq, item: item})
}

// Set gives key of mapping m the value v: an existing value (scalar or
// whole subtree) is replaced, a missing key is added after the last one.
// Setting the value a key already has records nothing.
func (f *File) Set(m *yaml.Node, key string, v any) error {
	if err := f.editable(m); err != nil {
		return err
	}
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: cannot set %q on a %s", f.t.pos(m), key, kindName(m))
	}
	nv, err := normalize(v)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", f.t.pos(m), key, err)
	}
	k, old := Lookup(m, key)
	if k == nil {
		return f.record(op{kind: opSet, node: m, key: key, value: nv})
	}
	var cur any
	if err := old.Decode(&cur); err == nil && diff(generic(nv), cur, "") == "" {
		return nil
	}
	if err := f.keepsAliases(old); err != nil {
		return err
	}
	return f.record(op{kind: opSet, node: m, item: k, key: key, value: nv})
}

// Delete removes key and its value from mapping m.
func (f *File) Delete(m *yaml.Node, key string) error {
	if err := f.editable(m); err != nil {
		return err
	}
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: cannot delete %q from a %s", f.t.pos(m), key, kindName(m))
	}
	k, v := Lookup(m, key)
	if k == nil {
		return fmt.Errorf("%s: no key %q to delete", f.t.pos(m), key)
	}
	if err := f.keepsAliases(k); err != nil {
		return err
	}
	if err := f.keepsAliases(v); err != nil {
		return err
	}
	return f.record(op{kind: opDelete, node: m, item: k, key: key})
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.AliasNode:
		return "alias"
	case yaml.DocumentNode:
		return "document"
	}
	return "scalar"
}

// editable refuses nodes that are not f's, aliases, and nodes inside an
// anchored node that an alias repeats (the edit would show there too).
func (f *File) editable(n *yaml.Node) error {
	if n == nil {
		return fmt.Errorf("%s: no node to edit", f.t.name)
	}
	if _, ok := f.links[n]; !ok || n == f.doc {
		return fmt.Errorf("%s: the node to edit is not a node of this file", f.t.name)
	}
	if n.Kind == yaml.AliasNode {
		if a := n.Alias; a != nil {
			return fmt.Errorf("%s: cannot edit through the alias *%s: edit the anchor &%s at line %d instead", f.t.pos(n), n.Value, a.Anchor, a.Line)
		}
		return fmt.Errorf("%s: cannot edit through the alias *%s", f.t.pos(n), n.Value)
	}
	for a := n; a != nil; a = f.links[a].parent {
		if as := f.aliases[a]; len(as) > 0 {
			return fmt.Errorf("%s: cannot edit inside the anchor &%s (line %d): the alias at line %d repeats it", f.t.pos(n), a.Anchor, a.Line, as[0].Line)
		}
	}
	return nil
}

// keepsAliases refuses to take away subtree n when it holds an anchor that
// an alias outside it uses.
func (f *File) keepsAliases(n *yaml.Node) error {
	var err error
	var walk func(c *yaml.Node)
	walk = func(c *yaml.Node) {
		for _, a := range f.aliases[c] {
			if err == nil && !f.within(a, n) {
				err = fmt.Errorf("%s: cannot take away the anchor &%s: the alias at line %d uses it", f.t.pos(c), c.Anchor, a.Line)
			}
		}
		for _, k := range c.Content {
			walk(k)
		}
	}
	walk(n)
	return err
}

// within reports whether n is anc or lies inside it.
func (f *File) within(n, anc *yaml.Node) bool {
	for ; n != nil; n = f.links[n].parent {
		if n == anc {
			return true
		}
	}
	return false
}

// record adds an edit after checking that it does not overlap one already
// recorded: an edit inside a subtree another edit replaces or removes, or
// a key edited twice.
func (f *File) record(o op) error {
	for _, p := range f.ops {
		if (o.kind == opSet || o.kind == opDelete) && (p.kind == opSet || p.kind == opDelete) && o.node == p.node && o.key == p.key {
			return fmt.Errorf("%s: overlapping edits: the key %q is edited twice", f.t.pos(o.node), o.key)
		}
		if r := f.overlap(o, p); r != nil {
			return fmt.Errorf("%s: overlapping edits: this edit touches what another edit replaces or removes (line %d)", f.t.pos(o.node), r.Line)
		}
	}
	f.ops = append(f.ops, o)
	return nil
}

// overlap returns the subtree replaced by one of a and b that holds what
// the other edits, or nil.
func (f *File) overlap(a, b op) *yaml.Node {
	for _, x := range [][2]op{{a, b}, {b, a}} {
		touched := append([]*yaml.Node{x[1].node}, x[1].replaced()...)
		for _, r := range x[0].replaced() {
			for _, n := range touched {
				if f.within(n, r) {
					return r
				}
			}
		}
	}
	return nil
}
