package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/model"
)

// stranded-upgrade: compared with the baseline, an install that could
// upgrade to its channel's head no longer can. OLM v0 upgrades an install
// within its subscription's channel, along replaces, skips and skipRange
// (model.Channel.Reaching, which remove's Unreachable asks too); a bundle
// taken out of a channel strands its installs unless some entry still
// replaces, skips or skipRanges it.
const ruleStranded = "stranded-upgrade"

func strandedPackage(c *packageCheck) []finding.Finding {
	if c.cat.base == nil {
		return nil
	}
	old := c.cat.base.Packages[c.pkg.Name]
	if old == nil {
		return nil // a new package
	}
	var out []finding.Finding
	for _, chName := range old.ChannelNames() {
		out = append(out, strandedChannel(c, old, chName)...)
	}
	return out
}

// reachableIn lists, sorted, the entries of a channel that can upgrade
// to the head installs upgrade to.
func reachableIn(ch *model.Channel) []string {
	head, ok := ch.UpgradeHead()
	if !ok {
		return nil
	}
	reach := ch.Reaching(head, nil)
	var out []string
	for _, e := range ch.Decl.Entries {
		if reach[e.Name] && !slices.Contains(out, e.Name) {
			out = append(out, e.Name)
		}
	}
	slices.Sort(out)
	return out
}

// strandedChannel compares one channel with the baseline's.
func strandedChannel(c *packageCheck, old *model.Package, chName string) []finding.Finding {
	was := reachableIn(old.Channels[chName])
	if len(was) == 0 {
		return nil
	}
	p := c.pkg
	ch := p.Channels[chName]
	at := finding.Finding{Rule: ruleStranded, Severity: finding.Error, Package: p.Name, Channel: chName}
	if ch == nil {
		at.File, at.Line = p.Decl.Pos.File, p.Decl.Pos.Line
		at.Message = fmt.Sprintf("channel %q is gone: installs subscribed to it (%s) have nothing to upgrade to; keep the channel (deprecate it instead), or give it an entry that replaces its head", chName, names(was))
		return []finding.Finding{at}
	}
	head, ok := ch.UpgradeHead()
	if !ok {
		if len(ch.Decl.Entries) > 0 {
			return nil // a cycle: catalog-invalid reports it
		}
		at.File, at.Line = ch.Decl.Pos.File, ch.Decl.Pos.Line
		at.Message = fmt.Sprintf("channel %q has no entries now: installs subscribed to it (%s) have nothing to upgrade to; keep an entry that replaces or skips them, or deprecate the channel", chName, names(was))
		return []finding.Finding{at}
	}
	gone := map[string]*model.Bundle{}
	for _, name := range was {
		if ch.Entry(name) == nil {
			gone[name] = old.Bundles[name]
		}
	}
	reach := ch.Reaching(head, gone)
	var out []finding.Finding
	for _, name := range was {
		if reach[name] {
			continue
		}
		at.Bundle, at.File, at.Line = name, ch.Decl.Pos.File, ch.Decl.Pos.Line
		if e := ch.Entry(name); e != nil {
			if e.Line > 0 {
				at.Line = e.Line
			}
			at.Message = fmt.Sprintf("installs of %s could upgrade to the channel's head in the baseline, but no chain of replaces, skips or skipRange leads from it to %s now: have an entry replace or skip it, or restore the edge that was removed", name, head)
		} else {
			at.Message = fmt.Sprintf("%s was taken out of the channel and no entry that leads to %s replaces, skips or skipRanges it: its installs cannot upgrade; have an entry skip it", name, head)
		}
		out = append(out, at)
	}
	return out
}

// strandedPackagesGone reports the packages of the baseline a catalog no
// longer has.
func strandedPackagesGone(cat *catalog, file string) []finding.Finding {
	if cat.base == nil {
		return nil
	}
	var out []finding.Finding
	for _, name := range cat.base.PackageNames() {
		if cat.model.Packages[name] != nil {
			continue
		}
		out = append(out, finding.Finding{Rule: ruleStranded, Severity: finding.Error, Package: name, File: file,
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
