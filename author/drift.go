// Drift: whether a committed catalog is what its template renders, text
// and all, and where it first is not.

package author

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/author/textdiff"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
)

// Difference is where a committed catalog first differs from what its
// template renders: the catalog's line and what is there.
type Difference struct {
	Path     string // the catalog, relative to the root
	Template string // its template, relative to the root
	// Line is the committed text's first line that is not what the
	// template renders (1 is the first; one past the last when the
	// committed text ends where the rendering goes on).
	Line int
	// What says in words what differs at Line (a comment, white space,
	// the objects written differently, or the line the template renders).
	What string
}

// String is "catalogs/v4.17/p/catalog.yaml:12 (from T): what".
func (d Difference) String() string {
	return fmt.Sprintf("%s:%d (from %s): %s", d.Path, d.Line, d.Template, d.What)
}

// sameText reports whether the committed catalog's text is the text
// rendering cfg writes (r.Config's, or the committed style's, see same),
// and keeps that text for telling where they differ. Catalogs written by
// opm are byte for byte what their objects encode to, so any other text
// is a hand edit, comments and white space included. Line ends do not
// count: a checkout may turn "\n" into "\r\n".
func (r *Expanded) sameText(cfg *declcfg.DeclarativeConfig) bool {
	var t text
	var err error
	if cfg == r.Config {
		t, err = r.text()
	} else {
		t, err = r.encoder().write(cfg, r.Catalog.Format)
	}
	if err != nil {
		return false // writing the plan reports it
	}
	r.compared = t
	return r.Catalog.SameText(t.Size(), t.Digest())
}

// encoder is the writer the expanded catalog's text comes from.
func (r *Expanded) encoder() *encoder {
	if r.enc == nil {
		r.enc = newEncoder()
	}
	return r.enc
}

// difference reads the committed catalog again and says where it first
// differs from the text it was compared with (see sameText).
func (r *Expanded) difference() (Difference, error) {
	c := r.Catalog
	d := Difference{Path: c.Path, Template: c.Template.Path}
	old, err := os.ReadFile(c.File())
	if err != nil {
		return d, fmt.Errorf("reading %s: %w", c.Path, err)
	}
	rendered := r.compared
	if rendered == nil {
		if rendered, err = r.text(); err != nil {
			return d, err
		}
	}
	f := textdiff.FirstDifference(old, rendered.Join())
	d.Line, d.What = max(f.Line, 1), f.What("the template", "render")
	switch {
	case f.Kind == textdiff.Comment:
		d.What += ": rendering drops it, so keep comments in the template"
	case f.Kind == textdiff.Other && r.textOnly:
		d.What = "the objects the template renders, written differently (reordered or reformatted): " + d.What
	}
	return d, nil
}

// refuseDrift refuses to overwrite the catalogs that are not what their
// templates render, naming the line where each first differs; nil when
// every one is.
func (p *Package) refuseDrift(matches []matched) error {
	var drifted []string
	for _, r := range matches {
		if r.same {
			continue
		}
		d, err := r.difference()
		if err != nil {
			return err
		}
		drifted = append(drifted, d.String())
	}
	if len(drifted) == 0 {
		return nil
	}
	return catalogrepo.Refuse("%w", needOverwrite("refusing to overwrite catalogs that differ from what their templates render (edited by hand?):\n  "+strings.Join(drifted, "\n  "), p.Name))
}

