package author

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/validate"
)

// Expanded is a catalog expanded from its template.
type Expanded struct {
	Catalog *Catalog
	Config  *declcfg.DeclarativeConfig
	data    text                 // the catalog's text, once written
	enc     *encoder             // shared by the catalogs of a package
	pool    *validate.SchemaPool // likewise
	// compared is the text the committed one was compared with (see
	// sameText); textOnly says the objects were the same but the text
	// was not.
	compared text
	textOnly bool
	// gap is what the package's description lacks (see describeOffline).
	gap *iconGap
}

// Bytes are the bytes `opm alpha render-template -o yaml` writes for the
// expanded catalog.
func (r *Expanded) Bytes() ([]byte, error) {
	t, err := r.text()
	if err != nil {
		return nil, err
	}
	return t.Join(), nil
}

// text is Bytes in pieces, the bundles' shared with the other catalogs
// of the package.
func (r *Expanded) text() (text, error) {
	if r.data == nil {
		enc := r.enc
		if enc == nil {
			enc = newEncoder()
		}
		data, err := enc.write(r.Config, r.Catalog.Format)
		if err != nil {
			return nil, fmt.Errorf("writing catalog %s: %w", r.Catalog.Path, err)
		}
		r.data = data
	}
	return r.data, nil
}

// ExpandCatalog expands the template text data (the catalog's template,
// as it is or edited) into catalog c as opm v1.71 and later do, which is
// what the community release pipeline writes; with keepStyle, the way c
// was expanded before (see Match), which for a semver catalog an older
// opm rendered is that opm's style.
func (p *Package) ExpandCatalog(ctx context.Context, c *Catalog, data []byte, src *Bundles, keepStyle bool) (*Expanded, error) {
	var style template.Options
	if keepStyle {
		style = c.dialect
	}
	return p.expandCatalog(ctx, c, data, src, style)
}

func (p *Package) expandCatalog(ctx context.Context, c *Catalog, data []byte, src *Bundles, opts template.Options) (*Expanded, error) {
	br, err := src.forCatalog(c)
	if err != nil {
		return nil, err
	}
	t := c.Template
	if data == nil {
		return nil, refuse("template %s does not exist: %s maps catalog %s to it", t.Path, p.CI.File, c.Name)
	}
	in := template.Input{Name: t.Path, Data: data}
	kind, err := template.Detect(in)
	if err != nil {
		return nil, refuse("%w", err)
	}
	if kind != t.Kind() {
		return nil, refuse("%s is a %s template, but %s says its type is %s", t.Path, kind, p.CI.File, t.Type)
	}
	cfg, err := template.ExpandWith(ctx, kind, in, br, opts)
	if err != nil {
		return nil, refuse("rendering %s for catalog %s: %w", t.Path, c.Name, err)
	}
	var gap *iconGap
	if kind == template.Semver {
		gap = describeOffline(cfg, c, opts.SemverPerChannel, br)
	}
	if kind == template.Basic {
		if err := checkEntries(t, data, cfg); err != nil {
			return nil, err
		}
	}
	return &Expanded{Catalog: c, Config: cfg, enc: p.encoder(), pool: p.schemaPool(), gap: gap}, nil
}

// perChannel is how older opm releases expanded semver templates (see
// template.Options.SemverPerChannel), which the release pipeline ran
// until July 2026: committed catalogs still hold that style.
var perChannel = template.Options{SemverPerChannel: true}

// Match expands the catalog's template as it is and reports whether the
// committed catalog is what it gives, text and all (see Same). A semver
// catalog is also matched in the styles older opm releases wrote (see
// match), and the style found is kept for Options.KeepStyle. The
// expansion in today's style is returned when none matches.
func (p *Package) Match(ctx context.Context, c *Catalog, src *Bundles) (*Expanded, bool, error) {
	return p.match(ctx, c, c.Template.Data, src)
}

