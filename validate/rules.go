package validate

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/distribution/reference"

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

// rules applies every rule that spans objects to a catalog's model.
type rules struct {
	problems declcfg.ErrorList
	broken   *broken
	flagged  map[declcfg.Pos]bool // objects the schema checks found fault with
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
// deprecations, upgrade graphs, versions and image references.
func checkModel(cfg *declcfg.DeclarativeConfig, br *broken, flagged map[declcfg.Pos]bool) (*model.Catalog, declcfg.ErrorList) {
	c, problems := model.New(cfg, model.Options{PackageExists: func(name string) bool { return br.packages[name] }})
	r := &rules{problems: problems, broken: br, flagged: flagged}
	for _, name := range c.PackageNames() {
		p := c.Packages[name]
		if p.Decl != nil {
			r.checkPackage(p)
		}
		for _, ch := range p.ChannelNames() {
			r.checkChannel(p.Channels[ch])
		}
		for _, b := range p.BundleNames() {
			r.checkBundle(p.Bundles[b])
		}
		if p.Deprecation != nil {
			r.checkDeprecation(p)
		}
	}
	return c, r.problems
}

var dns1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

func (r *rules) checkPackage(p *model.Package) {
	pos := p.Decl.Pos
	var msgs []string
	if len(p.Name) > 63 {
		msgs = append(msgs, "must be no more than 63 characters")
	}
	if !dns1123Label.MatchString(p.Name) {
		msgs = append(msgs, "a package name must be a lowercase RFC 1123 label: lower case alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-name' or '123-abc')")
	}
	if len(msgs) > 0 {
		r.report(pos, 0, model.PackageProblem(p.Name, "invalid package name %q: %s", p.Name, strings.Join(msgs, "; ")))
	}
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

func (r *rules) checkChannel(ch *model.Channel) {
	c := ch.Decl
	if len(c.Entries) == 0 {
		r.report(c.Pos, 0, model.ChannelProblem(c, "channel has no entries: add at least one bundle to it"))
		return
	}
	bundles := ch.Package.Bundles
	brokenBundles := r.broken.bundles[c.Package]
	seen := map[string]bool{}
	for _, e := range c.Entries {
		if e.Name == "" {
			continue // the schema check reports it
		}
		if seen[e.Name] {
			r.report(c.Pos, e.Line, model.ChannelProblem(c, "duplicate entry %q; list each bundle once per channel", e.Name))
			continue
		}
		seen[e.Name] = true
		// A bundle that could not be loaded may be the one, even if its
		// name is unknown ("").
		if bundles[e.Name] == nil && !brokenBundles[e.Name] && !brokenBundles[""] {
			r.report(c.Pos, e.Line, model.ChannelProblem(c, "entry %q has no olm.bundle blob in package %q: add the bundle or remove the entry", e.Name, c.Package))
		}
		if e.SkipRange != "" {
			if _, err := semver.ParseRange(e.SkipRange); err != nil {
				r.report(c.Pos, e.Line, model.ChannelProblem(c, "entry %q: invalid skipRange %q: %v", e.Name, e.SkipRange, err))
			}
		}
	}
	r.checkGraph(ch)
}

// checkGraph applies upstream's upgrade-graph rule: exactly one entry (the
// head) is neither replaced nor skipped by another; following replaces
// from the head must not loop; every entry must be on that chain or be
// skipped by some entry.
func (r *rules) checkGraph(ch *model.Channel) {
	c := ch.Decl
	if len(ch.Heads()) == 0 {
		r.report(c.Pos, 0, model.ChannelProblem(c, "no channel head: every entry is replaced or skipped by another, so there is a cycle; one entry (the newest) must be left that nothing replaces or skips"))
		return
	}
	g, err := ch.Graph()
	switch {
	case err != nil:
		r.report(c.Pos, 0, model.ChannelProblem(c, "%v; exactly one entry (the newest) may be left that no other entry replaces or skips", err))
	case g.Cycle:
		r.report(c.Pos, 0, model.ChannelProblem(c, "detected cycle in replaces chain of upgrade graph: %s", strings.Join(g.Chain, " -> ")))
	case len(g.Stranded) > 0:
		r.report(c.Pos, 0, model.ChannelProblem(c, "channel contains one or more stranded bundles: %s; no upgrade reaches them from the head %q (add them to the replaces chain or to a skips list)", strings.Join(g.Stranded, ", "), g.Head))
	}
}

// typedProperties are the property types upstream decodes into Go types.
var typedProperties = map[string]func([]byte) error{
	declcfg.PropertyPackage:         parseAs[declcfg.PackageProperty],
	declcfg.PropertyPackageRequired: parseAs[declcfg.PackageRequiredProperty],
	declcfg.PropertyGVK:             parseAs[declcfg.GVKProperty],
	declcfg.PropertyGVKRequired:     parseAs[declcfg.GVKProperty],
	declcfg.PropertyChannel: parseAs[struct {
		ChannelName string `json:"channelName"`
		Priority    int    `json:"priority"`
	}],
}

func parseAs[T any](raw []byte) error {
	_, err := declcfg.ParsePropertyValue[T](raw)
	return err
}

func (r *rules) checkBundle(mb *model.Bundle) {
	b := mb.Decl
	var pkgProps []declcfg.Property
	for i, p := range b.Properties {
		if p.Type == declcfg.PropertyPackage {
			pkgProps = append(pkgProps, p)
		}
		if parse, ok := typedProperties[p.Type]; ok && p.Value != nil && !r.flagged[b.Pos] {
			if err := parse(p.Value); err != nil {
				r.report(b.Pos, p.Line, model.BundleProblem(b, "properties[%d] (%s): %v", i, p.Type, err))
			}
		}
	}
	hasObjects := slices.ContainsFunc(b.Properties, func(p declcfg.Property) bool { return p.Type == declcfg.PropertyBundleObject })

	switch len(pkgProps) {
	case 1:
		r.checkPackageProperty(b, pkgProps[0])
	case 0:
		r.report(b.Pos, 0, model.BundleProblem(b, "must be exactly one property with type %q, found none; add {type: olm.package, value: {packageName: %s, version: ...}}", declcfg.PropertyPackage, b.Package))
	default:
		r.report(b.Pos, pkgProps[1].Line, model.BundleProblem(b, "must be exactly one property with type %q, found %d", declcfg.PropertyPackage, len(pkgProps)))
	}

	if b.Image == "" && !hasObjects {
		r.report(b.Pos, 0, model.BundleProblem(b, "bundle image must be set (OLM pulls the bundle from it)"))
	}
	if b.Image != "" {
		if _, err := reference.ParseNormalizedNamed(b.Image); err != nil {
			r.report(b.Pos, 0, model.BundleProblem(b, "image: invalid image pull spec %q: %v", b.Image, err))
		}
	}
	for i, ri := range b.RelatedImages {
		if ri.Image == "" {
			continue
		}
		if _, err := reference.ParseNormalizedNamed(ri.Image); err != nil {
			r.report(b.Pos, 0, model.BundleProblem(b, "relatedImages[%d].image: invalid image pull spec %q: %v", i, ri.Image, err))
		}
	}
	if len(mb.Channels) == 0 && len(r.broken.channels[b.Package]) == 0 {
		r.report(b.Pos, 0, model.BundleProblem(b, "bundle is not in any channel of package %q: add it to a channel's entries or delete it", b.Package))
	}
}

func (r *rules) checkPackageProperty(b *declcfg.Bundle, p declcfg.Property) {
	v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value)
	if err != nil || p.Value == nil {
		return // reported with the property's other problems
	}
	if v.PackageName != "" && v.PackageName != b.Package {
		r.report(b.Pos, p.Line, model.BundleProblem(b, "olm.package property names package %q, but the bundle belongs to package %q", v.PackageName, b.Package))
	}
	version, verr := semver.Parse(v.Version)
	if verr != nil {
		r.report(b.Pos, p.Line, model.BundleProblem(b, "version %q is not a valid semantic version: %v (write MAJOR.MINOR.PATCH, without a leading \"v\")", v.Version, verr))
	}
	if v.Release == "" {
		return
	}
	if err := checkRelease(v.Release); err != nil {
		r.report(b.Pos, p.Line, model.BundleProblem(b, "invalid release %q: %v", v.Release, err))
		return
	}
	if verr != nil {
		return
	}
	if len(version.Build) > 0 {
		r.report(b.Pos, p.Line, model.BundleProblem(b, "cannot use build metadata in version with a release version (version %q, release %q)", v.Version, v.Release))
	}
	if want := fmt.Sprintf("%s-v%s-%s", b.Package, version.String(), v.Release); b.Name != want {
		r.report(b.Pos, 0, model.BundleProblem(b, "name %q does not match normalized name %q (a bundle with a release must be named <package>-v<version>-<release>)", b.Name, want))
	}
}

// checkRelease applies upstream's release syntax: at most 20 characters of
// dot-separated semver pre-release identifiers.
func checkRelease(r string) error {
	if len(r) > 20 {
		return fmt.Errorf("exceeds maximum length of 20 characters")
	}
	var msgs []string
	for i, seg := range strings.Split(r, ".") {
		if _, err := semver.NewPRVersion(seg); err != nil {
			msgs = append(msgs, fmt.Sprintf("segment %d: %v", i, err))
		}
	}
	if len(msgs) > 0 {
		return fmt.Errorf("%s", strings.Join(msgs, "; "))
	}
	return nil
}

func (r *rules) checkDeprecation(p *model.Package) {
	d := p.Deprecation
	problem := func(line int, format string, args ...any) {
		r.report(d.Pos, line, declcfg.Error{Schema: declcfg.SchemaDeprecations, Package: d.Package, Message: fmt.Sprintf(format, args...)})
	}
	seen := map[declcfg.PackageScopedReference]bool{}
	for _, e := range d.Entries {
		ref := e.Reference
		if ref.Schema == "" {
			continue // the schema check reports it
		}
		if seen[ref] {
			problem(e.Line, "duplicate deprecation entry for %s %q", ref.Schema, ref.Name)
			continue
		}
		seen[ref] = true
		switch ref.Schema {
		case declcfg.SchemaPackage:
			if ref.Name != "" {
				problem(e.Line, "a package deprecation must not name anything: remove name %q from the reference", ref.Name)
			}
		case declcfg.SchemaChannel:
			if p.Channels[ref.Name] == nil && !r.broken.channels[d.Package][ref.Name] {
				problem(e.Line, "cannot deprecate channel %q: package %q has no such channel", ref.Name, d.Package)
			}
		case declcfg.SchemaBundle:
			if p.Bundles[ref.Name] == nil && !r.broken.bundles[d.Package][ref.Name] {
				problem(e.Line, "cannot deprecate bundle %q: package %q has no such bundle", ref.Name, d.Package)
			}
		default:
			problem(e.Line, "cannot deprecate objects of schema %q: only olm.package, olm.channel and olm.bundle can be deprecated", ref.Schema)
		}
	}
}
