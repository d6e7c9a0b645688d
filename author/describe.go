package author

import (
	"encoding/json"

	"github.com/fbcat/opm/declcfg"
)

// describeOffline describes a semver template's generated package when
// rendering offline found no ClusterServiceVersion for the head of its
// default channel (in no unmigrated committed copy and no bundle
// directory), where upstream, pulling the image, finds one: the committed
// description and icon are kept when the default channel is the same;
// else (unless rendering as opm did before it described packages) the
// description is the head's olm.csv.metadata's, which is the CSV's, and
// the icon the committed package's, if any.
func describeOffline(cfg *declcfg.DeclarativeConfig, c *Catalog, perChannel bool) {
	if len(cfg.Packages) != 1 {
		return
	}
	p := &cfg.Packages[0]
	if p.Description != "" || p.Icon != nil {
		return
	}
	var old *declcfg.Package
	if c.Config != nil && len(c.Config.Packages) == 1 && c.Config.Packages[0].Name == p.Name {
		old = &c.Config.Packages[0]
	}
	if old != nil && old.DefaultChannel == p.DefaultChannel && (old.Description != "" || old.Icon != nil) {
		p.Description, p.Icon = old.Description, old.Icon
		return
	}
	if perChannel {
		return
	}
	if d := headDescription(cfg, p.DefaultChannel); d != "" {
		p.Description = d
		if old != nil {
			p.Icon = old.Icon
		}
	}
}

// headDescription is the description in the olm.csv.metadata of the
// head (last entry) of a channel, or "".
func headDescription(cfg *declcfg.DeclarativeConfig, channel string) string {
	head := ""
	for _, ch := range cfg.Channels {
		if ch.Name == channel && len(ch.Entries) > 0 {
			head = ch.Entries[len(ch.Entries)-1].Name
		}
	}
	for i := range cfg.Bundles {
		if b := &cfg.Bundles[i]; b.Name == head && head != "" {
			for _, prop := range b.Properties {
				var meta struct {
					Description string `json:"description"`
				}
				if prop.Type == declcfg.PropertyCSVMetadata && json.Unmarshal(prop.Value, &meta) == nil {
					return meta.Description
				}
			}
		}
	}
	return ""
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
