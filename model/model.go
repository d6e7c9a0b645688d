// Package model is the one index of a loaded file-based catalog: every
// package with its channels, bundles and deprecations, the channel heads
// and upgrade graphs, bundle versions and the APIs bundles provide and
// require. Validation, alpha list and serve read catalogs through it.
//
// The model points into the declcfg objects it was built from and copies
// nothing: big property values stay where the loader put them.
package model

import (
	"fmt"
	"maps"
	"slices"

	"github.com/fbcat/opm/declcfg"
)

// Catalog is a catalog arranged by package.
type Catalog struct {
	// Packages by name: every package that has an olm.package blob, and
	// with Options.PackageExists the packages it vouches for.
	Packages map[string]*Package
	// Others holds the blobs of other schemas by the package they name
	// ("" for none), in load order. Their package need not exist.
	Others map[string][]*declcfg.Meta
}

// Package is one package of a catalog.
type Package struct {
	Name string
	// Decl is the package's olm.package blob; nil only for packages
	// vouched for by Options.PackageExists.
	Decl        *declcfg.Package
	Channels    map[string]*Channel
	Bundles     map[string]*Bundle
	Deprecation *declcfg.Deprecation // nil if none
}

// Channel is one channel of a package.
type Channel struct {
	Name    string
	Package *Package
	Decl    *declcfg.Channel
	entries map[string]*declcfg.ChannelEntry // the first entry of each name
}

// Bundle is one bundle of a package.
type Bundle struct {
	Name    string
	Package *Package
	Decl    *declcfg.Bundle
	// Channels lists the channels whose entries name the bundle, sorted
	// by name.
	Channels []*Channel
}

// Options configures New.
type Options struct {
	// PackageExists vouches for packages whose olm.package blob is not in
	// the catalog but exists (a caller that could not load it and has
	// reported why). Channels, bundles and deprecations of such packages
	// are indexed under a Package without Decl rather than reported.
	PackageExists func(name string) bool
}

// New indexes cfg. What cannot be indexed is reported, with positions,
// and left out: objects naming a package that has no olm.package blob,
// and second definitions of a package, channel, bundle or package
// deprecation (the first one counts). Objects without a name or package
// are left out silently; schema validation reports them.
func New(cfg *declcfg.DeclarativeConfig, opts Options) (*Catalog, declcfg.ErrorList) {
	x := &indexer{c: &Catalog{Packages: map[string]*Package{}, Others: map[string][]*declcfg.Meta{}}, opts: opts}
	x.addPackages(cfg.Packages)
	x.addChannels(cfg.Channels)
	x.addBundles(cfg.Bundles)
	x.addDeprecations(cfg.Deprecations)
	for i := range cfg.Others {
		m := &cfg.Others[i]
		x.c.Others[m.Package] = append(x.c.Others[m.Package], m)
	}
	for _, p := range x.c.Packages {
		p.linkBundles()
	}
	return x.c, x.problems
}

// indexer builds a Catalog for New and collects the problems.
type indexer struct {
	c        *Catalog
	opts     Options
	problems declcfg.ErrorList
}

// report records a problem at pos.
func (x *indexer) report(pos declcfg.Pos, e declcfg.Error) {
	e.File, e.Line = pos.File, pos.Line
	x.problems = append(x.problems, &e)
}

// lookup finds the package an object names, vouched-for packages
// included.
func (x *indexer) lookup(name string) *Package {
	if p := x.c.Packages[name]; p != nil {
		return p
	}
	if x.opts.PackageExists != nil && x.opts.PackageExists(name) {
		p := newPackage(name, nil)
		x.c.Packages[name] = p
		return p
	}
	return nil
}

// addPackages indexes the olm.package blobs.
func (x *indexer) addPackages(pkgs []declcfg.Package) {
	for i := range pkgs {
		p := &pkgs[i]
		if p.Name == "" {
			continue
		}
		if first := x.c.Packages[p.Name]; first != nil {
			e := PackageProblem(p.Name, "duplicate olm.package blob for package %q (it is first defined at %s:%d); keep one", p.Name, first.Decl.Pos.File, first.Decl.Pos.Line)
			e.Cause = duplicateCause(p.Name, p.Pos, first.Decl.Pos)
			x.report(p.Pos, e)
			continue
		}
		x.c.Packages[p.Name] = newPackage(p.Name, p)
	}
}

// addChannels indexes the channels under their packages.
func (x *indexer) addChannels(channels []declcfg.Channel) {
	for i := range channels {
		ch := &channels[i]
		if ch.Name == "" || ch.Package == "" {
			continue
		}
		p := x.lookup(ch.Package)
		if p == nil {
			x.report(ch.Pos, ChannelProblem(ch, "package %q is not defined: add an olm.package blob named %q or fix the channel's package", ch.Package, ch.Package))
			continue
		}
		if first := p.Channels[ch.Name]; first != nil {
			e := ChannelProblem(ch, "duplicate channel %q in package %q (it is first defined at %s:%d); merge the two", ch.Name, ch.Package, first.Decl.Pos.File, first.Decl.Pos.Line)
			e.Cause = duplicateCause(ch.Package, ch.Pos, first.Decl.Pos)
			x.report(ch.Pos, e)
			continue
		}
		p.Channels[ch.Name] = NewChannel(p, ch)
	}
}

