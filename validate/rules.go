package validate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// broken names objects that exist in the files but could not be typed
// because of schema problems already reported. Checks that would only
// repeat those problems in other words ("no such channel", "not in any
// channel") are skipped for them.
type broken struct {
	packages map[string]bool
	channels map[string]map[string]bool // package -> channel names
	bundles  map[string]map[string]bool // package -> bundle names
}

// rules applies the rules that span objects to a catalog's model; the
// rules of single objects are in objects.go.
type rules struct {
	problems declcfg.ErrorList
	broken   *broken
}

func (r *rules) report(pos declcfg.Pos, line int, e declcfg.Error) {
	e.File = pos.File
	e.Line = pos.Line
	if line > 0 {
		e.Line = line
	}
	r.problems = append(r.problems, &e)
}

// checkModel indexes the catalog and applies every rule that spans
// objects: references between packages, channels, bundles and
// deprecations, default channels and versions.
// CheckModel applies the checks across objects (references, upgrade
// graphs, versions, deprecations) to a catalog whose blobs each passed
// their own checks. Problems are placed where the blobs' positions say.
func CheckModel(cfg *declcfg.DeclarativeConfig) declcfg.ErrorList {
	_, problems := checkModel(cfg, &broken{packages: map[string]bool{}, channels: map[string]map[string]bool{}, bundles: map[string]map[string]bool{}})
	problems.Sort()
	return problems
}

func checkModel(cfg *declcfg.DeclarativeConfig, br *broken) (*model.Catalog, declcfg.ErrorList) {
	c, problems := model.New(cfg, model.Options{PackageExists: func(name string) bool { return br.packages[name] }})
	r := &rules{problems: problems, broken: br}
	for _, name := range c.PackageNames() {
		p := c.Packages[name]
		if p.Decl != nil {
			r.checkPackage(p)
		}
		for _, ch := range p.ChannelNames() {
			r.checkEntries(p.Channels[ch])
		}
		for _, b := range p.BundleNames() {
			r.checkInChannel(p.Bundles[b])
		}
		if p.Deprecation != nil {
			r.checkDeprecation(p)
		}
	}
	return c, r.problems
}

func (r *rules) checkPackage(p *model.Package) {
	pos := p.Decl.Pos
	names := p.ChannelNames()
	brokenChannels := len(r.broken.channels[p.Name]) > 0
	def := p.Decl.DefaultChannel
	switch {
	case len(names) == 0 && !brokenChannels:
		r.report(pos, 0, model.PackageProblem(p.Name, "package has no channels: add an olm.channel blob with package %q", p.Name))
	case def == "":
		r.report(pos, 0, model.PackageProblem(p.Name, "default channel is not set: set defaultChannel to one of the package's channels (%s)", strings.Join(names, ", ")))
	case p.Channels[def] == nil && !r.broken.channels[p.Name][def]:
		r.report(pos, 0, model.PackageProblem(p.Name, "default channel %q is not a channel of the package (its channels: %s)", def, strings.Join(names, ", ")))
	}
	if len(names) == 0 && brokenChannels && def == "" {
		r.report(pos, 0, model.PackageProblem(p.Name, "default channel is not set"))
	}
	r.checkDuplicateVersions(p)
}

func (r *rules) checkDuplicateVersions(p *model.Package) {
	byVersion := map[string][]string{}
	for name, b := range p.Bundles {
		if v, err := b.Version(); err == nil {
			byVersion[v.String()] = append(byVersion[v.String()], name)
		}
	}
	var dups []string
	for _, v := range slices.Sorted(maps.Keys(byVersion)) {
		if names := byVersion[v]; len(names) > 1 {
			slices.Sort(names)
			dups = append(dups, fmt.Sprintf("%s (%s)", v, strings.Join(names, ", ")))
		}
	}
	if len(dups) > 0 {
		r.report(p.Decl.Pos, 0, model.PackageProblem(p.Name, "duplicate versions found in bundles: %s; every bundle of a package needs its own version", strings.Join(dups, "; ")))
	}
}

