package catalogrepo

import (
	"slices"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/suggest"
)

// Bundle finds a bundle of the package's catalogs by name.
func (p *Package) Bundle(name string) *declcfg.Bundle {
	return p.firstBundle(func(b *declcfg.Bundle) bool { return b.Name == name })
}

// BundleByImage finds a bundle of the package's catalogs by image.
func (p *Package) BundleByImage(image string) *declcfg.Bundle {
	return p.firstBundle(func(b *declcfg.Bundle) bool { return b.Image == image })
}

// firstBundle is the first bundle of the package's catalogs, in their
// order, that is, or nil.
func (p *Package) firstBundle(is func(*declcfg.Bundle) bool) *declcfg.Bundle {
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for i := range c.Config.Bundles {
			if is(&c.Config.Bundles[i]) {
				return &c.Config.Bundles[i]
			}
		}
	}
	return nil
}

// FindBundle returns the named bundle of the package, or refuses naming
// the closest names (by version, see suggest.Versioned).
func (p *Package) FindBundle(name string) (*declcfg.Bundle, error) {
	if b := p.Bundle(name); b != nil {
		return b, nil
	}
	names := p.BundleNames()
	return nil, UnknownName("bundle", name, suggest.Versioned(name, names, p.BundleVersion), names, "no catalog of %s holds a bundle named %q", p.Dir, name)
}

// BundleVersion is a bundle's version from its olm.package property.
func (p *Package) BundleVersion(name string) (semver.Version, bool) {
	b := p.Bundle(name)
	if b == nil {
		return semver.Version{}, false
	}
	pp, ok := PackageProperty(b)
	if !ok {
		return semver.Version{}, false
	}
	v, err := semver.Parse(pp.Version)
	return v, err == nil
}

// PackageProperty reads a bundle's (first) olm.package property.
func PackageProperty(b *declcfg.Bundle) (declcfg.PackageProperty, bool) {
	for _, prop := range b.Properties {
		if prop.Type == declcfg.PropertyPackage {
			pp, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](prop.Value)
			return pp, err == nil
		}
	}
	return declcfg.PackageProperty{}, false
}

// BundleNames lists the names of the bundles of the package's catalogs,
// sorted.
func (p *Package) BundleNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for _, b := range c.Config.Bundles {
			if !seen[b.Name] {
				seen[b.Name] = true
				out = append(out, b.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Template returns the mapped template named name.
func (p *Package) Template(name string) (*Template, error) {
	for _, t := range p.Templates {
		if t.TemplateFile == name {
			return t, nil
		}
	}
	return nil, UnknownName("template", name, nil, p.CI.TemplateFiles(), "%s maps no template %q in fbc.catalog_mapping", p.CI.File, name)
}

// FBCPackage is the name of the package the catalogs hold (which need
// not be the operator directory's name), or "" when no catalog says.
func (p *Package) FBCPackage() string {
	for _, c := range p.Catalogs {
		if c.Config != nil && len(c.Config.Packages) > 0 {
			return c.Config.Packages[0].Name
		}
	}
	return ""
}
