package model

import (
	"fmt"
	"slices"
	"strings"
)

// Heads lists, sorted, the channel's entries that no entry replaces or
// skips (names that are not entries count as edges too). A valid channel
// has exactly one: its head.
func (ch *Channel) Heads() []string {
	incoming := make(map[string]bool, len(ch.Decl.Entries))
	for _, e := range ch.Decl.Entries {
		incoming[e.Replaces] = true
		for _, s := range e.Skips {
			incoming[s] = true
		}
	}
	var heads []string
	for name := range ch.entries {
		if !incoming[name] {
			heads = append(heads, name)
		}
	}
	slices.Sort(heads)
	return heads
}

// Head returns the channel's head, or an error (upstream's words) when
// there is none or more than one.
func (ch *Channel) Head() (string, error) {
	heads := ch.Heads()
	switch len(heads) {
	case 0:
		return "", fmt.Errorf("no channel head found in graph")
	case 1:
		return heads[0], nil
	}
	return "", fmt.Errorf("multiple channel heads found in graph: %s", strings.Join(heads, ", "))
}

// Graph is a channel's upgrade graph as OLM reads it: from the head,
// follow replaces until the replaced bundle is skipped by some entry or is
// not an entry.
type Graph struct {
	Head string
	// Chain is the replaces chain from the head. With Cycle, its last name
	// is one that appeared before.
	Chain []string
	Cycle bool
	// Stranded lists, sorted, the entries neither on the chain nor
	// skipped by any entry: no upgrade reaches them.
	Stranded []string
}

// Graph computes the channel's upgrade graph; the error is Head's.
func (ch *Channel) Graph() (*Graph, error) {
	head, err := ch.Head()
	if err != nil {
		return nil, err
	}
	skipped := map[string]bool{}
	for _, e := range ch.Decl.Entries {
		for _, s := range e.Skips {
			skipped[s] = true
		}
	}
	g := &Graph{Head: head, Chain: []string{head}}
	onChain := map[string]bool{head: true}
	for cur := ch.entries[head]; cur.Replaces != ""; {
		next := cur.Replaces
		e, ok := ch.entries[next]
		if skipped[next] || !ok {
			break
		}
		g.Chain = append(g.Chain, next)
		if onChain[next] {
			g.Cycle = true
			return g, nil
		}
		onChain[next] = true
		cur = e
	}
	for name := range ch.entries {
		if !onChain[name] && !skipped[name] {
			g.Stranded = append(g.Stranded, name)
		}
	}
	slices.Sort(g.Stranded)
	return g, nil
}
