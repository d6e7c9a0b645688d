package graph

import (
	"fmt"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// filter decides what of a channel is drawn, as upstream's
// --package-name and --minimum-edge do.
type filter struct {
	opts     Options
	versions versions
	// floor is the version of the minimum edge (0.0.0 without one).
	floor semver.Version
	// floorPackage is the package of the minimum edge: the only one
	// drawn.
	floorPackage *model.Package
}

// newFilter finds the package and version of the minimum edge, if any.
// The minimum edge is a bundle; should several packages have a bundle of
// that name, the first by name whose channels list it is taken, else the
// first by name.
func newFilter(c *model.Catalog, vs versions, opts Options) (*filter, error) {
	f := &filter{opts: opts, versions: vs}
	if opts.MinimumEdge == "" {
		return f, nil
	}
	for _, name := range c.PackageNames() {
		p := c.Packages[name]
		b := p.Bundles[opts.MinimumEdge]
		if b == nil {
			continue
		}
		if f.floorPackage == nil || len(b.Channels) > 0 && len(f.floorPackage.Bundles[opts.MinimumEdge].Channels) == 0 {
			f.floorPackage = p
		}
	}
	if f.floorPackage == nil {
		return nil, fmt.Errorf("unknown minimum edge name: %q: no bundle has that name", opts.MinimumEdge)
	}
	f.floor = vs.of(f.floorPackage, opts.MinimumEdge)
	return f, nil
}

// drawsPackage tells whether any channel of the package may be drawn.
func (f *filter) drawsPackage(p *model.Package) bool {
	switch {
	case f.opts.Package != "" && p.Name != f.opts.Package:
		return false
	case f.floorPackage != nil && p != f.floorPackage:
		return false
	}
	return true
}

// entries returns the channel's entries to draw; ok is false to leave the
// channel out. Without filters every channel is drawn, even one without
// entries; with a filter, channels left without entries are not.
// Without a minimum edge, a channel is drawn whole. With one, the
// minimum edge is drawn without edges; other entries keep the replaces
// and skips whose targets are at or above the floor and a skipRange that
// contains the floor, and are left out when that leaves no edge, unless
// they never had one and are themselves at or above the floor.
func (f *filter) entries(ch *model.Channel) (entries []declcfg.ChannelEntry, ok bool) {
	all := ch.Decl.Entries
	switch {
	case f.opts.MinimumEdge == "" && f.opts.Package == "":
		return all, true
	case f.opts.MinimumEdge == "":
		return all, len(all) > 0
	}
	atOrAbove := func(name string) bool { return f.versions.of(ch.Package, name).GTE(f.floor) }
	var out []declcfg.ChannelEntry
	for _, e := range all {
		if e.Name == f.opts.MinimumEdge {
			out = append(out, declcfg.ChannelEntry{Name: e.Name})
			continue
		}
		kept := declcfg.ChannelEntry{Name: e.Name}
		if e.Replaces != "" && atOrAbove(e.Replaces) {
			kept.Replaces = e.Replaces
		}
		for _, s := range e.Skips {
			if atOrAbove(s) {
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
		if hasEdges || (!hadEdges && atOrAbove(e.Name)) {
			out = append(out, kept)
		}
	}
	return out, len(out) > 0
}
