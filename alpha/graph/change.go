package graph

import (
	"fmt"
	"io"
	"strings"

	"github.com/blang/semver/v4"
)

// A channel's change, before and after, as one mermaid flowchart of two
// subgraphs (lint's pull-request summary draws it): edges go the way
// installs upgrade, labelled as the catalog's drawing labels them
// (replace, skip, skipRange); bundles one side lacks, deprecated bundles
// and heads are styled. Node ids are generated (b0, a3, …) and every
// label is quoted and escaped (see mermaidText), so that no bundle name
// can break the chart.

// The labels of upgrade edges, in every drawing.
const (
	labelReplace = "replace"
	labelSkip    = "skip"
)

// skipRangeLabel is the label of a skipRange edge.
func skipRangeLabel(skipRange string) string { return "skipRange(" + skipRange + ")" }

const changeClasses = `  classDef added fill:#dafbe1,stroke:#1a7f37
  classDef removed fill:#ffebe9,stroke:#cf222e,stroke-dasharray:4 3
  classDef deprecated fill:#E8960F
  classDef head stroke-width:4px
  classDef outside fill:#ffffff,stroke:#8c959f,stroke-dasharray:2 2
`

// ChangeEntry is an entry of a channel as WriteChange draws it: its
// bundle's version (no skipRange edge starts at an entry whose version
// is not semantic), its edges, and whether it is deprecated.
type ChangeEntry struct {
	Name       string
	Version    string
	Replaces   string
	Skips      []string
	SkipRange  string
	Deprecated bool
}

// ChangeSide is one side of a channel's change, before or after.
type ChangeSide struct {
	// Entries are the entries drawn, newest first.
	Entries []ChangeEntry
	// Total is how many entries the channel has on this side, drawn or
	// not: 0 when the side has no such channel.
	Total int
	// Head is the head installs upgrade to ("" for none).
	Head string
	// Other names the entries of the other side: an entry it lacks is
	// styled removed (before) or added (after).
	Other map[string]bool
}

// WriteChange writes the flowchart of a channel's change.
func WriteChange(w io.Writer, before, after ChangeSide) error {
	b := &strings.Builder{}
	b.WriteString("flowchart LR\n")
	sides := []*changeSide{
		{ChangeSide: before, prefix: "b", title: "before", mark: "removed"},
		{ChangeSide: after, prefix: "a", title: "after", mark: "added"},
	}
	for _, s := range sides {
		s.draw(b)
	}
	// an invisible link puts before on the left of after
	b.WriteString("  before ~~~ after\n")
	b.WriteString(changeClasses)
	for _, s := range sides {
		for _, class := range []string{"added", "removed", "deprecated", "head", "outside"} {
			if ids := s.classes[class]; len(ids) > 0 {
				fmt.Fprintf(b, "  class %s %s\n", strings.Join(ids, ","), class)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// changeSide is one side being drawn.
type changeSide struct {
	ChangeSide
	prefix string // node id prefix: b or a
	title  string
	mark   string // the class of an entry the other side lacks
	ids    map[string]string
	// classes are node ids by class
	classes map[string][]string
	b       *strings.Builder
}

// draw writes the side as a subgraph.
func (s *changeSide) draw(b *strings.Builder) {
	s.ids, s.classes, s.b = map[string]string{}, map[string][]string{}, b
	label := s.title
	switch {
	case s.Total == 0:
		label += " (no channel)"
	case len(s.Entries) < s.Total:
		label += fmt.Sprintf(" (%d of %d entries)", len(s.Entries), s.Total)
	}
	fmt.Fprintf(b, "  subgraph %s[\"%s\"]\n    direction TB\n", s.title, mermaidText(label))
	if s.Total == 0 {
		// an empty subgraph does not render: give it a blank node
		fmt.Fprintf(b, "    %snone[\" \"]\n", s.prefix)
		s.classes["outside"] = append(s.classes["outside"], s.prefix+"none")
	}
	for _, e := range s.Entries {
		id := s.node(e.Name, false)
		if !s.Other[e.Name] {
			s.classes[s.mark] = append(s.classes[s.mark], id)
		}
		if e.Deprecated {
			s.classes["deprecated"] = append(s.classes["deprecated"], id)
		}
		if e.Name == s.Head {
			s.classes["head"] = append(s.classes["head"], id)
		}
	}
	s.edges()
	b.WriteString("  end\n")
}

// node returns the id of a bundle's node, declaring it the first time;
// outside marks a bundle that is not an entry drawn (the target of a
// replaces or skips).
func (s *changeSide) node(name string, outside bool) string {
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
func (s *changeSide) edges() {
	versions := map[string]*semver.Version{}
	for _, e := range s.Entries {
		if v, err := semver.Parse(e.Version); err == nil {
			versions[e.Name] = &v
		}
	}
	for _, e := range s.Entries {
		to := s.ids[e.Name]
		if e.Replaces != "" {
			fmt.Fprintf(s.b, "    %s -->|%s| %s\n", s.node(e.Replaces, true), labelReplace, to)
		}
		for _, sk := range e.Skips {
			fmt.Fprintf(s.b, "    %s -->|%s| %s\n", s.node(sk, true), labelSkip, to)
		}
		r, err := semver.ParseRange(e.SkipRange)
		if e.SkipRange == "" || err != nil {
			continue
		}
		label := mermaidText(skipRangeLabel(e.SkipRange))
		for _, from := range s.Entries {
			if v := versions[from.Name]; v != nil && from.Name != e.Name && r(*v) {
				fmt.Fprintf(s.b, "    %s -->|\"%s\"| %s\n", s.ids[from.Name], label, to)
			}
		}
	}
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
