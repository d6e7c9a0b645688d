package author

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
)

// copyOf is one catalog's copy of a bundle.
type copyOf struct {
	cat  *catalogrepo.Catalog
	b    *declcfg.Bundle
	full bool // keeps its objects
}

// Conflicts lists the bundles whose committed copies in the catalogs of
// the package disagree, which rendering offline cannot tell apart from
// a hand edit: copies that both keep their objects (or both carry
// olm.csv.metadata) must be equal; a copy of each kind must agree on
// everything but those properties. When most copies agree, each odd one
// is named with its file and line ("bundle B: catalogs/v4.17/p/catalog.yaml:12
// holds a copy that differs from the other 2 catalogs' (...)"); else
// the two that differ are.
func (p *Package) Conflicts() []string {
	byImage := map[string][]copyOf{}
	var images []string
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for i := range c.Config.Bundles {
			b := &c.Config.Bundles[i]
			if _, seen := byImage[b.Image]; !seen {
				images = append(images, b.Image)
			}
			byImage[b.Image] = append(byImage[b.Image], copyOf{c, b, hasProperty(b, declcfg.PropertyBundleObject)})
		}
	}
	var out []string
	for _, img := range images {
		copies := byImage[img]
		// Everything but the bulk first, across kinds; then each kind whole.
		odd, found := oddCopies(copies, func(c copyOf) *declcfg.Bundle { return withoutBulk(c.b) }, nil)
		out = append(out, found...)
		for _, full := range []bool{true, false} {
			var same []copyOf
			for _, c := range copies {
				if c.full == full {
					same = append(same, c)
				}
			}
			_, found := oddCopies(same, func(c copyOf) *declcfg.Bundle { return c.b }, odd)
			out = append(out, found...)
		}
	}
	return out
}

// oddCopies compares what view shows of the copies (with sameBundle) and
// describes those that differ, leaving out the ones already reported
// (skip); it returns the copies it reported too.
func oddCopies(copies []copyOf, view func(copyOf) *declcfg.Bundle, skip map[*catalogrepo.Catalog]bool) (map[*catalogrepo.Catalog]bool, []string) {
	class, sizes := sameClasses(copies, view)
	if len(sizes) < 2 {
		return nil, nil
	}
	majority, best, tie := 0, 0, false
	for k, n := range sizes {
		switch {
		case n > best:
			majority, best, tie = k, n, false
		case n == best:
			tie = true
		}
	}
	reported := map[*catalogrepo.Catalog]bool{}
	var out []string
	if tie || best < 2 {
		var places []string
		for _, c := range copies {
			if !skip[c.cat] {
				places = append(places, c.place())
				reported[c.cat] = true
			}
		}
		if len(places) >= 2 {
			out = append(out, fmt.Sprintf("bundle %s: %s hold different copies (no majority tells which is right)", copies[0].b.Name, joinAnd(places)))
		}
		return reported, out
	}
	var agree []string
	for i, c := range copies {
		if class[i] == majority {
			agree = append(agree, c.cat.Path)
		}
	}
	for i, c := range copies {
		if class[i] != majority && !skip[c.cat] {
			reported[c.cat] = true
			out = append(out, fmt.Sprintf("bundle %s: %s holds a copy that differs from the other %d catalogs' (%s)", c.b.Name, c.place(), len(agree), strings.Join(agree, ", ")))
		}
	}
	return reported, out
}

// sameClasses sorts the copies into classes of equal views: the class of
// each copy (numbered in order of first appearance) and each class's
// size. Copies loaded from the same text share their property values, so
// equal ones compare at once.
func sameClasses(copies []copyOf, view func(copyOf) *declcfg.Bundle) (class, sizes []int) {
	class = make([]int, len(copies))
	var reps []*declcfg.Bundle
	for i, c := range copies {
		b := view(c)
		k := slices.IndexFunc(reps, func(r *declcfg.Bundle) bool { return sameBundle(r, b) })
		if k < 0 {
			k = len(reps)
			reps, sizes = append(reps, b), append(sizes, 0)
		}
		class[i] = k
		sizes[k]++
	}
	return class, sizes
}

// place is the copy's catalog file and the line its bundle's name is
// at, as the catalog was loaded.
func (c copyOf) place() string {
	if c.b.NameLine > 0 {
		return fmt.Sprintf("%s:%d", c.cat.Path, c.b.NameLine)
	}
	return c.cat.Path
}
