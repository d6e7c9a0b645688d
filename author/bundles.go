package author

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/author/yamledit"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/suggest"
)

// bundle finds a bundle of the package's catalogs by name.
func (p *Package) bundle(name string) *declcfg.Bundle {
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for i := range c.Config.Bundles {
			if c.Config.Bundles[i].Name == name {
				return &c.Config.Bundles[i]
			}
		}
	}
	return nil
}

// bundleByImage finds a bundle of the package's catalogs by image.
func (p *Package) bundleByImage(image string) *declcfg.Bundle {
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for i := range c.Config.Bundles {
			if c.Config.Bundles[i].Image == image {
				return &c.Config.Bundles[i]
			}
		}
	}
	return nil
}

// findBundle returns the named bundle of the package, or refuses naming
// the closest names.
func (p *Package) findBundle(name string) (*declcfg.Bundle, error) {
	if b := p.bundle(name); b != nil {
		return b, nil
	}
	return nil, refuse("no catalog of %s holds a bundle named %q%s", p.Dir, name, p.didYouMeanBundle(name))
}

// version is a bundle's version from its olm.package property.
func (p *Package) version(name string) (semver.Version, bool) {
	b := p.bundle(name)
	if b == nil {
		return semver.Version{}, false
	}
	pp, ok := packageProperty(b)
	if !ok {
		return semver.Version{}, false
	}
	v, err := semver.Parse(pp.Version)
	return v, err == nil
}

// packageProperty reads a bundle's (first) olm.package property.
func packageProperty(b *declcfg.Bundle) (declcfg.PackageProperty, bool) {
	for _, prop := range b.Properties {
		if prop.Type == declcfg.PropertyPackage {
			pp, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](prop.Value)
			return pp, err == nil
		}
	}
	return declcfg.PackageProperty{}, false
}

// holders lists the templates that name an image, each opened for
// editing (basicDoc or semverDoc).
func (p *Package) holders(image string) ([]any, error) {
	var out []any
	for _, t := range p.Templates {
		if t.Data == nil {
			continue
		}
		if t.Kind() == template.Semver {
			d, err := openSemver(t)
			if err != nil {
				return nil, err
			}
			if d.holds(image) {
				out = append(out, d)
			}
			continue
		}
		d, err := openBasic(t)
		if err != nil {
			return nil, err
		}
		if d.holds(image) {
			out = append(out, d)
		}
	}
	return out, nil
}

// openTemplates opens the package's basic templates for editing and names
// its semver templates (which cannot hold what some verbs write).
func (p *Package) openTemplates() (basics []*basicDoc, semverOnes []string, err error) {
	for _, t := range p.Templates {
		if t.Data == nil {
			continue
		}
		if t.Kind() == template.Semver {
			semverOnes = append(semverOnes, t.TemplateFile)
			continue
		}
		d, err := openBasic(t)
		if err != nil {
			return nil, nil, err
		}
		basics = append(basics, d)
	}
	return basics, semverOnes, nil
}

// channelHeads lists the names of a template channel's entries that no
// entry replaces or skips.
func channelHeads(ch *yaml.Node) []string {
	list := channelEntries(ch)
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	incoming := map[string]bool{}
	for _, e := range list.Content {
		incoming[str(e, "replaces")] = true
		for _, s := range strList(e, "skips") {
			incoming[s] = true
		}
	}
	var heads []string
	for _, e := range list.Content {
		if n := str(e, "name"); n != "" && !incoming[n] && !slices.Contains(heads, n) {
			heads = append(heads, n)
		}
	}
	slices.Sort(heads)
	return heads
}

// strList reads a list of strings under key of mapping m.
func strList(m *yaml.Node, key string) []string {
	var out []string
	if _, v := yamledit.Lookup(m, key); v != nil && v.Kind == yaml.SequenceNode {
		for _, s := range v.Content {
			out = append(out, s.Value)
		}
	}
	return out
}

// nameVersion reads the version a bundle name ends in (widget.v1.2.3,
// widget.v9), if it does.
var nameVersion = regexp.MustCompile(`(?:^|[.-])v?(\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$`)

// didYouMeanBundle names the bundles of the package a mistyped bundle
// name most likely meant, as ": did you mean ...?" (or ""); see
// nearestBundles.
func (p *Package) didYouMeanBundle(name string) string {
	return hint(": did you mean %s?", nearestBundles(name, p.bundleNames(), p.version))
}

// nearestBundles lists the bundles (of the given names) a mistyped bundle
// name most likely meant: when the name ends in a version, the bundle of
// that version (the rest was mistyped), else the bundles just below and
// just above it in version order; when it does not, the names closest in
// spelling.
func nearestBundles(name string, names []string, version func(string) (semver.Version, bool)) []string {
	m := nameVersion.FindStringSubmatch(name)
	var want semver.Version
	var err error
	if m != nil {
		want, err = semver.ParseTolerant(m[1])
	}
	if m == nil || err != nil {
		return suggest.Closest(name, names, max(2, len(name)/3), 3)
	}
	var below, above, same []string
	var belowV, aboveV semver.Version
	for _, n := range names {
		v, ok := version(n)
		switch {
		case !ok:
		case v.Equals(want):
			same = append(same, n)
		case v.LT(want) && (below == nil || v.GT(belowV)):
			below, belowV = []string{n}, v
		case v.GT(want) && (above == nil || v.LT(aboveV)):
			above, aboveV = []string{n}, v
		}
	}
	if len(same) > 0 {
		return same
	}
	if best := append(below, above...); len(best) > 0 {
		return best
	}
	return suggest.Closest(name, names, max(2, len(name)/3), 3)
}

// hint formats names as "a", "a or b", "a, b or c" into format, or "" for
// none.
func hint(format string, names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(format, names[0])
	}
	return fmt.Sprintf(format, strings.Join(names[:len(names)-1], ", ")+" or "+names[len(names)-1])
}
