package validate

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/distribution/reference"

	"github.com/fbcat/opm/declcfg"
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

// model is the catalog arranged for cross-object checks.
type model struct {
	problems declcfg.ErrorList
	broken   *broken
	flagged  map[declcfg.Pos]bool // objects the schema checks found fault with

	packages     map[string]*declcfg.Package
	channels     map[string][]*declcfg.Channel // by package
	bundles      map[string]map[string]*declcfg.Bundle
	deprecations map[string]*declcfg.Deprecation
}

func (m *model) report(pos declcfg.Pos, line int, e declcfg.Error) {
	e.File = pos.File
	e.Line = pos.Line
	if line > 0 {
		e.Line = line
	}
	m.problems = append(m.problems, &e)
}

func packageProblem(pkg, format string, args ...any) declcfg.Error {
	return declcfg.Error{Schema: declcfg.SchemaPackage, Package: pkg, Message: fmt.Sprintf(format, args...)}
}

func channelProblem(c *declcfg.Channel, format string, args ...any) declcfg.Error {
	return declcfg.Error{Schema: declcfg.SchemaChannel, Package: c.Package, Channel: c.Name, Message: fmt.Sprintf(format, args...)}
}

func bundleProblem(b *declcfg.Bundle, format string, args ...any) declcfg.Error {
	return declcfg.Error{Schema: declcfg.SchemaBundle, Package: b.Package, Bundle: b.Name, Message: fmt.Sprintf(format, args...)}
}

// checkModel applies every rule that spans objects: references between
// packages, channels, bundles and deprecations, upgrade graphs, versions and
// image references.
func checkModel(cfg *declcfg.DeclarativeConfig, br *broken, flagged map[declcfg.Pos]bool) declcfg.ErrorList {
	m := &model{
		broken:       br,
		flagged:      flagged,
		packages:     map[string]*declcfg.Package{},
		channels:     map[string][]*declcfg.Channel{},
		bundles:      map[string]map[string]*declcfg.Bundle{},
		deprecations: map[string]*declcfg.Deprecation{},
	}
	m.indexPackages(cfg)
	m.indexChannels(cfg)
	m.indexBundles(cfg)
	m.checkPackages()
	for _, pkg := range slices.Sorted(maps.Keys(m.channels)) {
		for _, c := range m.channels[pkg] {
			m.checkChannel(c)
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(m.bundles)) {
		for _, name := range slices.Sorted(maps.Keys(m.bundles[pkg])) {
			m.checkBundle(m.bundles[pkg][name])
		}
	}
	m.checkDeprecations(cfg)
	return m.problems
}

var dns1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

func (m *model) indexPackages(cfg *declcfg.DeclarativeConfig) {
	for i := range cfg.Packages {
		p := &cfg.Packages[i]
		if p.Name == "" {
			continue // the schema check reports it
		}
		if first, dup := m.packages[p.Name]; dup {
			m.report(p.Pos, 0, packageProblem(p.Name, "duplicate olm.package blob for package %q (it is first defined at %s:%d); keep one", p.Name, first.Pos.File, first.Pos.Line))
			continue
		}
		m.packages[p.Name] = p
		var msgs []string
		if len(p.Name) > 63 {
			msgs = append(msgs, "must be no more than 63 characters")
		}
		if !dns1123Label.MatchString(p.Name) {
			msgs = append(msgs, "a package name must be a lowercase RFC 1123 label: lower case alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-name' or '123-abc')")
		}
		if len(msgs) > 0 {
			m.report(p.Pos, 0, packageProblem(p.Name, "invalid package name %q: %s", p.Name, strings.Join(msgs, "; ")))
		}
	}
}

func (m *model) knownPackage(pkg string) bool {
	_, ok := m.packages[pkg]
	return ok || m.broken.packages[pkg]
}

func (m *model) indexChannels(cfg *declcfg.DeclarativeConfig) {
	seen := map[[2]string]*declcfg.Channel{}
	for i := range cfg.Channels {
		c := &cfg.Channels[i]
		if c.Name == "" || c.Package == "" {
			continue // the schema check reports these
		}
		if !m.knownPackage(c.Package) {
			m.report(c.Pos, 0, channelProblem(c, "package %q is not defined: add an olm.package blob named %q or fix the channel's package", c.Package, c.Package))
			continue
		}
		key := [2]string{c.Package, c.Name}
		if first, dup := seen[key]; dup {
			m.report(c.Pos, 0, channelProblem(c, "duplicate channel %q in package %q (it is first defined at %s:%d); merge the two", c.Name, c.Package, first.Pos.File, first.Pos.Line))
			continue
		}
		seen[key] = c
		m.channels[c.Package] = append(m.channels[c.Package], c)
	}
	for _, cs := range m.channels {
		slices.SortStableFunc(cs, func(a, b *declcfg.Channel) int { return strings.Compare(a.Name, b.Name) })
	}
}

func (m *model) indexBundles(cfg *declcfg.DeclarativeConfig) {
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		if b.Name == "" || b.Package == "" {
			continue // the schema check reports these
		}
		if !m.knownPackage(b.Package) {
			m.report(b.Pos, 0, bundleProblem(b, "package %q is not defined: add an olm.package blob named %q or fix the bundle's package", b.Package, b.Package))
			continue
		}
		if m.bundles[b.Package] == nil {
			m.bundles[b.Package] = map[string]*declcfg.Bundle{}
		}
		if first, dup := m.bundles[b.Package][b.Name]; dup {
			m.report(b.Pos, 0, bundleProblem(b, "duplicate bundle %q in package %q (it is first defined at %s:%d); keep one", b.Name, b.Package, first.Pos.File, first.Pos.Line))
			continue
		}
		m.bundles[b.Package][b.Name] = b
	}
}

