package lint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/render"
)

// bundleCheck is a bundle linted on its own: a bundle directory or a
// bundle image.
type bundleCheck struct {
	b *bundle
	// previous is the bundle it upgrades from (--previous), if given.
	previous *bundle
	opts     *Options
	pairs    *crdPairs
}

// catalog is a loaded catalog.
type catalog struct {
	// name is the catalog directory or image, for findings about the
	// catalog as a whole.
	name string
	// ocp is the OpenShift version of a catalog in catalogs/v4.x/, nil
	// for any.
	ocp   *ocp
	model *model.Catalog
	// dirs are the bundle directories of the operator directory the
	// catalog is mapped from, by CSV name (nil for a catalog on its own).
	dirs map[string]*bundle
	// base is the baseline catalog, nil without one.
	base *model.Catalog
}

// packageCheck is one package of a catalog.
type packageCheck struct {
	cat     *catalog
	pkg     *model.Package
	opts    *Options
	bundles map[string]*bundle
	pairs   *crdPairs
}

// bundle returns the catalog's bundle of that name, its objects decoded,
// or nil if the package has none.
func (c *packageCheck) bundle(name string) *bundle {
	if b, ok := c.bundles[name]; ok {
		return b
	}
	var b *bundle
	if mb := c.pkg.Bundles[name]; mb != nil && mb.Decl != nil {
		b = catalogBundle(mb.Decl)
		_ = b.load() // a bundle whose objects cannot be read is checked without them
	}
	c.bundles[name] = b
	return b
}

// source returns what is known of a bundle: its directory in the
// operator directory when there is one (with its annotations, and
// positions in its manifests), else the catalog's bundle.
func (c *packageCheck) source(name string) *bundle {
	if d := c.cat.dirs[name]; d != nil {
		return d
	}
	return c.bundle(name)
}

// lintBundle runs the bundle rules on a bundle.
func (l *linter) lintBundle(b *bundle) {
	l.add(l.bundleFindings(b))
}

// lintCatalogDir loads a catalog directory (or an extracted image's) and
// lints it. root is the catalogs directory it is a version of (see
// lintCatalogsRoot), "" for a catalog on its own.
func (l *linter) lintCatalogDir(ctx context.Context, fsys fs.FS, name string, v *ocp, root string) error {
	cfg, err := declcfg.LoadFS(ctx, fsys, declcfg.WithRootName(name))
	if err != nil {
		return notLoaded(name, err)
	}
	if len(cfg.Packages)+len(cfg.Bundles) == 0 {
		return fmt.Errorf("%s holds no catalog objects: check the path", name)
	}
	cat := &catalog{name: name, ocp: v}
	if cat.model, err = indexCatalog(name, cfg); err != nil {
		return err
	}
	if l.baseline != nil {
		if root != "" {
			cat.base, err = l.baseline.repoCatalogFor(ctx, root, filepath.Base(name))
		} else {
			cat.base, err = l.baseline.catalogFor(ctx, name)
		}
		if err != nil {
			return err
		}
	}
	return l.lintCatalog(ctx, cat)
}

// indexCatalog indexes a loaded catalog. Objects the index leaves out (of
// a package that is not defined, or defined twice) would go unlinted, so
// such a catalog is refused as one that does not load is.
func indexCatalog(name string, cfg *declcfg.DeclarativeConfig) (*model.Catalog, error) {
	m, problems := model.New(cfg, model.Options{})
	if len(problems) > 0 {
		return nil, fmt.Errorf("catalog %s is inconsistent (%d problems, the first: %v): run opm validate %s and fix it first", name, len(problems), problems[0], name)
	}
	return m, nil
}

// isCatalogsRoot reports whether dir is a directory of OpenShift
// catalogs (catalogs/ of a catalog repository): it holds directories
// named v4.N and no files but hidden ones.
func isCatalogsRoot(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	found := false
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Name(), "."):
		case !e.IsDir():
			return false
		case ocpOfName(e.Name()) != nil:
			found = true
		}
	}
	return found
}

// lintCatalogsRoot lints each OpenShift catalog (v4.N) of a catalogs
// directory as the catalog of that version.
func (l *linter) lintCatalogsRoot(ctx context.Context, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		v := ocpOfName(e.Name())
		if v == nil || !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if err := l.lintCatalogDir(ctx, os.DirFS(sub), sub, v, dir); err != nil {
			return err
		}
	}
	return nil
}