// match is Match of the template text data. Today's style is tried
// first; then, for a semver template, the older opm's style (each
// channel linked on its own, no package description), and today's once
// more for a catalog that lacks only the package's description and icon
// (opm before v1.65). So a catalog that fits both (no two minor versions
// in a channel, no description) is taken for the older style, which did
// not describe the package.
func (p *Package) match(ctx context.Context, c *Catalog, data []byte, src *Bundles) (*Expanded, bool, error) {
	today, err := p.expandCatalog(ctx, c, data, src, template.Options{})
	if err != nil {
		return nil, false, err
	}
	found := func(r *Expanded, style template.Options, undescribed bool) bool {
		objects, text := r.same(undescribed)
		if objects {
			c.dialect, r.textOnly = style, !text
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

// bundlesByName indexes a catalog's bundles (the first of each name).
func bundlesByName(cfg *declcfg.DeclarativeConfig) map[string]*declcfg.Bundle {
	out := make(map[string]*declcfg.Bundle, len(cfg.Bundles))
	for i := range cfg.Bundles {
		if _, dup := out[cfg.Bundles[i].Name]; !dup {
			out[cfg.Bundles[i].Name] = &cfg.Bundles[i]
		}
	}
	return out
}

// sameBundle reports whether two bundles are equal. Expanding offline
// shares the big property values with the committed catalog, so those
// compare at once.
func sameBundle(a, b *declcfg.Bundle) bool {
	if a == nil || b == nil || a.Schema != b.Schema || a.Name != b.Name || a.Package != b.Package || a.Image != b.Image ||
		len(a.Properties) != len(b.Properties) || !slices.Equal(a.RelatedImages, b.RelatedImages) {
		return false
	}
	for i := range a.Properties {
		if a.Properties[i].Type != b.Properties[i].Type || !bytes.Equal(a.Properties[i].Value, b.Properties[i].Value) {
			return false
		}
	}
	return true
}

// objectKeys are the JSON of the objects of cfg but its bundles, sorted:
// equal lists mean equal objects.
func objectKeys(cfg *declcfg.DeclarativeConfig) []string {
	var keys []string
	add := func(b []byte) { keys = append(keys, string(b)) }
	for i := range cfg.Packages {
		add(cfg.Packages[i].AppendJSON(nil))
	}
	for i := range cfg.Channels {
		add(cfg.Channels[i].AppendJSON(nil))
	}
	for i := range cfg.Others {
		add(cfg.Others[i].AppendJSON(nil))
	}
	for i := range cfg.Deprecations {
		add(cfg.Deprecations[i].AppendJSON(nil))
	}
	slices.Sort(keys)
	return keys
}

// expandAll expands the given template texts into each of the catalogs
// (see ExpandCatalog).
func (p *Package) expandAll(ctx context.Context, cats []*Catalog, data func(*Catalog) []byte, src *Bundles, keepStyle bool) ([]*Expanded, error) {
	return forEach(ctx, cats, func(c *Catalog) (*Expanded, error) { return p.ExpandCatalog(ctx, c, data(c), src, keepStyle) })
}

// matched is a catalog expanded from its template as it is, and whether
// that is what the catalog holds.
type matched struct {
	*Expanded
	same bool
}

// matchAll matches each of the catalogs with its template (see Match),
// or with the text base has for it.
func (p *Package) matchAll(ctx context.Context, cats []*Catalog, src *Bundles, base based) ([]matched, error) {
	return forEach(ctx, cats, func(c *Catalog) (matched, error) {
		data := c.Template.Data
		if b, ok := base[c.Template]; ok {
			data = b
		}
		r, same, err := p.match(ctx, c, data, src)
		return matched{r, same}, err
	})
}

// forEach calls f for each catalog, a few at a time, and returns the
// results in the order of cats, or the first error in that order.
func forEach[T any](ctx context.Context, cats []*Catalog, f func(*Catalog) (T, error)) ([]T, error) {
	out := make([]T, len(cats))
	err := parallel.Do(ctx, len(cats), 4, func(i int) error {
		var err error
		out[i], err = f(cats[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
