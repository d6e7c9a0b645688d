package author

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

// Bundles is where rendering finds the content of the bundles templates
// name, without a registry: the committed catalogs (by image), bundles
// rendered from their directories (a release), and, when Pull is set,
// the images themselves.
type Bundles struct {
	pkg *Package
	// extra are bundles rendered from directories, by image.
	extra map[string]*declcfg.Bundle
	// Pull renders images no catalog holds; nil keeps rendering offline.
	Pull template.BundleRenderer

	once    sync.Once
	byImage map[string][]located // the committed catalogs' bundles
}

// located is a bundle of a committed catalog.
type located struct {
	b   *declcfg.Bundle
	cat *catalogrepo.Catalog
}

// NewBundles is the offline bundle source of a package.
func (p *Package) NewBundles() *Bundles {
	return &Bundles{pkg: p, extra: map[string]*declcfg.Bundle{}}
}

// sourceWith is the package's bundle source with the options' bundles
// and puller.
func (p *Package) sourceWith(opts Options) *Bundles {
	src := p.NewBundles()
	for i := range opts.Bundles {
		src.Add(&opts.Bundles[i])
	}
	src.Pull = opts.Pull
	return src
}

// Add makes a bundle rendered elsewhere (from its directory) available
// by its image.
func (s *Bundles) Add(b *declcfg.Bundle) { s.extra[b.Image] = b }

// For is the bundle renderer of one catalog: it applies the catalog's
// migrations and prefers the catalog's own copy of a bundle.
func (s *Bundles) For(c *catalogrepo.Catalog) (template.BundleRenderer, error) {
	return s.forCatalog(c)
}

// forCatalog is For, as the renderer it is.
func (s *Bundles) forCatalog(c *catalogrepo.Catalog) (*catalogBundles, error) {
	ms, err := render.MigrationsFor(c.MigrateLevel())
	if err != nil {
		return nil, err
	}
	return &catalogBundles{src: s, cat: c, migrations: ms}, nil
}

// candidate is one copy of a bundle: where it is and whether it still
// has its objects (an unmigrated bundle).
type candidate struct {
	b       *declcfg.Bundle
	objects bool
}

// find lists the copies of the bundle with image ref: the released ones
// first, then the catalog's own, then the other catalogs' in the order of
// ci.yaml.
func (s *Bundles) find(ref string, own *catalogrepo.Catalog) []candidate {
	s.once.Do(s.index)
	var out []candidate
	add := func(b *declcfg.Bundle) {
		out = append(out, candidate{b: b, objects: hasProperty(b, declcfg.PropertyBundleObject)})
	}
	if b, ok := s.extra[ref]; ok {
		add(b)
	}
	for _, l := range s.byImage[ref] {
		if l.cat == own {
			add(l.b)
		}
	}
	for _, l := range s.byImage[ref] {
		if l.cat != own {
			add(l.b)
		}
	}
	return out
}

// index indexes the committed catalogs' bundles by image.
func (s *Bundles) index() {
	s.byImage = map[string][]located{}
	for _, c := range s.pkg.Catalogs {
		if c.Config == nil {
			continue
		}
		for i := range c.Config.Bundles {
			b := &c.Config.Bundles[i]
			s.byImage[b.Image] = append(s.byImage[b.Image], located{b, c})
		}
	}
}

// catalogBundles renders the bundles of one catalog's template.
type catalogBundles struct {
	src        *Bundles
	cat        *catalogrepo.Catalog
	migrations render.Migrations

	mu    sync.Mutex
	noCSV map[string]bool // bundles whose CSV was asked for and not found
}

// lacksCSV reports whether the CSV of the named bundle was asked for and
// could not be found.
func (cb *catalogBundles) lacksCSV(name string) bool {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	return cb.noCSV[name]
}

// csv finds the ClusterServiceVersion of the bundle of image ref, whose
// copies are cands: offline (see Bundles.csvOf), else from its image
// when pulling; it records a bundle whose CSV it cannot find.
func (cb *catalogBundles) csv(ctx context.Context, ref string, cands []candidate) []byte {
	csv := cb.src.csvOf(cands)
	if csv == nil && cb.src.Pull != nil {
		if b, err := cb.src.Pull.RenderBundle(ctx, ref); err == nil {
			csv = b.CSV
			if csv == nil && b.LoadCSV != nil {
				csv = b.LoadCSV()
			}
		}
	}
	if csv == nil && len(cands) > 0 {
		cb.mu.Lock()
		defer cb.mu.Unlock()
		if cb.noCSV == nil {
			cb.noCSV = map[string]bool{}
		}
		cb.noCSV[cands[0].b.Name] = true
	}
	return csv
}

// RenderBundle returns the bundle of image ref as rendering ref for this
// catalog gives it: a copy with its objects when the catalog keeps them,
// with the catalog's migrations applied, and the CSV the semver template
// describes the package with.
func (cb *catalogBundles) RenderBundle(ctx context.Context, ref string) (*template.Bundle, error) {
	cands := cb.src.find(ref, cb.cat)
	needObjects := len(cb.migrations) == 0
	var pick *candidate
	for i := range cands {
		if !needObjects || cands[i].objects {
			pick = &cands[i]
			break
		}
	}
	if pick == nil {
		if cb.src.Pull != nil {
			return cb.src.pull(ctx, ref, cb.migrations)
		}
		return nil, cb.missing(ref, len(cands) > 0)
	}
	b := *pick.b
	b.Properties = slices.Clone(pick.b.Properties)
	out := &template.Bundle{Bundle: b, LoadCSV: func() []byte { return cb.csv(ctx, ref, cands) }}
	if err := cb.migrations.Run(&out.Bundle); err != nil {
		return nil, fmt.Errorf("bundle %q: %w", b.Name, err)
	}
	return out, nil
}

// missing explains a bundle that rendering offline cannot find.
func (cb *catalogBundles) missing(ref string, migratedOnly bool) error {
	if migratedOnly {
		return needPull(fmt.Sprintf("%s keeps bundle objects, but every committed copy of %s has been migrated to olm.csv.metadata", cb.cat.Path, ref))
	}
	return needPull(fmt.Sprintf("no committed catalog of %s holds %s, and it is not the bundle being released", cb.src.pkg.Dir, ref))
}

// pull renders an image with the pulling renderer, then the catalog's
// migrations (the pulling renderer runs none).
func (s *Bundles) pull(ctx context.Context, ref string, ms render.Migrations) (*template.Bundle, error) {
	b, err := s.Pull.RenderBundle(ctx, ref)
	if err != nil {
		return nil, err
	}
	out := *b
	out.Properties = slices.Clone(b.Properties)
	if err := ms.Run(&out.Bundle); err != nil {
		return nil, err
	}
	return &out, nil
}

// csvOf finds the ClusterServiceVersion of a bundle: in a copy that has
// its objects, else in the bundle's directory in the operator directory.
func (s *Bundles) csvOf(cands []candidate) []byte {
	name := ""
	for _, c := range cands {
		name = c.b.Name
		if !c.objects {
			continue
		}
		if objects, err := c.b.Objects(); err == nil {
			if i := declcfg.CSVIndex(objects); i >= 0 {
				return objects[i]
			}
		}
	}
	if name == "" {
		return nil
	}
	return s.pkg.bundleDirs.csv(name)
}