func (m *model) checkPackages() {
	for _, name := range slices.Sorted(maps.Keys(m.packages)) {
		p := m.packages[name]
		channels := m.channels[name]
		names := make([]string, len(channels))
		for i, c := range channels {
			names[i] = c.Name
		}
		brokenChannels := len(m.broken.channels[name]) > 0
		switch {
		case len(channels) == 0 && !brokenChannels:
			m.report(p.Pos, 0, packageProblem(name, "package has no channels: add an olm.channel blob with package %q", name))
		case p.DefaultChannel == "":
			m.report(p.Pos, 0, packageProblem(name, "default channel is not set: set defaultChannel to one of the package's channels (%s)", strings.Join(names, ", ")))
		case !slices.Contains(names, p.DefaultChannel) && !m.broken.channels[name][p.DefaultChannel]:
			m.report(p.Pos, 0, packageProblem(name, "default channel %q is not a channel of the package (its channels: %s)", p.DefaultChannel, strings.Join(names, ", ")))
		}
		if len(channels) == 0 && brokenChannels && p.DefaultChannel == "" {
			m.report(p.Pos, 0, packageProblem(name, "default channel is not set"))
		}
		m.checkDuplicateVersions(p)
	}
}

// bundleVersion is what upstream compares bundles by: the semantic version
// with build metadata, followed by "-release" when a release is set.
func bundleVersion(b *declcfg.Bundle) (string, bool) {
	pkg, ok := packageProperty(b)
	if !ok {
		return "", false
	}
	v, err := semver.Parse(pkg.Version)
	if err != nil {
		return "", false
	}
	s := v.String()
	if pkg.Release != "" {
		s += "-" + pkg.Release
	}
	return s, true
}

func (m *model) checkDuplicateVersions(p *declcfg.Package) {
	byVersion := map[string][]string{}
	for name, b := range m.bundles[p.Name] {
		if v, ok := bundleVersion(b); ok {
			byVersion[v] = append(byVersion[v], name)
		}
	}
	var dups []string
	for _, v := range slices.Sorted(maps.Keys(byVersion)) {
		if names := byVersion[v]; len(names) > 1 {
			sort.Strings(names)
			dups = append(dups, fmt.Sprintf("%s (%s)", v, strings.Join(names, ", ")))
		}
	}
	if len(dups) > 0 {
		m.report(p.Pos, 0, packageProblem(p.Name, "duplicate versions found in bundles: %s; every bundle of a package needs its own version", strings.Join(dups, "; ")))
	}
}