// checkEntries reports channel entries that name no bundle of the package.
func (r *rules) checkEntries(ch *model.Channel) {
	c := ch.Decl
	brokenBundles := r.broken.bundles[c.Package]
	seen := map[string]bool{}
	for _, e := range c.Entries {
		if e.Name == "" || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		// A bundle that could not be loaded may be the one, even if its
		// name is unknown ("").
		if ch.Package.Bundles[e.Name] == nil && !brokenBundles[e.Name] && !brokenBundles[""] {
			r.report(c.Pos, e.Line, model.ChannelProblem(c, "entry %q has no olm.bundle blob in package %q: add the bundle or remove the entry", e.Name, c.Package))
		}
	}
	r.checkReplaces(ch)
}

// checkReplaces reports, in a channel with more than one head, the
// entries whose replaces names no bundle of the package although an older
// head is there to be replaced: such an entry starts an upgrade chain of
// its own where it was meant to continue the other one, and upstream says
// only "multiple channel heads". (Replacing a bundle that is gone is
// otherwise fine: catalogs prune old bundles and keep the edge to them.)
func (r *rules) checkReplaces(ch *model.Channel) {
	c := ch.Decl
	p := ch.Package
	brokenBundles := r.broken.bundles[c.Package]
	var dangling []*declcfg.ChannelEntry
	for i := range c.Entries {
		e := &c.Entries[i]
		if e.Replaces == "" || p.Bundles[e.Replaces] != nil || ch.Entry(e.Replaces) != nil || brokenBundles[e.Replaces] || brokenBundles[""] {
			continue
		}
		if ch.Entry(e.Name) == e { // the first entry of its name
			dangling = append(dangling, e)
		}
	}
	if len(dangling) == 0 {
		return
	}
	heads := ch.Heads()
	if len(heads) < 2 {
		return
	}
	for _, e := range dangling {
		if older := newestOlderHead(p, e.Name, heads); older != "" {
			r.report(c.Pos, e.Line, model.ChannelProblem(c, "entry %q replaces bundle %q, which does not exist in package %q: the entry starts an upgrade chain of its own, so the channel has more than one head; did you mean %q (the head of the other chain)? Fix the name or remove the replaces",
				e.Name, e.Replaces, c.Package, older))
		}
	}
}

// newestOlderHead is, of the heads other than the bundle name, the one of
// the highest version lower than the bundle's, or "".
func newestOlderHead(p *model.Package, name string, heads []string) string {
	b := p.Bundles[name]
	if b == nil {
		return ""
	}
	v, err := b.Version()
	if err != nil {
		return ""
	}
	best, bestV := "", model.Version{}
	for _, h := range heads {
		hb := p.Bundles[h]
		if h == name || hb == nil {
			continue
		}
		hv, err := hb.Version()
		if err != nil || hv.Compare(v) >= 0 {
			continue
		}
		if best == "" || hv.Compare(bestV) > 0 {
			best, bestV = h, hv
		}
	}
	return best
}

func (r *rules) checkInChannel(b *model.Bundle) {
	if len(b.Channels) == 0 && len(r.broken.channels[b.Decl.Package]) == 0 {
		r.report(b.Decl.Pos, 0, model.BundleProblem(b.Decl, "bundle is not in any channel of package %q: add it to a channel's entries or delete it", b.Decl.Package))
	}
}

func (r *rules) checkDeprecation(p *model.Package) {
	d := p.Deprecation
	seen := map[declcfg.PackageScopedReference]bool{}
	for _, e := range d.Entries {
		ref := e.Reference
		if seen[ref] || ref.Name == "" {
			continue // objectRules reports it
		}
		seen[ref] = true
		problem := func(format string, args ...any) {
			r.report(d.Pos, e.Line, declcfg.Error{Schema: declcfg.SchemaDeprecations, Package: d.Package, Message: fmt.Sprintf(format, args...)})
		}
		switch ref.Schema {
		case declcfg.SchemaChannel:
			if p.Channels[ref.Name] == nil && !r.broken.channels[d.Package][ref.Name] {
				problem("cannot deprecate channel %q: package %q has no such channel", ref.Name, d.Package)
			}
		case declcfg.SchemaBundle:
			if p.Bundles[ref.Name] == nil && !r.broken.bundles[d.Package][ref.Name] {
				problem("cannot deprecate bundle %q: package %q has no such bundle", ref.Name, d.Package)
			}
		}
	}
}
