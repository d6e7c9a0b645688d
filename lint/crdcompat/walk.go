package crdcompat

import (
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
)

// The comparison of one version's schema with another's (the same
// version in the new CRD, or a later served version of one CRD), node by
// node.

// removedMessage is the message of a field the new schema lacks.
const removedMessage = "field removed: existing objects that set it no longer validate; deprecate it instead of removing it"

// compareVersions compares the schemas of one version in the old and the
// new CRD. A field the new one lacks is reported once, with nothing
// under it.
func compareVersions(ov, nv *version) []Change {
	w := walk{}
	w.run(ov, nv)
	return w.changes
}

// walk is one comparison of two versions' schemas.
type walk struct {
	// served is set when the versions are two served versions of one
	// CRD: crdify compares them node by node without its rule for removed
	// fields, so a node the newer version lacks counts only when what the
	// older one had there is something its rules refuse to lose (see
	// flagged), and every such node is listed, those under another
	// removed one too (newServedChanges leaves those out once it has
	// compared them with the old CRD's).
	served bool
	// form is how the served versions' nodes are written for same: literal
	// for a CRD from a bundle, canonical for one from the cluster.
	form form
	// changes are the unsafe changes found, matches how each is matched
	// with the old CRD's problems.
	changes []Change
	matches []match
}

// match is what newServedChanges matches a change with the old CRD's
// problems by: same, what the preflight's message for it holds (see
// nodeChange.same); whole, for a change of a member compared whole, the
// paths of the schemas under it (in served comparisons, where such a
// change is kept until newServedChanges knows which changes under it are
// new); byChance, whether the message matches only by chance (see
// nodeChange.byChance).
type match struct {
	same, whole string
	byChance    bool
}

// pendingWhole is a change of a member the preflight compares whole (see
// wholeKeywords), reported only when no change was found under it: at is
// where it goes among the changes.
type pendingWhole struct {
	at     int
	change Change
	match  match
}

func (w *walk) add(c Change, m match) {
	w.changes = append(w.changes, c)
	w.matches = append(w.matches, m)
}

// run compares the nodes of ov with those of the same paths in nv.
func (w *walk) run(ov, nv *version) {
	removed := make([]bool, len(ov.nodes))
	oneOf := map[string]bool{} // nodes whose oneOf schemas changed
	var wholes []pendingWhole
	for i := range ov.nodes {
		o := &ov.nodes[i]
		if o.parent >= 0 && removed[o.parent] {
			removed[i] = true // within a removed field: reported with it
			if w.served {
				w.removedField(ov, nv, o)
			}
			continue
		}
		if underChangedOneOf(o.path, oneOf) {
			continue // the oneOf change says it
		}
		n := nv.lookup(o.path)
		if n == nil {
			removed[i] = true
			w.removedField(ov, nv, o)
			continue
		}
		if o.sig == n.sig {
			continue // nothing compareNodes reads differs
		}
		changes := compareNodes(o.n, n.n)
		w.group(o.n, n.n, changes)
		for _, c := range changes {
			at := n.n.At(c.key)
			if at == nil || c.key == "" {
				at = n.n
			}
			ch := Change{Kind: c.kind, Version: ov.name, Field: o.path, Line: nodeLine(at), Message: c.msg}
			switch {
			case c.whole:
				wholes = append(wholes, pendingWhole{at: len(w.changes), change: ch, match: match{same: c.same, whole: wholePrefix(o.path, c.key), byChance: c.byChance}})
			default:
				if c.kind == OneOfChanged {
					oneOf[o.path] = true
				}
				w.add(ch, match{same: c.same, byChance: c.byChance})
			}
		}
	}
	w.addWholes(wholes)
}

// group gives the changes of the nodes o and n that crdify reports as one
// (see nodeChange.grouped) what its message holds: a diff of what is
// left of the two nodes, which their rest in the walk's form stands for.
func (w *walk) group(o, n *value.Value, changes []nodeChange) {
	if !w.served || !slices.ContainsFunc(changes, func(c nodeChange) bool { return c.grouped }) {
		return
	}
	same := "unhandled " + string(w.form.node(nil, o, unhandledByRule)) + "\x00" + string(w.form.node(nil, n, unhandledByRule))
	for i := range changes {
		if changes[i].grouped {
			changes[i].same = same
		}
	}
}

// removedField reports the node o of ov, which nv lacks, at its parent
// in nv (or nv's version when the parent is gone too).
func (w *walk) removedField(ov, nv *version, o *schemaNode) {
	if w.served && !flagged(o.n) {
		return
	}
	at := nv.node
	if o.parent >= 0 {
		if p := nv.lookup(ov.nodes[o.parent].path); p != nil {
			at = p.n
		}
	}
	w.add(Change{Kind: FieldRemoved, Version: ov.name, Field: o.path, Line: nodeLine(at), Message: removedMessage},
		match{same: "removed " + string(w.form.node(nil, o.n, notFlagged))})
}

// notFlagged are the members a node can lose without crdify's rules
// refusing it, when it compares the node with none: its description and
// children (compared where they are), bounds and required fields (none
// is looser).
func notFlagged(key string) bool {
	switch key {
	case "description", "properties", "items", "required", "maximum", "maxItems", "maxLength",
		"maxProperties", "minimum", "minItems", "minLength", "minProperties":
		return true
	}
	return false
}

// flagged reports whether crdify refuses to compare a node with none: it
// has a type, an enum, a default, a pattern, a oneOf, nullable or
// anything it has no rule for.
func flagged(n *value.Value) bool {
	return string(canonical(nil, n, notFlagged)) != "{}"
}

// addWholes puts in the changes of members compared whole, each at its
// place: those with no change found under them, or, in served
// comparisons, all of them (see match.whole).
func (w *walk) addWholes(ps []pendingWhole) {
	if !w.served {
		ps = slices.DeleteFunc(ps, func(p pendingWhole) bool {
			return slices.ContainsFunc(w.changes, func(c Change) bool { return within(c.Field, p.match.whole) })
		})
	}
	if len(ps) == 0 {
		return
	}
	changes, matches := w.changes, w.matches
	w.changes, w.matches = nil, nil
	for i := 0; i <= len(changes); i++ {
		for len(ps) > 0 && ps[0].at == i {
			w.add(ps[0].change, ps[0].match)
			ps = ps[1:]
		}
		if i < len(changes) {
			w.add(changes[i], matches[i])
		}
	}
}

// underChangedOneOf reports whether path is under a oneOf schema of a
// node whose oneOf schemas changed. The preflight compares oneOf schemas
// as a set, and also each with the one at its index, which only matters
// when the set is the same (the schemas reordered).
func underChangedOneOf(path string, changed map[string]bool) bool {
	if len(changed) == 0 {
		return false
	}
	for i := 0; ; {
		j := strings.Index(path[i:], "(oneOf[")
		if j < 0 {
			return false
		}
		if changed[path[:i+j]] {
			return true
		}
		i += j + 1
	}
}

// nodeLine is a node's line, 0 for none.
func nodeLine(n *value.Value) int {
	if n == nil {
		return 0
	}
	return int(n.Line)
}