func (m *model) checkChannel(c *declcfg.Channel) {
	if len(c.Entries) == 0 {
		m.report(c.Pos, 0, channelProblem(c, "channel has no entries: add at least one bundle to it"))
		return
	}
	entries := map[string]*declcfg.ChannelEntry{}
	for i := range c.Entries {
		e := &c.Entries[i]
		if e.Name == "" {
			continue // the schema check reports it
		}
		if _, dup := entries[e.Name]; dup {
			m.report(c.Pos, e.Line, channelProblem(c, "duplicate entry %q; list each bundle once per channel", e.Name))
			continue
		}
		entries[e.Name] = e
		// A bundle that could not be loaded may be the one, even if its
		// name is unknown ("").
		if _, ok := m.bundles[c.Package][e.Name]; !ok && !m.broken.bundles[c.Package][e.Name] && !m.broken.bundles[c.Package][""] {
			m.report(c.Pos, e.Line, channelProblem(c, "entry %q has no olm.bundle blob in package %q: add the bundle or remove the entry", e.Name, c.Package))
		}
		if e.SkipRange != "" {
			if _, err := semver.ParseRange(e.SkipRange); err != nil {
				m.report(c.Pos, e.Line, channelProblem(c, "entry %q: invalid skipRange %q: %v", e.Name, e.SkipRange, err))
			}
		}
	}
	m.checkGraph(c, entries)
}

// checkGraph applies upstream's upgrade-graph rule: exactly one entry (the
// head) is neither replaced nor skipped by another; following replaces
// from the head must not loop; every entry must be on that chain or be
// skipped by some entry.
func (m *model) checkGraph(c *declcfg.Channel, entries map[string]*declcfg.ChannelEntry) {
	skipped := map[string]bool{}
	for _, e := range c.Entries {
		for _, s := range e.Skips {
			skipped[s] = true
		}
	}
	heads := c.Heads()
	switch {
	case len(heads) == 0:
		m.report(c.Pos, 0, channelProblem(c, "no channel head: every entry is replaced or skipped by another, so there is a cycle; one entry (the newest) must be left that nothing replaces or skips"))
		return
	case len(heads) > 1:
		m.report(c.Pos, 0, channelProblem(c, "multiple channel heads found in graph: %s; exactly one entry (the newest) may be left that no other entry replaces or skips", strings.Join(heads, ", ")))
		return
	}
	chain := []string{heads[0]}
	onChain := map[string]bool{heads[0]: true}
	for cur := entries[heads[0]]; cur.Replaces != ""; {
		next := cur.Replaces
		if skipped[next] {
			break
		}
		e, ok := entries[next]
		if !ok {
			break
		}
		if onChain[next] {
			m.report(c.Pos, 0, channelProblem(c, "detected cycle in replaces chain of upgrade graph: %s -> %s", strings.Join(chain, " -> "), next))
			return
		}
		chain = append(chain, next)
		onChain[next] = true
		cur = e
	}
	var stranded []string
	for name := range entries {
		if !onChain[name] && !skipped[name] {
			stranded = append(stranded, name)
		}
	}
	if len(stranded) > 0 {
		sort.Strings(stranded)
		m.report(c.Pos, 0, channelProblem(c, "channel contains one or more stranded bundles: %s; no upgrade reaches them from the head %q (add them to the replaces chain or to a skips list)", strings.Join(stranded, ", "), heads[0]))
	}
}

