package lint

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/lint/finding"
)

// default-channel-deprecated and dangling-reference: two checks of a
// package's graph.
const (
	ruleDefaultDeprecated = "default-channel-deprecated"
	ruleDangling          = "dangling-reference"
)

// defaultDeprecatedPackage reports a default channel that olm.deprecations
// deprecates: new installs would subscribe to it. The message quotes the
// deprecation, not its line, which differs between the catalogs rendered
// from one template (the finding is one for them all).
func defaultDeprecatedPackage(c *packageCheck) []finding.Finding {
	p := c.pkg
	if p.Decl == nil || p.Deprecation == nil {
		return nil
	}
	ch := p.Decl.DefaultChannel
	msg, ok := p.Deprecated(declcfg.SchemaChannel, ch)
	if !ok {
		return nil
	}
	return []finding.Finding{{
		Rule: ruleDefaultDeprecated, Severity: finding.Warning, Package: p.Name, Channel: ch,
		File: p.Decl.Pos.File, Line: p.Decl.Pos.Line,
		Message: fmt.Sprintf("the default channel %q is deprecated (olm.deprecations: %q): new installs subscribe to a deprecated channel; make a channel that is not deprecated the default", ch, msg),
	}}
}

// danglingPackage reports channel entries whose replaces names no bundle
// of the package (a warning: the upgrade edge is lost), and those whose
// skips do (an info: opm alpha catalog remove leaves skips of the bundle
// it removes, as OLM practice wants, so that installs of it upgrade).
func danglingPackage(c *packageCheck) []finding.Finding {
	p := c.pkg
	var out []finding.Finding
	for _, chName := range p.ChannelNames() {
		ch := p.Channels[chName]
		for _, e := range ch.Decl.Entries {
			line := e.Line
			if line == 0 {
				line = ch.Decl.Pos.Line
			}
			at := finding.Finding{Rule: ruleDangling, Package: p.Name, Channel: chName, Bundle: e.Name, File: ch.Decl.Pos.File, Line: line}
			if e.Replaces != "" && p.Bundles[e.Replaces] == nil {
				f := at
				f.Severity = finding.Warning
				f.Message = fmt.Sprintf("the entry replaces %q, which the package does not have: correct the name, or drop the reference if no catalog ever had that bundle", e.Replaces)
				out = append(out, f)
			}
			var missing []string
			for _, s := range e.Skips {
				if p.Bundles[s] == nil {
					missing = append(missing, fmt.Sprintf("%q", s))
				}
			}
			if len(missing) > 0 {
				f := at
				f.Severity = finding.Info
				f.Message = fmt.Sprintf("the entry skips %s, which the package does not have: fine for a bundle that was removed (its installs still upgrade), else correct the name", strings.Join(missing, ", "))
				out = append(out, f)
			}
		}
	}
	return out
}
