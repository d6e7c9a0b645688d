package template

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/model"
)

// substitution replaces the bundle named base with the bundle rendered
// from image name.
type substitution struct {
	name, base string
	node       *value.Value
	path       string // e.g. "substitutions[1]"
}

// expandSubstitutes expands a substitutes template: its entries are a
// whole valid catalog; each substitution renders a bundle image (a newer
// build of the base bundle: a higher version or release) and puts it in
// the base bundle's place in every channel, as upstream does. The result
// must again be a valid catalog.
func expandSubstitutes(ctx context.Context, src source, doc *document, br BundleRenderer) (*declcfg.DeclarativeConfig, error) {
	items, problems := entries(src, doc)
	subs, subProblems := decodeSubstitutions(src, doc)
	problems = append(problems, subProblems...)
	if len(problems) > 0 {
		return nil, problems.sorted()
	}
	cfg := &declcfg.DeclarativeConfig{}
	for _, it := range items {
		cfg.Add(it)
	}
	if problems := checkCatalog(ctx, src, cfg, nil, "the entries are not a valid catalog"); len(problems) > 0 {
		return nil, problems
	}
	if len(subs) == 0 {
		return cfg, nil
	}

	var refs []string
	for _, s := range subs {
		refs = append(refs, s.name)
	}
	rendered, failed := renderImages(ctx, br, refs)
	for _, s := range subs {
		if err := failed[s.name]; err != nil {
			problems = append(problems, src.wrap(s.node, s.path, err))
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	if err := substitutionCycle(src, subs, rendered); err != nil {
		return nil, err
	}
	for _, s := range subs {
		if err := substitute(ctx, src, cfg, s, rendered[s.name]); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// decodeSubstitutions reads the substitutions with upstream's checks:
// both fields set and different, no base substituted twice and no image
// used for two bases.
func decodeSubstitutions(src source, doc *document) ([]substitution, Errors) {
	list, node, err := listMember(&doc.value, "substitutions")
	if err != nil {
		return nil, Errors{src.wrap(node, "", err)}
	}
	var subs []substitution
	var problems Errors
	byBase := map[string]*substitution{}
	byName := map[string]*substitution{}
	for i := range list {
		item := &list[i]
		s := substitution{node: item, path: fmt.Sprintf("substitutions[%d]", i)}
		if item.Kind != value.Object {
			problems = append(problems, src.errorf(item, s.path, "must be an object with the substitute's image (name) and the bundle it replaces (base), not %s", value.Describe(item)))
			continue
		}
		var nameErr, baseErr error
		s.name, _, nameErr = stringMember(item, "name")
		s.base, _, baseErr = stringMember(item, "base")
		switch {
		case nameErr != nil || baseErr != nil:
			problems = append(problems, src.wrap(item, s.path, cmpErr(nameErr, baseErr)))
		case s.name == "":
			problems = append(problems, src.errorf(item, s.path, "substitution name cannot be empty: name is the image of the substitute bundle"))
		case s.base == "":
			problems = append(problems, src.errorf(item, s.path, "substitution base cannot be empty: base is the name of the bundle the substitute replaces"))
		case s.name == s.base:
			problems = append(problems, src.errorf(item, s.path, "substitution name and base cannot be the same (%q)", s.name))
		case byBase[s.base] != nil:
			problems = append(problems, src.errorf(item, s.path, "cannot reuse the same substitution base %q (already substituted at %s)", s.base, byBase[s.base].path))
		case byName[s.name] != nil:
			problems = append(problems, src.errorf(item, s.path, "cannot reuse the same substitution %q for different bases (%q at %s and %q)", s.name, byName[s.name].base, byName[s.name].path, s.base))
		default:
			subs = append(subs, s)
			byBase[s.base] = &subs[len(subs)-1]
			byName[s.name] = &subs[len(subs)-1]
		}
	}
	return subs, problems
}

func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// substitutionCycle reports substitutions that form a cycle, where a
// bundle would end up substituting (through other substitutions) for its
// own substitute; upstream looped on such chains (OR#2038).
func substitutionCycle(src source, subs []substitution, rendered map[string]*Bundle) error {
	byBase := map[string]int{}
	for i, s := range subs {
		byBase[s.base] = i
	}
	for i, s := range subs {
		chain := []string{s.base}
		paths := []string{s.path}
		seen := map[int]bool{i: true}
		for j := i; ; {
			next := rendered[subs[j].name].Name
			chain = append(chain, next)
			if next == s.base && len(chain) == 2 {
				return src.errorf(s.node, s.path, "image %q renders bundle %q, the base itself: a bundle cannot substitute for itself", s.name, next)
			}
			if next == s.base {
				return src.errorf(s.node, s.path, "substitution cycle: %s (%s): a bundle cannot substitute for its own substitute", strings.Join(chain, " -> "), strings.Join(paths, ", "))
			}
			k, ok := byBase[next]
			if !ok || seen[k] {
				break
			}
			seen[k] = true
			paths = append(paths, subs[k].path)
			j = k
		}
	}
	return nil
}

// substitute applies one substitution to cfg exactly as upstream does:
// in every channel, the base entry's edges move to a new entry for the
// substitute (which also skips the base), an entry that replaced the base
// now replaces the substitute and skips the base, and one that skipped
// the base skips the substitute instead. The substitute bundle is added
// and the catalog must still be valid.
func substitute(ctx context.Context, src source, cfg *declcfg.DeclarativeConfig, s substitution, sub *Bundle) error {
	i := slices.IndexFunc(cfg.Bundles, func(b declcfg.Bundle) bool { return b.Name == s.base })
	if i < 0 {
		return src.errorf(s.node, s.path, "base bundle %q does not exist in the catalog", s.base)
	}
	base := &cfg.Bundles[i]
	if sub.Package != base.Package {
		return src.errorf(s.node, s.path, "image %q renders bundle %q of package %q, but base bundle %q belongs to package %q: a substitute must be a bundle of the same package", s.name, sub.Name, sub.Package, s.base, base.Package)
	}
	bv, err := bundleVersion(base, nil)
	if err != nil {
		return src.errorf(s.node, s.path, "base bundle %q: %v", s.base, err)
	}
	sv, err := bundleVersion(&sub.Bundle, sub.CSV)
	if err != nil {
		return src.errorf(s.node, s.path, "substitute bundle %q (image %q): %v", sub.Name, s.name, err)
	}
	if bv.Compare(sv) >= 0 {
		return src.errorf(s.node, s.path, "base bundle %q (%s) is not less than substitute bundle %q (image %q, %s): a substitute must have a higher version or release", s.base, describeVersion(bv), sub.Name, s.name, describeVersion(sv))
	}
	for c := range cfg.Channels {
		rewire(&cfg.Channels[c], s.base, sub.Name)
	}
	b := sub.Bundle
	b.Pos = declcfg.Pos{File: src.file, Line: int(s.node.Line)}
	cfg.Bundles = append(cfg.Bundles, b)
	return checkCatalog(ctx, src, cfg, &s, fmt.Sprintf("the catalog with %q substituted for %q is not valid", sub.Name, s.base)).err()
}

// rewire puts the substitute in the base bundle's place in one channel.
func rewire(ch *declcfg.Channel, base, sub string) {
	var bases []int
	for j, e := range ch.Entries {
		if e.Name == base {
			bases = append(bases, j)
		}
	}
	for k := len(bases) - 1; k >= 0; k-- {
		e := &ch.Entries[bases[k]]
		ch.Entries = append(ch.Entries, declcfg.ChannelEntry{
			Name:      sub,
			Replaces:  e.Replaces,
			Skips:     append(slices.Clip(e.Skips), base),
			SkipRange: e.SkipRange,
		})
		e = &ch.Entries[bases[k]]
		e.Replaces, e.Skips, e.SkipRange = "", nil, ""
	}
	for j := range len(ch.Entries) - len(bases) {
		e := &ch.Entries[j]
		switch {
		case e.Replaces == base:
			e.Replaces = sub
			e.Skips = append(slices.Clip(e.Skips), base)
		case slices.Contains(e.Skips, base):
			e.Skips = slices.DeleteFunc(append(slices.Clip(e.Skips), sub), func(n string) bool { return n == base })
		}
	}
}

func describeVersion(v model.Version) string {
	if v.Release == "" {
		return "version " + v.Version.String()
	}
	return fmt.Sprintf("version %s, release %s", v.Version, v.Release)
}