// notLoaded explains a catalog that does not load.
func notLoaded(name string, err error) error {
	var list declcfg.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return fmt.Errorf("catalog %s does not load (%d problems, the first: %v): run opm validate %s and fix it first", name, len(list), list[0], name)
	}
	return fmt.Errorf("catalog %s: %w", name, err)
}

// lintCatalog runs the package rules on every package of a catalog, a few
// packages at a time. When ctx is done it returns the context's error,
// and adds no findings.
func (l *linter) lintCatalog(ctx context.Context, cat *catalog) error {
	names := cat.model.PackageNames()
	out := make([][]Finding, len(names))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, name := range names {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			c := &packageCheck{cat: cat, pkg: cat.model.Packages[name], opts: &l.opts, bundles: map[string]*bundle{}, pairs: &l.crdPairs}
			for _, r := range l.rules {
				if r.pkg != nil {
					out[i] = append(out[i], r.pkg(c)...)
				}
			}
			return nil
		})
	}
	_ = g.Wait() // the goroutines return no error
	if err := ctx.Err(); err != nil {
		return err // some packages may not have been checked
	}
	for _, fs := range out {
		l.add(fs)
	}
	if l.enabled(ruleStranded) {
		l.add(strandedPackagesGone(cat, cat.name))
	}
	return nil
}

// lintImage lints an image: a catalog image as a catalog, a bundle image
// as a bundle (its files, annotations included, extracted while it is
// linted; positions name the image).
func (l *linter) lintImage(ctx context.Context, ref string) error {
	err := l.opts.Images.OpenCatalog(ctx, ref, func(fsys fs.FS, name string) error {
		return l.lintCatalogDir(ctx, fsys, name, nil, "")
	})
	if !errors.Is(err, render.ErrNotAllowed) {
		return err
	}
	return l.opts.Images.OpenBundle(ctx, ref, func(dir string) error {
		b, err := readBundleFS(os.DirFS(dir), ref)
		if err != nil {
			return err
		}
		l.lintBundle(b)
		return nil
	})
}

// lintOperatorDir lints an operator directory: its bundle directories,
// and the catalogs its ci.yaml maps, knowing each bundle's directory.
func (l *linter) lintOperatorDir(ctx context.Context, dir string) error {
	root := filepath.Join(dir, "..", "..")
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	p, err := (&author.Repo{Root: root}).Open(ctx, filepath.Base(abs))
	if errors.Is(err, author.ErrNotFBC) {
		// bundle directories only: its catalogs are not file-based
		l.notes = append(l.notes, fmt.Sprintf("%s: its catalogs are not linted: %v", dir, err))
		p, err = &author.Package{}, nil
	}
	if err != nil {
		return err
	}
	dirs, err := l.lintBundleDirs(ctx, dir)
	if err != nil {
		return err
	}
	byName := map[string]*bundle{}
	for _, b := range dirs {
		byName[b.name] = b
	}
	if l.enabled(ruleCRDUpgrade) {
		l.add(crdUpgradeDirs(dirs, &l.crdPairs))
	}
	for _, c := range p.Catalogs {
		if c.Config == nil {
			l.notes = append(l.notes, fmt.Sprintf("%s: not linted: ci.yaml maps it but it does not exist", filepath.Join(root, c.Path)))
			continue
		}
		cat := &catalog{name: filepath.Join(root, c.Path), ocp: ocpOfName(c.Name), dirs: byName}
		prefixPositions(c.Config, root)
		if cat.model, err = indexCatalog(cat.name, c.Config); err != nil {
			return err
		}
		if l.baseline != nil {
			if cat.base, err = l.baseline.repoCatalogFor(ctx, root, filepath.Dir(c.Path)); err != nil {
				return err
			}
		}
		if err := l.lintCatalog(ctx, cat); err != nil {
			return err
		}
		c.Config = nil // linted: let it go
	}
	return nil
}

// prefixPositions makes the positions of a catalog loaded relative to a
// repository root relative to the working directory.
func prefixPositions(cfg *declcfg.DeclarativeConfig, root string) {
	if filepath.Clean(root) == "." {
		return
	}
	fix := func(p *declcfg.Pos) { p.File = filepath.ToSlash(filepath.Join(root, p.File)) }
	for i := range cfg.Packages {
		fix(&cfg.Packages[i].Pos)
	}
	for i := range cfg.Channels {
		fix(&cfg.Channels[i].Pos)
	}
	for i := range cfg.Bundles {
		fix(&cfg.Bundles[i].Pos)
	}
	for i := range cfg.Deprecations {
		fix(&cfg.Deprecations[i].Pos)
	}
}
