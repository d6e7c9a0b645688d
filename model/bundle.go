package model

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
)

// PackageProperty returns the value of the bundle's olm.package property;
// ok is false unless there is exactly one and it parses.
func (b *Bundle) PackageProperty() (declcfg.PackageProperty, bool) {
	var found *declcfg.Property
	for i, p := range b.Decl.Properties {
		if p.Type == declcfg.PropertyPackage {
			if found != nil {
				return declcfg.PackageProperty{}, false
			}
			found = &b.Decl.Properties[i]
		}
	}
	if found == nil {
		return declcfg.PackageProperty{}, false
	}
	v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](found.Value)
	return v, err == nil
}

// Version is a bundle's version as OLM orders bundles: a semantic version
// and an optional release.
type Version struct {
	semver.Version
	Release string
}

// Version reads the bundle's version from its olm.package property.
func (b *Bundle) Version() (Version, error) {
	p, ok := b.PackageProperty()
	if !ok {
		return Version{}, fmt.Errorf("bundle %q has no single valid olm.package property", b.Name)
	}
	v, err := semver.Parse(p.Version)
	if err != nil {
		return Version{}, fmt.Errorf("bundle %q: version %q: %w", b.Name, p.Version, err)
	}
	return Version{Version: v, Release: p.Release}, nil
}

// String is the version with build metadata, followed by "-release" when
// a release is set: what upstream calls two bundles the same version by.
func (v Version) String() string {
	if v.Release == "" {
		return v.Version.String()
	}
	return v.Version.String() + "-" + v.Release
}

// Compare orders versions: by semantic version, then a version without a
// release before one with, then releases compared as pre-release
// identifiers are.
func (v Version) Compare(o Version) int {
	if c := v.Version.Compare(o.Version); c != 0 {
		return c
	}
	switch {
	case v.Release == o.Release:
		return 0
	case v.Release == "":
		return -1
	case o.Release == "":
		return 1
	}
	a, b := strings.Split(v.Release, "."), strings.Split(o.Release, ".")
	for i := 0; i < len(a) && i < len(b); i++ {
		pa, errA := semver.NewPRVersion(a[i])
		pb, errB := semver.NewPRVersion(b[i])
		if errA != nil || errB != nil {
			if c := strings.Compare(a[i], b[i]); c != 0 {
				return c
			}
			continue
		}
		if c := pa.Compare(pb); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// GVK names a Kubernetes API: group, version and kind.
type GVK struct {
	Group, Version, Kind string
}

func (g GVK) String() string {
	return fmt.Sprintf("group:%q version:%q kind:%q", g.Group, g.Version, g.Kind)
}

// ProvidedAPIs lists the APIs of the bundle's olm.gvk properties, in
// order. Values that do not parse are left out (validation reports them).
func (b *Bundle) ProvidedAPIs() []GVK { return b.gvks(declcfg.PropertyGVK) }

// RequiredAPIs lists the APIs of the bundle's olm.gvk.required properties.
func (b *Bundle) RequiredAPIs() []GVK { return b.gvks(declcfg.PropertyGVKRequired) }

func (b *Bundle) gvks(typ string) []GVK {
	var out []GVK
	for _, p := range b.Decl.Properties {
		if p.Type != typ {
			continue
		}
		v, err := declcfg.ParsePropertyValue[declcfg.GVKProperty](p.Value)
		if err == nil {
			out = append(out, GVK{Group: v.Group, Version: v.Version, Kind: v.Kind})
		}
	}
	return out
}
