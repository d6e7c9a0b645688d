package model

import (
	"maps"
	"slices"

	"github.com/blang/semver/v4"
)

// What installs of a channel can upgrade to. OLM v0 upgrades an install
// within its subscription's channel along replaces, skips and skipRange,
// towards the channel's head; an install of a bundle no chain of
// upgrades leads from to the head is stranded. Remove (author) and the
// stranded-upgrade rule (lint) both ask this of the model.

// Unreachable lists, sorted, the channel's entries from which no chain of
// upgrades (replaces, skips, skipRange) leads to the channel's head: the
// installs that would be stranded. Without exactly one head, every entry
// is.
func (ch *Channel) Unreachable() []string {
	heads := ch.Heads()
	if len(heads) != 1 {
		return slices.Sorted(maps.Keys(ch.entries))
	}
	reach := ch.Reaching(heads[0], nil)
	var out []string
	for name := range ch.entries {
		if !reach[name] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// UpgradeHead is the head installs of the channel upgrade to: its one
// head or, when it has several (which validation reports), the one of
// the highest version (the first by name among those of equal or no
// version). ok is false when the channel has no head.
func (ch *Channel) UpgradeHead() (head string, ok bool) {
	heads := ch.Heads()
	if len(heads) == 0 {
		return "", false
	}
	best, bestV := heads[0], semverOf(ch.Package.Bundles[heads[0]])
	for _, h := range heads[1:] {
		if v := semverOf(ch.Package.Bundles[h]); v != nil && (bestV == nil || v.GT(*bestV)) {
			best, bestV = h, v
		}
	}
	return best, true
}

// Reaching is the set of names from which a chain of upgrades (replaces,
// skips, skipRange) leads to head in the channel, head included. gone
// are bundles taken out of the channel, by name (a bundle nil when it is
// not known, which leaves its version unknown): an entry that still
// replaces or skips one, or whose skipRange holds its version, upgrades
// its installs, so it is in the set when that entry is. Nothing upgrades
// to a bundle taken out.
func (ch *Channel) Reaching(head string, gone map[string]*Bundle) map[string]bool {
	versions := make(map[string]*semver.Version, len(ch.entries)+len(gone))
	for name := range ch.entries {
		versions[name] = semverOf(ch.Package.Bundles[name])
	}
	for name, b := range gone {
		if _, in := ch.entries[name]; !in {
			versions[name] = semverOf(b)
		}
	}
	seen := map[string]bool{head: true}
	todo := []string{head}
	mark := func(name string) {
		if _, ok := versions[name]; ok && !seen[name] {
			seen[name] = true
			todo = append(todo, name)
		}
	}
	for len(todo) > 0 {
		to := ch.entries[todo[len(todo)-1]]
		todo = todo[:len(todo)-1]
		if to == nil {
			continue // a bundle taken out: installs leave it, none reach it
		}
		mark(to.Replaces)
		for _, s := range to.Skips {
			mark(s)
		}
		r, err := semver.ParseRange(to.SkipRange)
		if to.SkipRange == "" || err != nil {
			continue
		}
		for name, v := range versions {
			if v != nil && r(*v) {
				mark(name)
			}
		}
	}
	return seen
}

// semverOf is a bundle's semantic version, nil when it has none (or the
// bundle is nil).
func semverOf(b *Bundle) *semver.Version {
	if b == nil {
		return nil
	}
	if v, err := b.Version(); err == nil {
		return &v.Version
	}
	return nil
}

// Edges lists the channel's upgrades as {from, to}, each once, in the
// entries' order: what each entry replaces and skips, and each bundle of
// the channel whose version its skipRange holds. These are the upgrades
// OLM v0 makes of installs in the channel (from may be a bundle the
// channel no longer has, which replaces or skips still name).
func (ch *Channel) Edges() [][2]string {
	var out [][2]string
	seen := map[[2]string]bool{}
	add := func(from, to string) {
		e := [2]string{from, to}
		if from != "" && from != to && !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	versions := map[string]*semver.Version{}
	for _, e := range ch.Decl.Entries {
		versions[e.Name] = semverOf(ch.Package.Bundles[e.Name])
	}
	for _, e := range ch.Decl.Entries {
		add(e.Replaces, e.Name)
		for _, s := range e.Skips {
			add(s, e.Name)
		}
		r, err := semver.ParseRange(e.SkipRange)
		if e.SkipRange == "" || err != nil {
			continue
		}
		for _, from := range ch.Decl.Entries {
			if v := versions[from.Name]; v != nil && r(*v) {
				add(from.Name, e.Name)
			}
		}
	}
	return out
}
