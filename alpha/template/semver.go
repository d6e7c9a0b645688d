package template

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/blang/semver/v4"
	yamlv2 "go.yaml.in/yaml/v2"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// semverTemplate is a decoded semver template.
type semverTemplate struct {
	major, minor bool
	preference   stream
	bundles      [numArchetypes][]semverEntry // by archetype
}

// semverEntry is one bundle image listed under an archetype.
type semverEntry struct {
	image string
	node  *value.Value
	path  string // e.g. "stable.bundles[2]"
}

// The fields of a semver template. Upstream matches keys ignoring case,
// so the documented Schema/GenerateMajorChannels/Stable/Bundles/Image
// spelling works, and refuses unknown ones.
var (
	semverFields    = []string{"schema", "generateMajorChannels", "generateMinorChannels", "defaultChannelTypePreference", "candidate", "fast", "stable"}
	archetypeFields = []string{"bundles"}
	bundleFields    = []string{"image"}
)

// expandSemver expands a semver template: every bundle image listed under
// candidate, fast or stable is rendered, and the package, its channels
// (candidate-v1, candidate-v1.2, ...), their upgrade edges and the
// default channel are generated from the bundles' versions.
func expandSemver(ctx context.Context, src source, doc *document, br BundleRenderer, perChannel bool) (*declcfg.DeclarativeConfig, error) {
	t, problems := decodeSemver(src, doc)
	if len(problems) > 0 {
		return nil, problems
	}
	var refs []string
	var all []*semverEntry
	for a := range t.bundles {
		for i := range t.bundles[a] {
			refs = append(refs, t.bundles[a][i].image)
			all = append(all, &t.bundles[a][i])
		}
	}
	if len(refs) == 0 {
		return nil, src.errorf(&doc.value, "", "no bundles: list bundle images under candidate, fast or stable (bundles: [{image: ...}])")
	}
	rendered, failed := renderImages(ctx, br, refs)
	reported := map[string]bool{}
	for _, e := range all {
		if err := failed[e.image]; err != nil && !reported[e.image] {
			reported[e.image] = true
			problems = append(problems, src.wrap(e.node, e.path, err))
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}

	members, pkg, problems := semverMembers(src, t, rendered)
	if len(problems) > 0 {
		return nil, problems
	}
	cfg := &declcfg.DeclarativeConfig{}
	added := map[string]bool{}
	for _, e := range all {
		if !added[e.image] {
			added[e.image] = true
			cfg.Bundles = append(cfg.Bundles, rendered[e.image].Bundle)
		}
	}
	g := generateChannels(pkg, t, members, perChannel)
	cfg.Channels = g.channels
	p := declcfg.Package{Schema: declcfg.SchemaPackage, Name: pkg, DefaultChannel: g.defaultChannel}
	if head := g.defaultHead(); head != nil && !perChannel {
		describePackage(&p, rendered[head.image])
	}
	cfg.Packages = []declcfg.Package{p}
	return cfg, nil
}

// decodeSemver reads a semver template as upstream's strict decoder does:
// unknown and duplicate keys are errors, booleans must be booleans.
func decodeSemver(src source, doc *document) (*semverTemplate, Errors) {
	var problems Errors
	if err := duplicateKeys(src, doc); err != nil {
		problems = append(problems, err)
	}
	root := &doc.value
	if f := unknownMember(root, semverFields...); f != nil {
		problems = append(problems, src.errorf(&f.Value, "", "unknown field %q: a semver template has %s", f.Key, strings.Join(semverFields, ", ")))
	}
	t := &semverTemplate{}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"generateMajorChannels", &t.major}, {"generateMinorChannels", &t.minor}} {
		m, err := member(root, b.name)
		switch {
		case err != nil:
			problems = append(problems, src.wrap(root, "", err))
		case m == nil || m.Kind == value.Null:
		case m.Kind != value.Bool:
			problems = append(problems, src.errorf(m, "", "%s must be true or false, not %s", b.name, value.Describe(m)))
		default:
			*b.dst = m.Bool
		}
	}
	pref, prefNode, err := stringMember(root, "defaultChannelTypePreference")
	if err != nil {
		problems = append(problems, src.wrap(orNode(prefNode, root), "", err))
	}
	for a := range numArchetypes {
		entries, errs := decodeArchetype(src, root, a)
		t.bundles[a] = entries
		problems = append(problems, errs...)
	}
	if len(problems) > 0 {
		return nil, problems.sorted()
	}

	// As upstream: without either, minor channels are generated; the
	// preference defaults to the kind generated and must be one that is.
	if !t.major && !t.minor {
		t.minor = true
	}
	switch pref {
	case "":
		t.preference = majorStream
		if t.minor {
			t.preference = minorStream
		}
	case "minor", "major":
		t.preference = minorStream
		generated := t.minor
		if pref == "major" {
			t.preference, generated = majorStream, t.major
		}
		if !generated {
			return nil, Errors{src.errorf(prefNode, "", "defaultChannelTypePreference is %q, but no %s channels are generated: set generate%sChannels: true or change the preference", pref, pref, strings.ToUpper(pref[:1])+pref[1:])}
		}
	default:
		return nil, Errors{src.errorf(prefNode, "", "defaultChannelTypePreference %q is not valid: use \"major\" or \"minor\"", pref)}
	}
	return t, nil
}

