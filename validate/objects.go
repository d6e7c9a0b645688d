package validate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// objectRules applies the rules of upstream's model that need one object
// only. They run on the loader's workers, in parallel; flagged tells that
// the schema check found fault with the object.
func objectRules(it declcfg.Item, flagged bool) []*declcfg.Error {
	var o objectProblems
	switch {
	case it.Package != nil && it.Package.Name != "":
		o.pos = it.Package.Pos
		o.packageRules(it.Package)
	case it.Channel != nil && it.Channel.Name != "" && it.Channel.Package != "":
		o.pos = it.Channel.Pos
		o.channelRules(it.Channel)
	case it.Bundle != nil && it.Bundle.Name != "" && it.Bundle.Package != "":
		o.pos = it.Bundle.Pos
		o.bundleRules(it.Bundle, flagged)
	case it.Deprecation != nil && it.Deprecation.Package != "":
		o.pos = it.Deprecation.Pos
		o.deprecationRules(it.Deprecation)
	}
	return o.list
}

// objectProblems collects the problems of one object.
type objectProblems struct {
	pos  declcfg.Pos
	list []*declcfg.Error
}

// report records a problem at a line of the object (its first line if 0).
func (o *objectProblems) report(line int, e declcfg.Error) {
	e.File, e.Line = o.pos.File, o.pos.Line
	if line > 0 {
		e.Line = line
	}
	o.list = append(o.list, &e)
}

var dns1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// PackageNameProblems lists what is wrong with a package name by
// upstream's rule (a lowercase RFC 1123 label of at most 63 characters);
// none for a valid name.
func PackageNameProblems(name string) []string {
	var msgs []string
	if len(name) > 63 {
		msgs = append(msgs, "must be no more than 63 characters")
	}
	if !dns1123Label.MatchString(name) {
		msgs = append(msgs, "a package name must be a lowercase RFC 1123 label: lower case alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-name' or '123-abc')")
	}
	return msgs
}

func (o *objectProblems) packageRules(p *declcfg.Package) {
	if msgs := PackageNameProblems(p.Name); len(msgs) > 0 {
		o.report(0, model.PackageProblem(p.Name, "invalid package name %q: %s", p.Name, strings.Join(msgs, "; ")))
	}
}

func (o *objectProblems) channelRules(c *declcfg.Channel) {
	if len(c.Entries) == 0 {
		o.report(0, model.ChannelProblem(c, "channel has no entries: add at least one bundle to it"))
		return
	}
	seen := map[string]bool{}
	for _, e := range c.Entries {
		if e.Name == "" {
			continue // the schema check reports it
		}
		if seen[e.Name] {
			o.report(e.Line, model.ChannelProblem(c, "duplicate entry %q; list each bundle once per channel", e.Name))
			continue
		}
		seen[e.Name] = true
		if e.SkipRange != "" {
			if _, err := semver.ParseRange(e.SkipRange); err != nil {
				o.report(e.Line, model.ChannelProblem(c, "entry %q: invalid skipRange %q: %v", e.Name, e.SkipRange, err))
			}
		}
	}
	o.graphRules(c)
}

