// Package change says what a change did to catalogs: for each catalog,
// the packages it added, removed or deprecated, their bundles added,
// removed and deprecated, and the channels whose upgrade graph changed,
// with their entries before and after. Lint's pull-request summary
// (lint/report) is made of it.
package change

import (
	"cmp"
	"slices"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// Catalog is what the change being linted did to one catalog,
// compared with the baseline (Options.Baseline): the packages it
// touched. The pull-request summary (WriteMarkdown) is made of them.
type Catalog struct {
	// Catalog is the catalog's directory, e.g. catalogs/v4.17/etcd.
	Catalog string `json:"catalog"`
	// OpenShift is the version of a catalog in catalogs/v4.N ("v4.17"),
	// "" for any other.
	OpenShift string `json:"openshift,omitempty"`
	// New says the baseline has no such catalog.
	New bool `json:"new,omitempty"`
	// Packages are the packages that changed, by name.
	Packages []Package `json:"packages"`
}

// Package is what changed in one package of a catalog.
type Package struct {
	Package string `json:"package"`
	// New and Gone say the package was added to or taken out of the
	// catalog; Deprecated that the change deprecated it.
	New        bool `json:"new,omitempty"`
	Gone       bool `json:"gone,omitempty"`
	Deprecated bool `json:"deprecated,omitempty"`
	// Added, Removed and DeprecatedBundles name bundles, sorted: the
	// bundles the change added, took out and deprecated.
	Added             []string `json:"added,omitempty"`
	Removed           []string `json:"removed,omitempty"`
	DeprecatedBundles []string `json:"deprecatedBundles,omitempty"`
	// Channels are the channels whose upgrade graph changed, by name.
	Channels []Channel `json:"channels,omitempty"`
}

// Channel is a channel whose upgrade graph the change changed.
type Channel struct {
	Channel string `json:"channel"`
	// HeadBefore and HeadAfter are the heads installs upgrade to ("" when
	// the channel did not exist, or has no head).
	HeadBefore string `json:"headBefore,omitempty"`
	HeadAfter  string `json:"headAfter,omitempty"`
	// Deprecated says the change deprecated the channel.
	Deprecated bool `json:"deprecated,omitempty"`
	// Before and After are the channel's entries, newest first; nil when
	// the channel did not exist before or is gone after.
	Before []Entry `json:"before,omitempty"`
	After  []Entry `json:"after,omitempty"`
}

// Entry is one entry of a channel, with what the upgrade graph
// needs of its bundle.
type Entry struct {
	Name       string   `json:"name"`
	Version    string   `json:"version,omitempty"`
	Replaces   string   `json:"replaces,omitempty"`
	Skips      []string `json:"skips,omitempty"`
	SkipRange  string   `json:"skipRange,omitempty"`
	Deprecated bool     `json:"deprecated,omitempty"`
}

// Packages lists the packages that differ between before (nil for
// a catalog that did not exist) and after, by name.
func Packages(before, after *model.Catalog) []Package {
	names := after.PackageNames()
	if before != nil {
		names = append(names, before.PackageNames()...)
		slices.Sort(names)
		names = slices.Compact(names)
	}
	var out []Package
	for _, name := range names {
		var old *model.Package
		if before != nil {
			old = before.Packages[name]
		}
		if c, changed := comparePackage(name, old, after.Packages[name]); changed {
			out = append(out, c)
		}
	}
	return out
}

// comparePackage compares one package; old or now is nil when the
// package is not there.
func comparePackage(name string, old, now *model.Package) (Package, bool) {
	c := Package{Package: name, New: old == nil, Gone: now == nil}
	c.Deprecated = packageDeprecated(now) && !packageDeprecated(old)
	c.Added = bundlesMissingFrom(bundleNames(now), old)
	c.Removed = bundlesMissingFrom(bundleNames(old), now)
	for _, b := range bundleNames(now) {
		if bundleDeprecated(now, b) && !bundleDeprecated(old, b) {
			c.DeprecatedBundles = append(c.DeprecatedBundles, b)
		}
	}
	channels := slices.Concat(channelNames(old), channelNames(now))
	slices.Sort(channels)
	for _, ch := range slices.Compact(channels) {
		if cc, changed := compareChannel(ch, old, now); changed {
			c.Channels = append(c.Channels, cc)
		}
	}
	changed := c.New || c.Gone || c.Deprecated || len(c.Added)+len(c.Removed)+len(c.DeprecatedBundles)+len(c.Channels) > 0
	return c, changed
}

// compareChannel compares one channel of a package.
func compareChannel(name string, old, now *model.Package) (Channel, bool) {
	c := Channel{Channel: name}
	var was, is *model.Channel
	if old != nil {
		was = old.Channels[name]
	}
	if now != nil {
		is = now.Channels[name]
	}
	c.Before, c.HeadBefore = graphEntries(was)
	c.After, c.HeadAfter = graphEntries(is)
	c.Deprecated = channelDeprecated(is) && !channelDeprecated(was)
	changed := was == nil || is == nil || c.Deprecated || c.HeadBefore != c.HeadAfter ||
		!slices.EqualFunc(c.Before, c.After, Entry.Equal)
	return c, changed
}

// graphEntries lists a channel's entries, newest first, and its head.
// Each bundle's version is read once: reading it decodes its property.
func graphEntries(ch *model.Channel) ([]Entry, string) {
	if ch == nil {
		return nil, ""
	}
	p := ch.Package
	type sortable struct {
		entry   Entry
		version *semver.Version
	}
	all := make([]sortable, 0, len(ch.Decl.Entries))
	for _, e := range ch.Decl.Entries {
		g := Entry{Name: e.Name, Replaces: e.Replaces, Skips: slices.Clone(e.Skips), SkipRange: e.SkipRange, Deprecated: bundleDeprecated(p, e.Name)}
		slices.Sort(g.Skips)
		v := versionOf(p.Bundles[e.Name])
		if v != nil {
			g.Version = v.String()
		}
		all = append(all, sortable{g, v})
	}
	slices.SortStableFunc(all, func(a, b sortable) int {
		return compareNewestFirst(a.entry.Name, b.entry.Name, a.version, b.version)
	})
	out := make([]Entry, len(all))
	for i := range all {
		out[i] = all[i].entry
	}
	head, _ := ch.UpgradeHead()
	return out, head
}

// compareNewestFirst orders entries by descending version (entries
// without one last), then by name.
func compareNewestFirst(a, b string, va, vb *semver.Version) int {
	switch {
	case va != nil && vb != nil:
		if c := vb.Compare(*va); c != 0 {
			return c
		}
	case va != nil:
		return -1
	case vb != nil:
		return 1
	}
	return cmp.Compare(a, b)
}

// versionOf is a bundle's version, nil when it has none.
func versionOf(b *model.Bundle) *semver.Version {
	if b == nil {
		return nil
	}
	if v, err := b.Version(); err == nil {
		return &v.Version
	}
	return nil
}

// Equal reports whether two entries are the same.
func (a Entry) Equal(b Entry) bool {
	return a.Name == b.Name && a.Version == b.Version && a.Replaces == b.Replaces && a.SkipRange == b.SkipRange &&
		a.Deprecated == b.Deprecated && slices.Equal(a.Skips, b.Skips)
}

func bundleNames(p *model.Package) []string {
	if p == nil {
		return nil
	}
	return p.BundleNames()
}

func channelNames(p *model.Package) []string {
	if p == nil {
		return nil
	}
	return p.ChannelNames()
}

// bundlesMissingFrom lists the names p does not have as bundles (all of them
// when p is nil).
func bundlesMissingFrom(names []string, p *model.Package) []string {
	var out []string
	for _, n := range names {
		if p == nil || p.Bundles[n] == nil {
			out = append(out, n)
		}
	}
	return out
}

func packageDeprecated(p *model.Package) bool {
	if p == nil {
		return false
	}
	_, ok := p.Deprecated(declcfg.SchemaPackage, "")
	return ok
}

func bundleDeprecated(p *model.Package, name string) bool {
	if p == nil {
		return false
	}
	_, ok := p.Deprecated(declcfg.SchemaBundle, name)
	return ok
}

func channelDeprecated(ch *model.Channel) bool {
	if ch == nil {
		return false
	}
	_, ok := ch.Package.Deprecated(declcfg.SchemaChannel, ch.Name)
	return ok
}