// addBundles indexes the bundles under their packages.
func (x *indexer) addBundles(bundles []declcfg.Bundle) {
	for i := range bundles {
		b := &bundles[i]
		if b.Name == "" || b.Package == "" {
			continue
		}
		p := x.lookup(b.Package)
		if p == nil {
			x.report(b.Pos, BundleProblem(b, "package %q is not defined: add an olm.package blob named %q or fix the bundle's package", b.Package, b.Package))
			continue
		}
		if first := p.Bundles[b.Name]; first != nil {
			e := BundleProblem(b, "duplicate bundle %q in package %q (it is first defined at %s:%d); keep one", b.Name, b.Package, first.Decl.Pos.File, first.Decl.Pos.Line)
			e.Cause = duplicateCause(b.Package, b.Pos, first.Decl.Pos)
			x.report(b.Pos, e)
			continue
		}
		p.Bundles[b.Name] = &Bundle{Name: b.Name, Package: p, Decl: b}
	}
}

// addDeprecations gives each package its olm.deprecations blob.
func (x *indexer) addDeprecations(deprecations []declcfg.Deprecation) {
	for i := range deprecations {
		d := &deprecations[i]
		if d.Package == "" {
			continue
		}
		problem := func(format string, args ...any) {
			x.report(d.Pos, declcfg.Error{Schema: declcfg.SchemaDeprecations, Package: d.Package, Message: fmt.Sprintf(format, args...)})
		}
		p := x.lookup(d.Package)
		switch {
		case p == nil:
			problem("cannot apply deprecations to package %q: it has no olm.package blob", d.Package)
		case p.Deprecation != nil:
			problem("expected a maximum of one olm.deprecations blob per package, found another for %q at %s:%d; merge them", d.Package, p.Deprecation.Pos.File, p.Deprecation.Pos.Line)
		default:
			p.Deprecation = d
		}
	}
}

func newPackage(name string, decl *declcfg.Package) *Package {
	return &Package{Name: name, Decl: decl, Channels: map[string]*Channel{}, Bundles: map[string]*Bundle{}}
}

// NewChannel indexes a channel blob of package p (nil for a channel looked
// at on its own).
func NewChannel(p *Package, decl *declcfg.Channel) *Channel {
	ch := &Channel{Name: decl.Name, Package: p, Decl: decl, entries: make(map[string]*declcfg.ChannelEntry, len(decl.Entries))}
	for i := range decl.Entries {
		e := &decl.Entries[i]
		if _, dup := ch.entries[e.Name]; !dup && e.Name != "" {
			ch.entries[e.Name] = e
		}
	}
	return ch
}

// linkBundles records in each bundle the channels that list it.
func (p *Package) linkBundles() {
	for _, name := range p.ChannelNames() {
		ch := p.Channels[name]
		for bundle := range ch.entries {
			if b := p.Bundles[bundle]; b != nil {
				b.Channels = append(b.Channels, ch)
			}
		}
	}
}

// PackageNames lists the names of the catalog's packages, sorted.
func (c *Catalog) PackageNames() []string { return slices.Sorted(maps.Keys(c.Packages)) }

// ChannelNames lists the names of the package's channels, sorted.
func (p *Package) ChannelNames() []string { return slices.Sorted(maps.Keys(p.Channels)) }

// BundleNames lists the names of the package's bundles, sorted.
func (p *Package) BundleNames() []string { return slices.Sorted(maps.Keys(p.Bundles)) }

// DefaultChannel returns the package's default channel, nil if it is not
// set or names no channel.
func (p *Package) DefaultChannel() *Channel {
	if p.Decl == nil {
		return nil
	}
	return p.Channels[p.Decl.DefaultChannel]
}

// Deprecated returns the deprecation message of an object of the package:
// the package itself (schema olm.package, name ""), one of its channels
// (olm.channel) or bundles (olm.bundle).
func (p *Package) Deprecated(schema, name string) (message string, ok bool) {
	if p.Deprecation == nil {
		return "", false
	}
	for _, e := range p.Deprecation.Entries {
		if e.Reference.Schema == schema && (e.Reference.Name == name || schema == declcfg.SchemaPackage) {
			return e.Message, true
		}
	}
	return "", false
}

// Entry returns the channel's entry for a bundle, nil if it has none.
func (ch *Channel) Entry(bundle string) *declcfg.ChannelEntry { return ch.entries[bundle] }

// duplicateCause is the cause shared by the second definitions of a
// package's objects: a copy of what a file defines.
func duplicateCause(pkg string, at, first declcfg.Pos) string {
	if at.File == first.File {
		return fmt.Sprintf("objects of package %q defined twice in %s; keep one of each", pkg, first.File)
	}
	return fmt.Sprintf("objects of package %q defined again (first in %s); keep one copy", pkg, first.File)
}

// Problem constructors name the object a problem concerns; New and the
// validation rules share them.

// PackageProblem is a problem with a package.
func PackageProblem(pkg, format string, args ...any) declcfg.Error {
	return declcfg.Error{Schema: declcfg.SchemaPackage, Package: pkg, Message: fmt.Sprintf(format, args...)}
}

// ChannelProblem is a problem with a channel.
func ChannelProblem(c *declcfg.Channel, format string, args ...any) declcfg.Error {
	return declcfg.Error{Schema: declcfg.SchemaChannel, Package: c.Package, Channel: c.Name, Message: fmt.Sprintf(format, args...)}
}

// BundleProblem is a problem with a bundle.
func BundleProblem(b *declcfg.Bundle, format string, args ...any) declcfg.Error {
	return declcfg.Error{Schema: declcfg.SchemaBundle, Package: b.Package, Bundle: b.Name, Message: fmt.Sprintf(format, args...)}
}
