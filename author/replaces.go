package author

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
)

// chooseReplaces is what the new entry of a basic template's channel
// replaces, and a note of what was chosen ("" when nothing was). What the
// target says is taken as it is. Where it says nothing and no
// release-config.yaml does, the choice is the one the bundle makes for
// itself, its CSV's spec.replaces, where that names the channel's head,
// else the channel's head (as promote does): either way the new bundle
// heads the channel, which upgrades to it. Where neither can be chosen
// (the channel has several heads, the CSV names a bundle of it that is no
// head, the head is not older than the new bundle) it refuses, naming
// --replaces in the command line's words. A release-config.yaml that
// gives a channel with a head no replaces, skips or skipRange is refused
// at its channels key: the new bundle would be a second head.
func (p *Package) chooseReplaces(d *basicDoc, channel string, target repoconfig.ReleaseTarget, rel *released) (string, string, error) {
	ch := d.Channel(channel)
	if target.Replaces != "" || ch == nil || catalogrepo.EntryNamed(ch, rel.fbc.Name) != nil {
		return target.Replaces, "", nil // given, a new channel, or one that lists the bundle (addEntry says)
	}
	heads := channelHeads(ch)
	if len(heads) == 0 {
		return "", "", nil
	}
	where := fmt.Sprintf("channel %s of %s", channel, d.Template.TemplateFile)
	if rel.rc.File != "" {
		if len(target.Skips) > 0 || target.SkipRange != "" {
			return "", "", nil // it says how the heads are left behind
		}
		return "", "", repoconfig.ErrorAt(rel.rc.File, target.LineOf("channels"), "%s has head %s, and no replaces says what %s replaces: it would be a second head; add replaces: %s", where, strings.Join(heads, ", "), rel.fbc.Name, heads[0])
	}
	need := func(format string, args ...any) error {
		return catalogrepo.Refuse("%w", needReplaces(fmt.Sprintf(format, args...)))
	}
	if len(heads) > 1 {
		return "", "", need("%s has %d heads (%s), so what %s replaces cannot be chosen", where, len(heads), strings.Join(heads, ", "), rel.fbc.Name)
	}
	head, why := heads[0], "the channel's head"
	if r := rel.csvReplaces; r != "" && catalogrepo.EntryNamed(ch, r) != nil {
		if r != head {
			return "", "", need("the ClusterServiceVersion of %s replaces %s, which is in %s but is not its head (%s): replacing it would leave two heads", rel.fbc.Name, r, where, head)
		}
		why = "its ClusterServiceVersion's spec.replaces, the channel's head"
	}
	if hv, ok := p.BundleVersion(head); ok && rel.version.LTE(hv) {
		return "", "", need("%s (%s) is not newer than %s (%s), the head of %s: upgrades would go backwards", rel.fbc.Name, rel.version, head, hv, where)
	}
	return head, fmt.Sprintf("no release-config.yaml: %s replaces %s in %s, %s", rel.fbc.Name, head, where, why), nil
}