// packageProperty returns a bundle's single olm.package property value.
func packageProperty(b *declcfg.Bundle) (declcfg.PackageProperty, bool) {
	var found []declcfg.Property
	for _, p := range b.Properties {
		if p.Type == declcfg.PropertyPackage {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		return declcfg.PackageProperty{}, false
	}
	v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](found[0].Value)
	return v, err == nil
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

func (m *model) checkBundle(b *declcfg.Bundle) {
	var pkgProps []declcfg.Property
	for i, p := range b.Properties {
		if p.Type == declcfg.PropertyPackage {
			pkgProps = append(pkgProps, p)
		}
		if parse, ok := typedProperties[p.Type]; ok && p.Value != nil && !m.flagged[b.Pos] {
			if err := parse(p.Value); err != nil {
				m.report(b.Pos, p.Line, bundleProblem(b, "properties[%d] (%s): %v", i, p.Type, err))
			}
		}
	}
	hasObjects := slices.ContainsFunc(b.Properties, func(p declcfg.Property) bool { return p.Type == declcfg.PropertyBundleObject })

	switch len(pkgProps) {
	case 1:
		m.checkPackageProperty(b, pkgProps[0])
	case 0:
		m.report(b.Pos, 0, bundleProblem(b, "must be exactly one property with type %q, found none; add {type: olm.package, value: {packageName: %s, version: ...}}", declcfg.PropertyPackage, b.Package))
	default:
		m.report(b.Pos, pkgProps[1].Line, bundleProblem(b, "must be exactly one property with type %q, found %d", declcfg.PropertyPackage, len(pkgProps)))
	}

	if b.Image == "" && !hasObjects {
		m.report(b.Pos, 0, bundleProblem(b, "bundle image must be set (OLM pulls the bundle from it)"))
	}
	if b.Image != "" {
		if _, err := reference.ParseNormalizedNamed(b.Image); err != nil {
			m.report(b.Pos, 0, bundleProblem(b, "image: invalid image pull spec %q: %v", b.Image, err))
		}
	}
	for i, ri := range b.RelatedImages {
		if ri.Image == "" {
			continue
		}
		if _, err := reference.ParseNormalizedNamed(ri.Image); err != nil {
			m.report(b.Pos, 0, bundleProblem(b, "relatedImages[%d].image: invalid image pull spec %q: %v", i, ri.Image, err))
		}
	}
	inChannel := false
	for _, c := range m.channels[b.Package] {
		if slices.ContainsFunc(c.Entries, func(e declcfg.ChannelEntry) bool { return e.Name == b.Name }) {
			inChannel = true
			break
		}
	}
	if !inChannel && len(m.broken.channels[b.Package]) == 0 {
		m.report(b.Pos, 0, bundleProblem(b, "bundle is not in any channel of package %q: add it to a channel's entries or delete it", b.Package))
	}
}

func (m *model) checkPackageProperty(b *declcfg.Bundle, p declcfg.Property) {
	v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value)
	if err != nil || p.Value == nil {
		return // reported with the property's other problems
	}
	if v.PackageName != "" && v.PackageName != b.Package {
		m.report(b.Pos, p.Line, bundleProblem(b, "olm.package property names package %q, but the bundle belongs to package %q", v.PackageName, b.Package))
	}
	version, verr := semver.Parse(v.Version)
	if verr != nil {
		m.report(b.Pos, p.Line, bundleProblem(b, "version %q is not a valid semantic version: %v (write MAJOR.MINOR.PATCH, without a leading \"v\")", v.Version, verr))
	}
	if v.Release == "" {
		return
	}
	if err := checkRelease(v.Release); err != nil {
		m.report(b.Pos, p.Line, bundleProblem(b, "invalid release %q: %v", v.Release, err))
		return
	}
	if verr != nil {
		return
	}
	if len(version.Build) > 0 {
		m.report(b.Pos, p.Line, bundleProblem(b, "cannot use build metadata in version with a release version (version %q, release %q)", v.Version, v.Release))
	}
	if want := fmt.Sprintf("%s-v%s-%s", b.Package, version.String(), v.Release); b.Name != want {
		m.report(b.Pos, 0, bundleProblem(b, "name %q does not match normalized name %q (a bundle with a release must be named <package>-v<version>-<release>)", b.Name, want))
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

func (m *model) checkDeprecations(cfg *declcfg.DeclarativeConfig) {
	for i := range cfg.Deprecations {
		d := &cfg.Deprecations[i]
		problem := func(line int, format string, args ...any) {
			m.report(d.Pos, line, declcfg.Error{Schema: declcfg.SchemaDeprecations, Package: d.Package, Message: fmt.Sprintf(format, args...)})
		}
		if d.Package == "" {
			continue // the schema check reports it
		}
		if !m.knownPackage(d.Package) {
			problem(0, "cannot apply deprecations to package %q: it has no olm.package blob", d.Package)
			continue
		}
		if first, dup := m.deprecations[d.Package]; dup {
			problem(0, "expected a maximum of one olm.deprecations blob per package, found another for %q at %s:%d; merge them", d.Package, first.Pos.File, first.Pos.Line)
			continue
		}
		m.deprecations[d.Package] = d
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
				if !slices.ContainsFunc(m.channels[d.Package], func(c *declcfg.Channel) bool { return c.Name == ref.Name }) && !m.broken.channels[d.Package][ref.Name] {
					problem(e.Line, "cannot deprecate channel %q: package %q has no such channel", ref.Name, d.Package)
				}
			case declcfg.SchemaBundle:
				if _, ok := m.bundles[d.Package][ref.Name]; !ok && !m.broken.bundles[d.Package][ref.Name] {
					problem(e.Line, "cannot deprecate bundle %q: package %q has no such bundle", ref.Name, d.Package)
				}
			default:
				problem(e.Line, "cannot deprecate objects of schema %q: only olm.package, olm.channel and olm.bundle can be deprecated", ref.Schema)
			}
		}
	}
}