// decodeArchetype reads the bundles listed under an archetype.
func decodeArchetype(src source, root *value.Value, a archetype) ([]semverEntry, Errors) {
	name := a.String()
	node, err := member(root, name)
	if err != nil {
		return nil, Errors{src.wrap(root, "", err)}
	}
	if node == nil || node.Kind == value.Null {
		return nil, nil
	}
	if node.Kind != value.Object {
		return nil, Errors{src.errorf(node, name, "must be an object with a list of bundles (bundles: [{image: ...}]), not %s", value.Describe(node))}
	}
	var problems Errors
	if f := unknownMember(node, archetypeFields...); f != nil {
		problems = append(problems, src.errorf(&f.Value, name, "unknown field %q: only \"bundles\" belongs here", f.Key))
	}
	list, listNode, err := listMember(node, "bundles")
	if err != nil {
		return nil, append(problems, src.wrap(orNode(listNode, node), name, err))
	}
	var out []semverEntry
	for i := range list {
		item := &list[i]
		path := fmt.Sprintf("%s.bundles[%d]", name, i)
		if item.Kind != value.Object {
			problems = append(problems, src.errorf(item, path, "must be an object with the bundle's image (image: ...), not %s", value.Describe(item)))
			continue
		}
		if f := unknownMember(item, bundleFields...); f != nil {
			problems = append(problems, src.errorf(&f.Value, path, "unknown field %q: a bundle is given by its image only", f.Key))
			continue
		}
		image, imageNode, err := stringMember(item, "image")
		switch {
		case err != nil:
			problems = append(problems, src.wrap(orNode(imageNode, item), path, err))
		case image == "":
			problems = append(problems, src.errorf(item, path, "bundle has no image: give the bundle image to render (image: ...)"))
		default:
			out = append(out, semverEntry{image: image, node: item, path: path})
		}
	}
	return out, problems
}

// yamlLine finds the line number go-yaml puts in its messages.
var yamlLine = regexp.MustCompile(`line (\d+): `)

// duplicateKeys reports a key given twice in one mapping, which upstream's
// strict decoder refuses (the tree decoder keeps the last one).
func duplicateKeys(src source, doc *document) *position.Error {
	var v any
	err := yamlv2.UnmarshalStrict(doc.raw, &v)
	if err == nil || !strings.Contains(err.Error(), "already set in map") {
		return nil
	}
	msg := err.Error()
	for _, l := range strings.Split(msg, "\n") {
		if strings.Contains(l, "already set in map") {
			msg = strings.TrimSpace(l)
			break
		}
	}
	e := src.errorf(nil, "", "duplicate key: %s; give each key once", yamlLine.ReplaceAllString(msg, ""))
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		fmt.Sscan(m[1], &e.Line)
		e.Line += int(doc.line) - 1
	}
	return e
}

