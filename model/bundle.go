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
	v, _, err := b.packageProperty()
	return v, err == nil
}

// packageProperty returns the value of the bundle's single olm.package
// property and the line it is on, or a problem saying why there is no
// such value.
func (b *Bundle) packageProperty() (declcfg.PackageProperty, int, error) {
	var found []*declcfg.Property
	for i, p := range b.Decl.Properties {
		if p.Type == declcfg.PropertyPackage {
			found = append(found, &b.Decl.Properties[i])
		}
	}
	switch len(found) {
	case 0:
		return declcfg.PackageProperty{}, 0, b.problem(0, "has no %q property; add {type: %s, value: {packageName: %s, version: ...}}", declcfg.PropertyPackage, declcfg.PropertyPackage, b.Decl.Package)
	case 1:
	default:
		return declcfg.PackageProperty{}, 0, b.problem(found[1].Line, "has %d %q properties; keep one", len(found), declcfg.PropertyPackage)
	}
	p := found[0]
	v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value)
	if err != nil {
		return v, p.Line, b.problem(p.Line, "cannot read its %q property: %v", declcfg.PropertyPackage, err)
	}
	return v, p.Line, nil
}

// problem is a problem with the bundle, placed at line (the bundle's own
// line if 0).
func (b *Bundle) problem(line int, format string, args ...any) *declcfg.Error {
	e := BundleProblem(b.Decl, format, args...)
	e.File, e.Line = b.Decl.Pos.File, b.Decl.Pos.Line
	if line > 0 {
		e.Line = line
	}
	return &e
}

// Version is a bundle's version as OLM orders bundles: a semantic version
// and an optional release.
type Version struct {
	semver.Version
	Release string
}

// Version reads the bundle's version from its olm.package property. The
// error is a *declcfg.Error placed at the bundle or the property.
func (b *Bundle) Version() (Version, error) {
	p, line, err := b.packageProperty()
	if err != nil {
		return Version{}, err
	}
	v, err := semver.Parse(p.Version)
	if err != nil {
		return Version{}, b.problem(line, "invalid version %q in its %q property: %v (write MAJOR.MINOR.PATCH, without a leading \"v\")", p.Version, declcfg.PropertyPackage, err)
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
