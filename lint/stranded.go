package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// stranded-upgrade: compared with the baseline, an install that could
// upgrade to its channel's head no longer can. OLM v0 upgrades an install
// within its subscription's channel, along replaces, skips and skipRange
// (model.Channel.Unreachable); a bundle taken out of a channel strands its
// installs unless some entry still replaces, skips or skipRanges it.

func strandedPackage(c *packageCheck) []Finding {
	if c.cat.base == nil {
		return nil
	}
	old := c.cat.base.Packages[c.pkg.Name]
	if old == nil {
		return nil // a new package
	}
	var out []Finding
	for _, chName := range old.ChannelNames() {
		out = append(out, strandedChannel(c, old, chName)...)
	}
	return out
}

// reachableIn lists the entries of a channel that can upgrade to its head.
func reachableIn(ch *model.Channel) []string {
	un := ch.Unreachable()
	var out []string
	for _, e := range ch.Decl.Entries {
		if !slices.Contains(un, e.Name) && !slices.Contains(out, e.Name) {
			out = append(out, e.Name)
		}
	}
	slices.Sort(out)
	return out
}

// strandedChannel compares one channel with the baseline's.
func strandedChannel(c *packageCheck, old *model.Package, chName string) []Finding {
	was := reachableIn(old.Channels[chName])
	if len(was) == 0 {
		return nil
	}
	p := c.pkg
	ch := p.Channels[chName]
	at := Finding{Rule: ruleStranded, Severity: Error, Package: p.Name, Channel: chName}
	if ch == nil {
		at.File, at.Line = p.Decl.Pos.File, p.Decl.Pos.Line
		at.Message = fmt.Sprintf("channel %q is gone: installs subscribed to it (%s) have nothing to upgrade to; keep the channel (deprecate it instead), or give it an entry that replaces its head", chName, names(was))
		return []Finding{at}
	}
	if heads := ch.Heads(); len(heads) != 1 {
		return nil // opm validate reports a channel without exactly one head
	}
	head, _ := ch.Head()
	var out []Finding
	var referenced []string
	for _, name := range was {
		switch {
		case ch.Entry(name) != nil:
		case refersTo(ch, name, old.Bundles[name]):
			referenced = append(referenced, name)
		default:
			at.Bundle, at.File, at.Line = name, ch.Decl.Pos.File, ch.Decl.Pos.Line
			at.Message = fmt.Sprintf("%s was taken out of the channel and no entry replaces, skips or skipRanges it: its installs cannot upgrade to %s; have an entry skip it", name, head)
			out = append(out, at)
		}
	}
	un := augmented(p, ch, referenced, old).Unreachable()
	for _, name := range was {
		if !slices.Contains(un, name) {
			continue
		}
		at.Bundle, at.File, at.Line = name, ch.Decl.Pos.File, ch.Decl.Pos.Line
		if e := ch.Entry(name); e != nil && e.Line > 0 {
			at.Line = e.Line
		}
		at.Message = fmt.Sprintf("installs of %s could upgrade to the channel's head in the baseline, but no chain of replaces, skips or skipRange leads from it to %s now: have an entry replace or skip it, or restore the edge that was removed", name, head)
		out = append(out, at)
	}
	return out
}

// refersTo reports whether an entry of ch replaces, skips or skipRanges
// the bundle name (whose baseline blob is b, for its version).
func refersTo(ch *model.Channel, name string, b *model.Bundle) bool {
	var v *semver.Version
	if b != nil {
		if mv, err := b.Version(); err == nil {
			v = &mv.Version
		}
	}
	for _, e := range ch.Decl.Entries {
		if e.Replaces == name || slices.Contains(e.Skips, name) {
			return true
		}
		if e.SkipRange != "" && v != nil {
			if r, err := semver.ParseRange(e.SkipRange); err == nil && r(*v) {
				return true
			}
		}
	}
	return false
}

// augmented is the channel with an entry for each bundle taken out of it
// that an entry still refers to (so that its installs' way to the head can
// be followed), as a channel of a package of its own.
func augmented(p *model.Package, ch *model.Channel, extra []string, old *model.Package) *model.Channel {
	decl := *ch.Decl
	decl.Entries = slices.Clone(ch.Decl.Entries)
	cfg := &declcfg.DeclarativeConfig{Packages: []declcfg.Package{*p.Decl}}
	for _, name := range extra {
		decl.Entries = append(decl.Entries, declcfg.ChannelEntry{Name: name})
		if b := old.Bundles[name]; b != nil && b.Decl != nil && p.Bundles[name] == nil {
			cfg.Bundles = append(cfg.Bundles, *b.Decl)
		}
	}
	cfg.Channels = []declcfg.Channel{decl}
	for _, e := range decl.Entries {
		if b := p.Bundles[e.Name]; b != nil && b.Decl != nil {
			cfg.Bundles = append(cfg.Bundles, *b.Decl)
		}
	}
	m, _ := model.New(cfg, model.Options{})
	return m.Packages[p.Name].Channels[ch.Name]
}

// strandedPackagesGone reports the packages of the baseline a catalog no
// longer has.
func strandedPackagesGone(cat *catalog, file string) []Finding {
	if cat.base == nil {
		return nil
	}
	var out []Finding
	for _, name := range cat.base.PackageNames() {
		if cat.model.Packages[name] != nil {
			continue
		}
		out = append(out, Finding{Rule: ruleStranded, Severity: Error, Package: name, File: file,
			Message: fmt.Sprintf("package %q is gone from the catalog: its installs have nothing to upgrade to; deprecate the package (olm.deprecations) instead of removing it", name)})
	}
	return out
}

// names lists bundle names for messages, at most five.
func names(ns []string) string {
	if len(ns) > 5 {
		return strings.Join(ns[:5], ", ") + fmt.Sprintf(" and %d more", len(ns)-5)
	}
	return strings.Join(ns, ", ")
}
