package graph

import (
	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
)

// filter decides what of a channel is drawn, as upstream's
// --package-name and --minimum-edge do.
type filter struct {
	opts     Options
	versions map[string]semver.Version
	// floor is the version of the minimum edge (0.0.0 without one).
	floor semver.Version
	// floorPackage is the package of the first channel, in drawing order,
	// with an entry named like the minimum edge ("" if none has one: then
	// every package is drawn).
	floorPackage string
}

// entries returns the channel's entries to draw; ok is false to leave the
// channel out. Without filters every channel is drawn, even one without
// entries; with a filter, channels left without entries are not.
// Without a minimum edge, a channel is drawn whole. With one, the
// minimum edge is drawn without edges; other entries keep the replaces
// and skips whose targets are at or above the floor and a skipRange that
// contains the floor, and are left out when that leaves no edge, unless
// they never had one and are themselves at or above the floor.
func (f *filter) entries(c *declcfg.Channel) (entries []declcfg.ChannelEntry, ok bool) {
	switch {
	case f.opts.MinimumEdge == "" && f.opts.Package == "":
		return c.Entries, true
	case f.opts.Package != "" && c.Package != f.opts.Package:
		return nil, false
	case f.floorPackage != "" && c.Package != f.floorPackage:
		return nil, false
	case f.opts.MinimumEdge == "":
		return c.Entries, len(c.Entries) > 0
	}
	var out []declcfg.ChannelEntry
	for _, e := range c.Entries {
		if e.Name == f.opts.MinimumEdge {
			out = append(out, declcfg.ChannelEntry{Name: e.Name})
			continue
		}
		kept := declcfg.ChannelEntry{Name: e.Name}
		if e.Replaces != "" && f.atOrAbove(e.Replaces) {
			kept.Replaces = e.Replaces
		}
		for _, s := range e.Skips {
			if f.atOrAbove(s) {
				kept.Skips = append(kept.Skips, s)
			}
		}
		if e.SkipRange != "" {
			if r, err := semver.ParseRange(e.SkipRange); err == nil && r(f.floor) {
				kept.SkipRange = e.SkipRange
			}
		}
		hasEdges := kept.Replaces != "" || len(kept.Skips) > 0 || kept.SkipRange != ""
		hadEdges := e.Replaces != "" || len(e.Skips) > 0 || e.SkipRange != ""
		if hasEdges || (!hadEdges && f.atOrAbove(e.Name)) {
			out = append(out, kept)
		}
	}
	return out, len(out) > 0
}

// atOrAbove tells whether the named bundle's version is at least the
// floor; names that are no bundle count as 0.0.0, as upstream's do.
func (f *filter) atOrAbove(name string) bool { return f.versions[name].GTE(f.floor) }
