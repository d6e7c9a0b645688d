package author

import (
	"slices"

	"github.com/blang/semver/v4"
	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo/yamledit"
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
	names := p.bundleNames()
	return nil, unknownName("bundle", name, suggest.Versioned(name, names, p.version), names, "no catalog of %s holds a bundle named %q", p.Dir, name)
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
