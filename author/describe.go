package author

import (
	"encoding/json"
	"fmt"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
)

// describeOffline finishes the description and icon of a semver
// template's generated package where rendering offline found no
// ClusterServiceVersion for the head of its default channel (no
// directory of the operator holds the bundle, and every committed copy
// keeps only its olm.csv.metadata), where upstream, pulling the image,
// reads them from the CSV (see template's describePackage, which did when
// the CSV was found). The description is the head's olm.csv.metadata's,
// which is the CSV's; the icon, which only the image holds, is the one
// the catalog has (if it is of this package), and the gap is returned
// for the plan to note. Rendering as opm did before it described
// packages (perChannel) describes nothing.
func describeOffline(cfg *declcfg.DeclarativeConfig, c *catalogrepo.Catalog, perChannel bool, cb *catalogBundles) *iconGap {
	if perChannel || len(cfg.Packages) != 1 {
		return nil
	}
	p := &cfg.Packages[0]
	head := channelHead(cfg, p.DefaultChannel)
	if head == nil || !cb.lacksCSV(head.Name) {
		return nil
	}
	var old *declcfg.Package
	if c.Config != nil && len(c.Config.Packages) == 1 && c.Config.Packages[0].Name == p.Name {
		old = &c.Config.Packages[0]
	}
	gap := &iconGap{head: head.Name, image: head.Image, channel: p.DefaultChannel}
	desc, ok := metadataDescription(head)
	switch {
	case ok:
		p.Description = desc
	case old != nil:
		p.Description, gap.noDescription, gap.descriptionKept = old.Description, true, old.Description != ""
	default:
		gap.noDescription = true
	}
	if old != nil && old.Icon != nil {
		p.Icon, gap.kept = old.Icon, true
	}
	return gap
}

// channelHead is the bundle heading a channel of cfg (its last entry),
// or nil.
func channelHead(cfg *declcfg.DeclarativeConfig, channel string) *declcfg.Bundle {
	head := ""
	for _, ch := range cfg.Channels {
		if ch.Name == channel && len(ch.Entries) > 0 {
			head = ch.Entries[len(ch.Entries)-1].Name
		}
	}
	for i := range cfg.Bundles {
		if b := &cfg.Bundles[i]; b.Name == head && head != "" {
			return b
		}
	}
	return nil
}

// metadataDescription is the description in a bundle's
// olm.csv.metadata, and whether it has that property.
func metadataDescription(b *declcfg.Bundle) (string, bool) {
	for _, prop := range b.Properties {
		var meta struct {
			Description string `json:"description"`
		}
		if prop.Type == declcfg.PropertyCSVMetadata && json.Unmarshal(prop.Value, &meta) == nil {
			return meta.Description, true
		}
	}
	return "", false
}

// undescribedPackage reports whether the committed catalog's one package
// has neither description nor icon where the rendered one has either.
func undescribedPackage(committed, rendered *declcfg.DeclarativeConfig) bool {
	if len(committed.Packages) != 1 || len(rendered.Packages) != 1 {
		return false
	}
	old, p := &committed.Packages[0], &rendered.Packages[0]
	return old.Description == "" && old.Icon == nil && (p.Description != "" || p.Icon != nil)
}

// iconGap is what a semver template's package was described without:
// the icon (and, without olm.csv.metadata, the description) of the
// CSV of the default channel's head, which only its image holds.
type iconGap struct {
	head, image, channel string
	kept                 bool // the catalog's icon was kept
	noDescription        bool // nor was the description found
	descriptionKept      bool // ... and the catalog's was kept
}

// problem says what the catalogs cats were written without.
func (g *iconGap) problem(cats []string) string {
	where := "the catalog"
	if len(cats) > 1 {
		where = "the catalogs"
	}
	kept := func(what string, kept bool) string {
		if kept {
			return fmt.Sprintf("the %s already in %s was kept", what, where)
		}
		return "no " + what + " was written"
	}
	what, done := "icon comes", kept("icon", g.kept)
	if g.noDescription {
		what, done = "description and icon come", kept("description", g.descriptionKept)+" and "+done
	}
	return fmt.Sprintf("%s: the package's %s from the ClusterServiceVersion of %s, the head of the default channel %s, which only its image %s holds (no bundle directory has it and no committed catalog keeps its objects), so %s",
		joinAnd(cats), what, g.head, g.channel, g.image, done)
}
