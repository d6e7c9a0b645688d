// Package filter cuts file-based catalogs down to the packages, channels
// and versions asked for, as oc-mirror's ImageSetConfiguration describes
// them, keeping the result a valid catalog: every bundle kept is the
// original object, channels keep their original entries for the bundles
// kept, and deprecations and other blobs follow their package.
package filter

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/render"
)

// Selector returns the filter for a reference. References given the same
// *Filter are rendered together, as one catalog.
type Selector func(ref string) (*Filter, error)

// Run renders the references (anything render takes), filters them and
// returns the filtered catalog. Nothing is returned unless every
// reference rendered and filtered.
func Run(ctx context.Context, r *render.Renderer, refs []string, sel Selector) (*declcfg.DeclarativeConfig, error) {
	var order []*Filter
	groups := map[*Filter][]string{}
	for _, ref := range refs {
		f, err := sel(ref)
		if err != nil {
			return nil, err
		}
		if _, ok := groups[f]; !ok {
			order = append(order, f)
		}
		groups[f] = append(groups[f], ref)
	}
	out := &declcfg.DeclarativeConfig{}
	for _, f := range order {
		cfg, err := r.Run(ctx, groups[f]...)
		if err != nil {
			return nil, err
		}
		kept, err := Apply(cfg, *f)
		if err != nil {
			return nil, fmt.Errorf("filter %s: %w", strings.Join(groups[f], ", "), err)
		}
		out.Append(kept)
	}
	if len(order) > 1 {
		// Catalogs filtered apart must not define the same package twice.
		if _, problems := model.New(out, model.Options{}); len(problems) > 0 {
			return nil, fmt.Errorf("the filtered catalogs do not combine into one: %w", problems)
		}
	}
	return out, nil
}

// Apply filters one catalog. cfg is not modified; the result shares the
// objects it keeps unchanged with cfg.
func Apply(cfg *declcfg.DeclarativeConfig, f Filter) (*declcfg.DeclarativeConfig, error) {
	m, problems := model.New(cfg, model.Options{})
	if len(problems) > 0 {
		return nil, fmt.Errorf("the catalog cannot be filtered: %w", problems)
	}
	pkgs := f.Packages
	if len(pkgs) == 0 {
		for _, name := range m.PackageNames() {
			pkgs = append(pkgs, Package{Name: name})
		}
	}
	kept := map[string]*keptPackage{}
	for _, pf := range pkgs {
		p := m.Packages[pf.Name]
		if p == nil {
			return nil, model.NotFound("%spackage %q is not in the catalog%s", f.at(pf.Line), pf.Name, available("packages", m.PackageNames()))
		}
		k, err := keepPackage(p, pf, f)
		if err != nil {
			return nil, err
		}
		kept[pf.Name] = k
	}
	out := assemble(cfg, kept)
	return out, check(out)
}

// keptPackage is what is kept of a package: entry names by channel, the
// default channel and the bundles.
type keptPackage struct {
	channels       map[string]map[string]bool
	defaultChannel string
	bundles        map[string]bool
}

func keepPackage(p *model.Package, pf Package, f Filter) (*keptPackage, error) {
	k := &keptPackage{channels: map[string]map[string]bool{}, bundles: map[string]bool{}}
	channels := pf.Channels
	listed := len(channels) > 0
	if !listed {
		for _, name := range p.ChannelNames() {
			channels = append(channels, Channel{Name: name})
		}
	}
	for _, cf := range channels {
		ch := p.Channels[cf.Name]
		if ch == nil {
			return nil, model.NotFound("%spackage %q: channel %q is not in the catalog%s", f.at(cf.Line), p.Name, cf.Name, available("channels", p.ChannelNames()))
		}
		r := cf.Range
		if !r.IsSet() {
			r = pf.Range
		}
		var names map[string]bool
		var err error
		switch {
		case f.Full && r.IsSet():
			return nil, fmt.Errorf("package %q, channel %q: a version range (%s) cannot be combined with full", p.Name, ch.Name, r.Text)
		case f.Full:
			names = map[string]bool{}
			for _, e := range ch.Decl.Entries {
				names[e.Name] = true
			}
		case r.IsSet():
			names, err = inRange(p, ch, r)
		default:
			var head string
			head, err = ch.Head()
			names = map[string]bool{head: true}
		}
		if err != nil {
			return nil, fmt.Errorf("package %q, channel %q: %w", p.Name, ch.Name, err)
		}
		if len(names) == 0 {
			if !r.IsSet() {
				return nil, fmt.Errorf("package %q, channel %q: nothing to keep: the channel has no entries", p.Name, ch.Name)
			}
			if listed {
				return nil, fmt.Errorf("%spackage %q, channel %q: no bundle is within %s%s", f.at(cmp.Or(cf.Line, pf.Line)), p.Name, ch.Name, r.Text, versionSpan(p, ch))
			}
			continue // a package's range may leave out some of its channels
		}
		for name := range names {
			if p.Bundles[name] == nil {
				return nil, fmt.Errorf("package %q, channel %q: entry %q has no olm.bundle blob", p.Name, ch.Name, name)
			}
			k.bundles[name] = true
		}
		k.channels[ch.Name] = names
	}
	if len(k.channels) == 0 {
		return nil, fmt.Errorf("%spackage %q: no bundle of any channel is within %s", f.at(pf.Line), p.Name, pf.Range.Text)
	}
	keptNames := slices.Sorted(maps.Keys(k.channels))
	k.defaultChannel = p.Decl.DefaultChannel
	switch {
	case pf.DefaultChannel != "":
		if k.channels[pf.DefaultChannel] == nil {
			return nil, fmt.Errorf("%spackage %q: defaultChannel %q is not among the channels kept (%s)", f.at(pf.Line), p.Name, pf.DefaultChannel, strings.Join(keptNames, ", "))
		}
		k.defaultChannel = pf.DefaultChannel
	case k.channels[k.defaultChannel] != nil:
	case f.ShortForm && listed:
		k.defaultChannel = channels[0].Name
	default:
		return nil, fmt.Errorf("%spackage %q: its default channel %q is not kept; set defaultChannel to one of the channels kept (%s)", f.at(pf.Line), p.Name, k.defaultChannel, strings.Join(keptNames, ", "))
	}
	return k, nil
}

