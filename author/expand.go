package author

import (
	"context"
	"fmt"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/validate"
)

// Expanded is a catalog expanded from its template.
type Expanded struct {
	Catalog *catalogrepo.Catalog
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
// as it is or edited) into catalog c in style: as opm v1.71 and later do
// (StyleToday, StyleAuto), which is what the community release pipeline
// writes; as an older opm did (StyleOlder); or the way c was expanded
// before (StyleKept, see Match).
func (p *Package) ExpandCatalog(ctx context.Context, c *catalogrepo.Catalog, data []byte, src *Bundles, style Style) (*Expanded, error) {
	return p.expandCatalog(ctx, c, data, src, p.styleOf(c, style))
}

func (p *Package) expandCatalog(ctx context.Context, c *catalogrepo.Catalog, data []byte, src *Bundles, opts template.Options) (*Expanded, error) {
	br, err := src.forCatalog(c)
	if err != nil {
		return nil, err
	}
	t := c.Template
	if data == nil {
		return nil, catalogrepo.Refuse("template %s does not exist: %s maps catalog %s to it", t.Path, p.CI.File, c.Name)
	}
	in := template.Input{Name: t.Path, Data: data}
	kind, err := template.Detect(in)
	if err != nil {
		return nil, catalogrepo.Refuse("%w", err)
	}
	if kind != t.Kind() {
		return nil, catalogrepo.Refuse("%s is a %s template, but %s says its type is %s", t.Path, kind, p.CI.File, t.Type)
	}
	cfg, err := template.ExpandWith(ctx, kind, in, br, opts)
	if err != nil {
		return nil, catalogrepo.Refuse("rendering %s for catalog %s: %w", t.Path, c.Name, err)
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
	return &Expanded{Catalog: c, Config: cfg, enc: p.encoder(), pool: p.SchemaPool(), gap: gap}, nil
}

// expandAll expands the given template texts into each of the catalogs
// (see ExpandCatalog).
func (p *Package) expandAll(ctx context.Context, cats []*catalogrepo.Catalog, data func(*catalogrepo.Catalog) []byte, src *Bundles, style Style) ([]*Expanded, error) {
	return forEach(ctx, cats, func(c *catalogrepo.Catalog) (*Expanded, error) {
		return p.ExpandCatalog(ctx, c, data(c), src, style)
	})
}

// forEach calls f for each catalog, a few at a time, and returns the
// results in the order of cats, or the first error in that order.
func forEach[T any](ctx context.Context, cats []*catalogrepo.Catalog, f func(*catalogrepo.Catalog) (T, error)) ([]T, error) {
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
