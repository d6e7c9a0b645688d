package report

import (
	"github.com/fbcat/opm/lint/change"

	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
)

// The upgrade graph of a changed channel, before and after the change,
// as one mermaid flowchart of two subgraphs. Edges go the way installs
// upgrade, labelled as opm alpha render-graph labels them (replace,
// skip, skipRange); bundles the change added or took out, deprecated
// bundles and heads are styled. Node ids are generated (b0, a3, …) and
// every label is quoted and escaped, so that no bundle name can break
// the chart.

// maxGraphEntries is how many entries one side of a channel's graph
// draws; beyond it, only the entries the change touched, the heads and
// their neighbours are drawn.
const maxGraphEntries = 30

const mermaidClasses = `  classDef added fill:#dafbe1,stroke:#1a7f37
  classDef removed fill:#ffebe9,stroke:#cf222e,stroke-dasharray:4 3
  classDef deprecated fill:#E8960F
  classDef head stroke-width:4px
  classDef outside fill:#ffffff,stroke:#8c959f,stroke-dasharray:2 2
`

// graphSide is one side (before or after) being drawn.
type graphSide struct {
	prefix  string // node id prefix: b or a
	entries []change.Entry
	head    string
	total   int // entries in the channel, drawn or not
	ids     map[string]string
	classes map[string][]string
	b       *strings.Builder
}

// writeChannelMermaid writes the flowchart of a changed channel.
func writeChannelMermaid(b *strings.Builder, c change.Channel) {
	before := &graphSide{prefix: "b", head: c.HeadBefore, total: len(c.Before)}
	after := &graphSide{prefix: "a", head: c.HeadAfter, total: len(c.After)}
	focus := changedEntries(c)
	before.entries = trimEntries(c.Before, focus)
	after.entries = trimEntries(c.After, focus)
	inBefore, inAfter := entrySet(c.Before), entrySet(c.After)

	b.WriteString("flowchart LR\n")
	before.draw(b, "before", func(name string) string {
		if !inAfter[name] {
			return "removed"
		}
		return ""
	})
	after.draw(b, "after", func(name string) string {
		if !inBefore[name] {
			return "added"
		}
		return ""
	})
	// an invisible link puts before on the left of after
	b.WriteString("  before ~~~ after\n")
	b.WriteString(mermaidClasses)
	for _, s := range []*graphSide{before, after} {
		for _, class := range []string{"added", "removed", "deprecated", "head", "outside"} {
			if ids := s.classes[class]; len(ids) > 0 {
				fmt.Fprintf(b, "  class %s %s\n", strings.Join(ids, ","), class)
			}
		}
	}
}

// draw writes one side as a subgraph; change names the class of an
// entry the other side does not have.
func (s *graphSide) draw(b *strings.Builder, title string, change func(string) string) {
	s.ids, s.classes, s.b = map[string]string{}, map[string][]string{}, b
	label := title
	switch {
	case s.total == 0:
		label += " (no channel)"
	case len(s.entries) < s.total:
		label += fmt.Sprintf(" (%d of %d entries)", len(s.entries), s.total)
	}
	fmt.Fprintf(b, "  subgraph %s[\"%s\"]\n    direction TB\n", title, mermaidText(label))
	if s.total == 0 {
		// an empty subgraph does not render: give it a blank node
		fmt.Fprintf(b, "    %snone[\" \"]\n", s.prefix)
		s.classes["outside"] = append(s.classes["outside"], s.prefix+"none")
	}
	for _, e := range s.entries {
		id := s.node(e.Name, false)
		if c := change(e.Name); c != "" {
			s.classes[c] = append(s.classes[c], id)
		}
		if e.Deprecated {
			s.classes["deprecated"] = append(s.classes["deprecated"], id)
		}
		if e.Name == s.head {
			s.classes["head"] = append(s.classes["head"], id)
		}
	}
	s.edges()
	b.WriteString("  end\n")
}

// node returns the id of a bundle's node, declaring it the first time;
// outside marks a bundle that is not an entry drawn (the target of a
// replaces or skips).
func (s *graphSide) node(name string, outside bool) string {
	if id, ok := s.ids[name]; ok {
		return id
	}
	id := fmt.Sprintf("%s%d", s.prefix, len(s.ids))
	s.ids[name] = id
	fmt.Fprintf(s.b, "    %s[\"%s\"]\n", id, mermaidText(name))
	if outside {
		s.classes["outside"] = append(s.classes["outside"], id)
	}
	return id
}

// edges writes the edges into the drawn entries: from what each
// replaces, skips and skipRanges.
func (s *graphSide) edges() {
	versions := map[string]*semver.Version{}
	for _, e := range s.entries {
		if v, err := semver.Parse(e.Version); err == nil {
			versions[e.Name] = &v
		}
	}
	for _, e := range s.entries {
		to := s.ids[e.Name]
		if e.Replaces != "" {
			fmt.Fprintf(s.b, "    %s -->|replace| %s\n", s.node(e.Replaces, true), to)
		}
		for _, sk := range e.Skips {
			fmt.Fprintf(s.b, "    %s -->|skip| %s\n", s.node(sk, true), to)
		}
		r, err := semver.ParseRange(e.SkipRange)
		if e.SkipRange == "" || err != nil {
			continue
		}
		label := mermaidText("skipRange(" + e.SkipRange + ")")
		for _, from := range s.entries {
			if v := versions[from.Name]; v != nil && from.Name != e.Name && r(*v) {
				fmt.Fprintf(s.b, "    %s -->|\"%s\"| %s\n", s.ids[from.Name], label, to)
			}
		}
	}
}

// changedEntries names the entries that differ between the sides, and
// the heads.
func changedEntries(c change.Channel) map[string]bool {
	out := map[string]bool{c.HeadBefore: true, c.HeadAfter: true}
	before := map[string]change.Entry{}
	for _, e := range c.Before {
		before[e.Name] = e
	}
	for _, e := range c.After {
		if old, ok := before[e.Name]; !ok || !old.Equal(e) {
			out[e.Name] = true
		}
		delete(before, e.Name)
	}
	for name := range before {
		out[name] = true
	}
	delete(out, "")
	return out
}

// trimEntries keeps a big channel's graph readable: the entries of focus
// and their neighbours (what they replace or skip, what replaces or
// skips them), at most maxGraphEntries, newest first.
func trimEntries(entries []change.Entry, focus map[string]bool) []change.Entry {
	if len(entries) <= maxGraphEntries {
		return entries
	}
	keep := map[string]bool{}
	for _, e := range entries {
		if !focus[e.Name] {
			continue
		}
		keep[e.Name] = true
		keep[e.Replaces] = true
		for _, s := range e.Skips {
			keep[s] = true
		}
	}
	for _, e := range entries {
		if focus[e.Replaces] || slices.ContainsFunc(e.Skips, func(s string) bool { return focus[s] }) {
			keep[e.Name] = true
		}
	}
	var out []change.Entry
	for _, e := range entries {
		if keep[e.Name] && len(out) < maxGraphEntries {
			out = append(out, e)
		}
	}
	return out
}

func entrySet(entries []change.Entry) map[string]bool {
	out := make(map[string]bool, len(entries))
	for _, e := range entries {
		out[e.Name] = true
	}
	return out
}

// mermaidText escapes text for a quoted mermaid label: quotes, angle
// brackets, backticks (markdown strings), the entity sign and the other
// characters mermaid's grammar reads become #code; entities, and line
// breaks spaces.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '"', '#', '<', '>', '&', '`', '|', '\\', '[', ']', '{', '}', ';':
			fmt.Fprintf(&b, "#%d;", r)
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