// assemble builds the filtered catalog in cfg's order.
func assemble(cfg *declcfg.DeclarativeConfig, kept map[string]*keptPackage) *declcfg.DeclarativeConfig {
	out := &declcfg.DeclarativeConfig{}
	for _, p := range cfg.Packages {
		k := kept[p.Name]
		if k == nil {
			continue
		}
		p.DefaultChannel = k.defaultChannel
		out.Packages = append(out.Packages, p)
	}
	for _, ch := range cfg.Channels {
		k := kept[ch.Package]
		if k == nil || k.channels[ch.Name] == nil {
			continue
		}
		names := k.channels[ch.Name]
		entries := make([]declcfg.ChannelEntry, 0, len(names))
		for _, e := range ch.Entries {
			if names[e.Name] {
				entries = append(entries, e)
			}
		}
		ch.Entries = entries
		out.Channels = append(out.Channels, ch)
	}
	for _, b := range cfg.Bundles {
		if k := kept[b.Package]; k != nil && k.bundles[b.Name] {
			out.Bundles = append(out.Bundles, b)
		}
	}
	for _, d := range cfg.Deprecations {
		k := kept[d.Package]
		if k == nil {
			continue
		}
		var entries []declcfg.DeprecationEntry
		for _, e := range d.Entries {
			switch e.Reference.Schema {
			case declcfg.SchemaChannel:
				if k.channels[e.Reference.Name] == nil {
					continue
				}
			case declcfg.SchemaBundle:
				if !k.bundles[e.Reference.Name] {
					continue
				}
			}
			entries = append(entries, e)
		}
		if len(entries) == 0 {
			continue
		}
		if len(entries) < len(d.Entries) {
			d.Entries = entries
		}
		out.Deprecations = append(out.Deprecations, d)
	}
	for _, o := range cfg.Others {
		if o.Package == "" || kept[o.Package] != nil {
			out.Others = append(out.Others, o)
		}
	}
	return out
}

// check makes sure the filtered catalog's channels are sound: one head, no
// cycle, no bundle stranded. Filtering a valid catalog keeps them so; this
// catches catalogs whose graphs were not valid to begin with.
func check(cfg *declcfg.DeclarativeConfig) error {
	m, problems := model.New(cfg, model.Options{})
	if len(problems) > 0 {
		return fmt.Errorf("the filtered catalog is not valid: %w", problems)
	}
	for _, pname := range m.PackageNames() {
		p := m.Packages[pname]
		for _, cname := range p.ChannelNames() {
			g, err := p.Channels[cname].Graph()
			switch {
			case err != nil:
			case g.Cycle:
				err = fmt.Errorf("replaces cycle through %s", strings.Join(g.Chain, " -> "))
			case len(g.Stranded) > 0:
				err = fmt.Errorf("no upgrade from the head %s reaches %s", g.Head, strings.Join(g.Stranded, ", "))
			}
			if err != nil {
				return fmt.Errorf("package %q, channel %q: the filtered channel would not be valid (%v); check the channel with opm validate, or keep more of it", pname, cname, err)
			}
		}
	}
	return nil
}

func available(what string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	const most = 20
	if len(names) > most {
		return fmt.Sprintf(" (%s: %s, ... %d more)", what, strings.Join(names[:most], ", "), len(names)-most)
	}
	return fmt.Sprintf(" (%s: %s)", what, strings.Join(names, ", "))
}