func orNode(n, fallback *value.Value) *value.Value {
	if n != nil {
		return n
	}
	return fallback
}

// member is a bundle placed under an archetype: its name and version.
type semverMember struct {
	name    string
	image   string
	version semver.Version
}

// semverMembers reads the package and version of every listed bundle, in
// template order, with upstream's checks: one olm.package property, a
// semantic version, the same package for all, no bundle twice under one
// archetype and no two versions there that differ only by build metadata
// (which cannot be ordered). The package is that of the first bundle.
func semverMembers(src source, t *semverTemplate, rendered map[string]*Bundle) ([numArchetypes][]semverMember, string, Errors) {
	var members [numArchetypes][]semverMember
	var problems Errors
	pkg, pkgFrom := "", ""
	checked := map[string]bool{}
	for a := range numArchetypes {
		byName := map[string]*semverEntry{}
		byVersion := map[string]*semverEntry{}
		for i := range t.bundles[a] {
			e := &t.bundles[a][i]
			b := rendered[e.image]
			first := !checked[e.image]
			checked[e.image] = true
			prop, err := packageProperty(b)
			if err != nil {
				if first {
					problems = append(problems, src.errorf(e.node, e.path, "bundle %q (image %q): %v", b.Name, e.image, err))
				}
				continue
			}
			v, err := semver.Parse(prop.Version)
			if err != nil {
				if first {
					problems = append(problems, src.errorf(e.node, e.path, "bundle %q (image %q) has invalid version %q: %v", b.Name, e.image, prop.Version, err))
				}
				continue
			}
			switch {
			case pkg == "":
				pkg, pkgFrom = prop.PackageName, e.path
			case prop.PackageName != pkg:
				if first {
					problems = append(problems, src.errorf(e.node, e.path, "bundle %q (image %q) belongs to package %q, not to %q, the package of the template's first bundle (%s); a semver template makes one package", b.Name, e.image, prop.PackageName, pkg, pkgFrom))
				}
				continue
			}
			if prev := byName[b.Name]; prev != nil {
				what := fmt.Sprintf("image %q renders bundle %q, as %s's image %q does", e.image, b.Name, prev.path, prev.image)
				if prev.image == e.image {
					what = fmt.Sprintf("image %q is listed twice (also at %s)", e.image, prev.path)
				}
				problems = append(problems, src.errorf(e.node, e.path, "duplicate bundle in %s: %s", a, what))
				continue
			}
			byName[b.Name] = e
			key := withoutBuild(v)
			if prev := byVersion[key]; prev != nil {
				other := rendered[prev.image]
				why := "versions that differ only by build metadata cannot be ordered"
				if ov := versionOf(other); ov == v.String() {
					why = "the semver template orders a channel's bundles by version (releases do not count)"
				}
				problems = append(problems, src.errorf(e.node, e.path, "bundle %q has version %s, the same as bundle %q at %s (version %s): %s", b.Name, v, other.Name, prev.path, versionOf(other), why))
				continue
			}
			byVersion[key] = e
			members[a] = append(members[a], semverMember{name: b.Name, image: e.image, version: v})
		}
	}
	return members, pkg, problems
}

// packageProperty returns the bundle's one olm.package property.
func packageProperty(b *Bundle) (declcfg.PackageProperty, error) {
	var found []declcfg.Property
	for _, p := range b.Properties {
		if p.Type == declcfg.PropertyPackage {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		return declcfg.PackageProperty{}, fmt.Errorf("has %d %q properties, expected exactly 1", len(found), declcfg.PropertyPackage)
	}
	v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](found[0].Value)
	if err != nil {
		return declcfg.PackageProperty{}, fmt.Errorf("invalid %q property: %v", declcfg.PropertyPackage, err)
	}
	return v, nil
}

func versionOf(b *Bundle) string {
	p, _ := packageProperty(b)
	return p.Version
}

func withoutBuild(v semver.Version) string {
	v.Build = nil
	return v.String()
}