// appendDifferences appends where each committed catalog of differ first
// differs from what its template renders.
func appendDifferences(out []Difference, differ []*Expanded) ([]Difference, error) {
	for _, r := range differ {
		if !r.Catalog.Committed() {
			continue
		}
		d, err := r.difference()
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// perChannel is how older opm releases expanded semver templates (see
// template.Options.SemverPerChannel), which the release pipeline ran
// until July 2026: committed catalogs still hold that style.
var perChannel = template.Options{SemverPerChannel: true}

// Match expands the catalog's template as it is and reports whether the
// committed catalog is what it gives, text and all (see Same). A semver
// catalog is also matched in the styles older opm releases wrote (see
// match), and the style found is kept for StyleKept. The
// expansion in today's style is returned when none matches.
func (p *Package) Match(ctx context.Context, c *catalogrepo.Catalog, src *Bundles) (*Expanded, bool, error) {
	return p.match(ctx, c, c.Template.Data, src)
}

// match is Match of the template text data. Today's style is tried
// first; then, for a semver template, the older opm's style (each
// channel linked on its own, no package description), and today's once
// more for a catalog that lacks only the package's description and icon
// (opm before v1.65). So a catalog that fits both (no two minor versions
// in a channel, no description) is taken for the older style, which did
// not describe the package.
func (p *Package) match(ctx context.Context, c *catalogrepo.Catalog, data []byte, src *Bundles) (*Expanded, bool, error) {
	today, err := p.expandCatalog(ctx, c, data, src, template.Options{})
	if err != nil {
		return nil, false, err
	}
	found := func(r *Expanded, style template.Options, undescribed bool) bool {
		objects, text := r.same(undescribed)
		if objects {
			p.setStyle(c, style)
			r.textOnly = !text
		}
		return objects
	}
	if found(today, template.Options{}, false) {
		return today, !today.textOnly, nil
	}
	if c.Template.Kind() != template.Semver {
		return today, false, nil
	}
	older, err := p.expandCatalog(ctx, c, data, src, perChannel)
	if err != nil {
		return nil, false, err
	}
	if found(older, perChannel, false) {
		return older, !older.textOnly, nil
	}
	if found(today, template.Options{}, true) {
		return today, !today.textOnly, nil
	}
	return today, false, nil
}

// Same reports whether the committed catalog is the expanded one: the
// same objects, and the text opm writes for them, byte for byte but for
// line ends (a comment or white space added by hand is a difference).
func (r *Expanded) Same() bool {
	objects, text := r.same(false)
	return objects && text
}

// same reports whether the committed catalog holds the objects of the
// expanded one, in any order, and if so whether its text is theirs too.
// With undescribed (for semver templates only: a basic one holds its
// package as it is) it also holds when the committed package has no
// description and icon where the expanded one has them: opm releases
// before v1.65 did not describe the package of a semver template, and
// the next release describes it as upstream now does.
func (r *Expanded) same(undescribed bool) (objects, text bool) {
	c := r.Catalog
	if c.Config == nil || len(c.Config.Bundles) != len(r.Config.Bundles) {
		return false, false
	}
	old := bundlesByName(c.Config)
	for i := range r.Config.Bundles {
		if b := &r.Config.Bundles[i]; !sameBundle(old[b.Name], b) {
			return false, false
		}
	}
	rendered := r.Config
	if undescribed && undescribedPackage(c.Config, rendered) {
		cp := *rendered
		cp.Packages = slices.Clone(rendered.Packages)
		cp.Packages[0].Description, cp.Packages[0].Icon = "", nil
		rendered = &cp
	}
	if !slices.Equal(objectKeys(c.Config), objectKeys(rendered)) {
		return false, false
	}
	return true, r.sameText(rendered)
}

// matched is a catalog expanded from its template as it is, and whether
// that is what the catalog holds.
type matched struct {
	*Expanded
	same bool
}

// matchAll matches each of the catalogs with its template (see Match),
// or with the text base has for it.
func (p *Package) matchAll(ctx context.Context, cats []*catalogrepo.Catalog, src *Bundles, base based) ([]matched, error) {
	return forEach(ctx, cats, func(c *catalogrepo.Catalog) (matched, error) {
		data := c.Template.Data
		if b, ok := base[c.Template]; ok {
			data = b
		}
		r, same, err := p.match(ctx, c, data, src)
		return matched{r, same}, err
	})
}

// based are the texts of templates the committed catalogs are checked
// against instead of the committed templates (see Package.Release: a
// template that already lists the bundle being released): their
// catalogs are expanded again even if their text did not change.
type based map[*catalogrepo.Template][]byte
