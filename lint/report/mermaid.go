package report

import (
	"slices"
	"strings"

	"github.com/fbcat/opm/alpha/graph"
	"github.com/fbcat/opm/lint/change"
)

// The upgrade graph of a changed channel, before and after the change,
// as alpha/graph draws it (graph.WriteChange): here is what is drawn of
// each side. A big channel is trimmed to the entries the change touched,
// the heads and their neighbours.

// maxGraphEntries is how many entries one side of a channel's graph
// draws; beyond it, only the entries the change touched, the heads and
// their neighbours are drawn.
const maxGraphEntries = 30

// writeChannelMermaid writes the flowchart of a changed channel.
func writeChannelMermaid(b *strings.Builder, c change.Channel) {
	focus := changedEntries(c)
	// A strings.Builder does not fail.
	_ = graph.WriteChange(b, graphSide(c.Before, c.HeadBefore, focus, c.After), graphSide(c.After, c.HeadAfter, focus, c.Before))
}

// graphSide is what is drawn of one side of a channel: its entries,
// trimmed, beside those of the other side.
func graphSide(entries []change.Entry, head string, focus map[string]bool, other []change.Entry) graph.ChangeSide {
	s := graph.ChangeSide{Total: len(entries), Head: head, Other: entrySet(other)}
	for _, e := range trimEntries(entries, focus) {
		s.Entries = append(s.Entries, graph.ChangeEntry(e))
	}
	return s
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
