package lint

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// default-channel-deprecated and dangling-reference: two checks of a
// package's graph.

// defaultDeprecatedPackage reports a default channel that olm.deprecations
// deprecates: new installs would subscribe to it.
func defaultDeprecatedPackage(c *packageCheck) []Finding {
	p := c.pkg
	if p.Decl == nil || p.Deprecation == nil {
		return nil
	}
	ch := p.Decl.DefaultChannel
	msg, ok := p.Deprecated(declcfg.SchemaChannel, ch)
	if !ok {
		return nil
	}
	line := p.Deprecation.Pos.Line
	for _, e := range p.Deprecation.Entries {
		if e.Reference.Schema == declcfg.SchemaChannel && e.Reference.Name == ch && e.Line > 0 {
			line = e.Line
		}
	}
	return []Finding{{
		Rule: ruleDefaultDeprecated, Severity: Warning, Package: p.Name, Channel: ch,
		File: p.Decl.Pos.File, Line: p.Decl.Pos.Line,
		Message: fmt.Sprintf("the default channel %q is deprecated (%s:%d: %q): new installs subscribe to a deprecated channel; make a channel that is not deprecated the default", ch, p.Deprecation.Pos.File, line, msg),
	}}
}

// danglingPackage reports channel entries whose replaces or skips name no
// bundle of the package.
func danglingPackage(c *packageCheck) []Finding {
	p := c.pkg
	var out []Finding
	for _, chName := range p.ChannelNames() {
		ch := p.Channels[chName]
		for _, e := range ch.Decl.Entries {
			var missing []string
			if e.Replaces != "" && p.Bundles[e.Replaces] == nil {
				missing = append(missing, fmt.Sprintf("replaces %q", e.Replaces))
			}
			for _, s := range e.Skips {
				if p.Bundles[s] == nil {
					missing = append(missing, fmt.Sprintf("skips %q", s))
				}
			}
			if len(missing) == 0 {
				continue
			}
			line := e.Line
			if line == 0 {
				line = ch.Decl.Pos.Line
			}
			out = append(out, Finding{
				Rule: ruleDangling, Severity: Warning, Package: p.Name, Channel: chName, Bundle: e.Name,
				File: ch.Decl.Pos.File, Line: line,
				Message: fmt.Sprintf("the entry %s, which the package does not have: correct the name, or drop the reference if no catalog ever had that bundle", strings.Join(missing, " and ")),
			})
		}
	}
	return out
}