// graphRules applies upstream's upgrade-graph rule: exactly one entry (the
// head) is neither replaced nor skipped by another; following replaces
// from the head must not loop; every entry must be on that chain or be
// skipped by some entry.
func (o *objectProblems) graphRules(c *declcfg.Channel) {
	ch := model.NewChannel(nil, c)
	if len(ch.Heads()) == 0 {
		o.report(0, model.ChannelProblem(c, "no channel head: every entry is replaced or skipped by another, so there is a cycle; one entry (the newest) must be left that nothing replaces or skips"))
		return
	}
	g, err := ch.Graph()
	switch {
	case err != nil:
		o.report(0, model.ChannelProblem(c, "%v; exactly one entry (the newest) may be left that no other entry replaces or skips", err))
	case g.Cycle:
		o.report(0, model.ChannelProblem(c, "detected cycle in replaces chain of upgrade graph: %s", strings.Join(g.Chain, " -> ")))
	case len(g.Stranded) > 0:
		o.report(0, model.ChannelProblem(c, "channel contains one or more stranded bundles: %s; no upgrade reaches them from the head %q (add them to the replaces chain or to a skips list)", strings.Join(g.Stranded, ", "), g.Head))
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

func (o *objectProblems) bundleRules(b *declcfg.Bundle, flagged bool) {
	var pkgProps []declcfg.Property
	for i, p := range b.Properties {
		if p.Type == declcfg.PropertyPackage {
			pkgProps = append(pkgProps, p)
		}
		if parse, ok := typedProperties[p.Type]; ok && p.Value != nil && !flagged {
			if err := parse(p.Value); err != nil {
				o.report(p.Line, model.BundleProblem(b, "properties[%d] (%s): %v", i, p.Type, err))
			}
		}
	}
	switch len(pkgProps) {
	case 1:
		o.packageProperty(b, pkgProps[0])
	case 0:
		o.report(0, model.BundleProblem(b, "must be exactly one property with type %q, found none; add {type: olm.package, value: {packageName: %s, version: ...}}", declcfg.PropertyPackage, b.Package))
	default:
		o.report(pkgProps[1].Line, model.BundleProblem(b, "must be exactly one property with type %q, found %d", declcfg.PropertyPackage, len(pkgProps)))
	}

	hasObjects := slices.ContainsFunc(b.Properties, func(p declcfg.Property) bool { return p.Type == declcfg.PropertyBundleObject })
	if b.Image == "" && !hasObjects {
		o.report(0, model.BundleProblem(b, "bundle image must be set (OLM pulls the bundle from it)"))
	}
	if b.Image != "" {
		if err := checkImageRef(b.Image); err != nil {
			o.report(0, model.BundleProblem(b, "image: invalid image pull spec %q: %v", b.Image, err))
		}
	}
	for i, ri := range b.RelatedImages {
		if ri.Image == "" {
			continue
		}
		if err := checkImageRef(ri.Image); err != nil {
			o.report(0, model.BundleProblem(b, "relatedImages[%d].image: invalid image pull spec %q: %v", i, ri.Image, err))
		}
	}
}

func (o *objectProblems) packageProperty(b *declcfg.Bundle, p declcfg.Property) {
	v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value)
	if err != nil || p.Value == nil {
		return // reported with the property's other problems
	}
	if v.PackageName != "" && v.PackageName != b.Package {
		o.report(p.Line, model.BundleProblem(b, "olm.package property names package %q, but the bundle belongs to package %q", v.PackageName, b.Package))
	}
	version, verr := semver.Parse(v.Version)
	if verr != nil {
		o.report(p.Line, model.BundleProblem(b, "version %q is not a valid semantic version: %v (write MAJOR.MINOR.PATCH, without a leading \"v\")", v.Version, verr))
	}
	if v.Release == "" {
		return
	}
	if err := checkRelease(v.Release); err != nil {
		o.report(p.Line, model.BundleProblem(b, "invalid release %q: %v", v.Release, err))
		return
	}
	if verr != nil {
		return
	}
	if len(version.Build) > 0 {
		o.report(p.Line, model.BundleProblem(b, "cannot use build metadata in version with a release version (version %q, release %q)", v.Version, v.Release))
	}
	if want := fmt.Sprintf("%s-v%s-%s", b.Package, version.String(), v.Release); b.Name != want {
		o.report(0, model.BundleProblem(b, "name %q does not match normalized name %q (a bundle with a release must be named <package>-v<version>-<release>)", b.Name, want))
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

func (o *objectProblems) deprecationRules(d *declcfg.Deprecation) {
	seen := map[declcfg.PackageScopedReference]bool{}
	for i, e := range d.Entries {
		ref := e.Reference
		if ref.Schema == "" {
			continue // the schema check reports it
		}
		problem := func(format string, args ...any) {
			o.report(e.Line, declcfg.Error{Schema: declcfg.SchemaDeprecations, Package: d.Package, Message: fmt.Sprintf(format, args...)})
		}
		if seen[ref] {
			problem("duplicate deprecation entry for %s %q", ref.Schema, ref.Name)
			continue
		}
		seen[ref] = true
		switch ref.Schema {
		case declcfg.SchemaPackage:
			if ref.Name != "" {
				problem("a package deprecation must not name anything: remove name %q from the reference", ref.Name)
			}
		case declcfg.SchemaChannel, declcfg.SchemaBundle:
			if ref.Name == "" {
				kind := strings.TrimPrefix(ref.Schema, "olm.")
				problem("entries[%d] (%s).reference.name is missing; it is required: name the %s to deprecate", i, ref.Schema, kind)
			}
		default:
			problem("cannot deprecate objects of schema %q: only olm.package, olm.channel and olm.bundle can be deprecated", ref.Schema)
		}
	}
}
