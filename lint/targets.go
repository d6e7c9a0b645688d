package lint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/validate"
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
	// problems are what opm validate finds wrong with the catalog.
	problems declcfg.ErrorList
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

// lintBundle runs the bundle rules on a bundle. In the run over the
// baseline, a bundle directory the change left alone has the findings the
// run over the change found in it (see memo).
func (l *linter) lintBundle(b *bundle) {
	l.add(l.memoFindings(b))
}

// memoFindings are the findings of the bundle rules in b: in the run
// over the baseline, for a bundle directory the change left alone, those
// the run over the change found (see memo).
func (l *linter) memoFindings(b *bundle) []Finding {
	if fs, ok := l.reuse.findings(b); ok {
		return fs
	}
	out := l.bundleFindings(b)
	l.memo.record(b, out)
	return out
}

// readBundleDir reads the bundle directory dir (where l.real says), its
// positions naming dir; in the run over the baseline, a directory the
// change left alone is the one the run over the change read.
func (l *linter) readBundleDir(dir string) (*bundle, error) {
	if b := l.reuse.bundle(dir); b != nil {
		return b, nil
	}
	b, err := readBundleFS(os.DirFS(l.real(dir)), dir)
	if err != nil {
		return nil, err
	}
	l.memo.keep(b)
	return b, nil
}

// lintCatalogDir loads a catalog directory (or an extracted image's) and
// lints it; v is its OpenShift version, if any. In the run over the
// baseline, a catalog the change left alone has the findings the run over
// the change found in it.
func (l *linter) lintCatalogDir(ctx context.Context, fsys fs.FS, name string, v *ocp) error {
	if fs, ok := l.reuse.catalog(name); ok {
		l.add(fs)
		return nil
	}
	before := len(l.findings)
	if err := l.loadAndLintCatalog(ctx, fsys, name, v); err != nil {
		return err
	}
	l.memo.recordCatalog(name, l.findings[before:])
	return nil
}

// loadAndLintCatalog loads (and validates) a catalog directory and lints
// it.
func (l *linter) loadAndLintCatalog(ctx context.Context, fsys fs.FS, name string, v *ocp) error {
	res, err := validate.Validate(ctx, fsys, validate.Options{RootName: name, KeepConfig: true, KeepBulk: true})
	if err != nil {
		return fmt.Errorf("catalog %s: %w", name, err)
	}
	if res.Config == nil || !res.GraphChecked {
		return notLoaded(name, res.Problems)
	}
	cfg := res.Config
	if len(cfg.Packages)+len(cfg.Bundles) == 0 {
		return fmt.Errorf("%s holds no catalog objects: check the path", name)
	}
	cat := &catalog{name: name, ocp: v, problems: res.Problems}
	if cat.model, err = indexCatalog(name, cfg); err != nil {
		return err
	}
	switch {
	case l.baseline == nil:
	case l.baseline.unchanged(name):
		cat.base = cat.model // the baseline's copy may leave it out
	default:
		if cat.base, err = l.baseline.catalog(ctx, name); err != nil {
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
	names, err := l.subdirs(dir, l.reuse.catalogsIn(dir))
	if err != nil {
		return err
	}
	for _, n := range names {
		v := ocpOfName(n)
		if v == nil {
			continue
		}
		sub := filepath.Join(dir, n)
		if err := l.lintCatalogDir(ctx, os.DirFS(l.real(sub)), sub, v); err != nil {
			return err
		}
	}
	return nil
}

// notLoaded explains a catalog that does not load.
func notLoaded(name string, err error) error {
	var list declcfg.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		// only documents that could not be read stop the catalog loading
		first := list[0]
		for _, p := range list {
			if p.Schema == "" {
				first = p
				break
			}
		}
		return fmt.Errorf("catalog %s does not load (%d problems, the first: %v): run opm validate %s and fix it first", name, len(list), first, name)
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
	if l.enabled(ruleCatalogInvalid) {
		l.add(invalidFindings(cat))
	}
	l.recordChanges(cat)
	return nil
}

// lintImage lints an image: a catalog image as a catalog, a bundle image
// as a bundle (its files, annotations included, extracted while it is
// linted; positions name the image).
func (l *linter) lintImage(ctx context.Context, ref string) error {
	err := l.opts.Images.OpenCatalog(ctx, ref, func(fsys fs.FS, name string) error {
		return l.lintCatalogDir(ctx, fsys, name, nil)
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
	p, err := (&author.Repo{Root: l.real(root)}).Open(ctx, filepath.Base(abs))
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
		if err := l.lintMappedCatalog(ctx, root, c, byName); err != nil {
			return err
		}
		c.Config = nil // linted: let it go
	}
	return nil
}

// lintMappedCatalog lints a catalog an operator directory's ci.yaml maps,
// knowing the bundle directories by CSV name.
func (l *linter) lintMappedCatalog(ctx context.Context, root string, c *author.Catalog, byName map[string]*bundle) error {
	if c.Config == nil {
		l.notes = append(l.notes, fmt.Sprintf("%s: not linted: ci.yaml maps it but it does not exist", filepath.Join(root, c.Path)))
		return nil
	}
	cat := &catalog{name: filepath.Join(root, c.Path), ocp: ocpOfName(c.Name), dirs: byName, problems: c.Problems}
	prefixPositions(c.Config, root)
	prefixProblems(cat.problems, root)
	var err error
	if cat.model, err = indexCatalog(cat.name, c.Config); err != nil {
		return err
	}
	if l.baseline != nil {
		if cat.base, err = l.baseline.catalog(ctx, filepath.Join(root, filepath.Dir(c.Path))); err != nil {
			return err
		}
	}
	return l.lintCatalog(ctx, cat)
}

// bundleDirsIn lists the bundle directories of an operator directory
// (and, in the run over the baseline, those the change left alone, which
// the baseline's copy may leave out), sorted.
func (l *linter) bundleDirsIn(dir string) ([]string, error) {
	names, err := l.subdirs(dir, l.reuse.dirsIn(dir))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range names {
		if d := filepath.Join(dir, name); l.reuse.bundle(d) != nil || render.IsBundleDir(l.real(d)) {
			out = append(out, d)
		}
	}
	return out, nil
}

// subdirs lists, sorted, the names of the directories in dir (where
// l.real says) and kept: those of dir the run over the baseline reuses,
// which the baseline's copy may leave out.
func (l *linter) subdirs(dir string, kept []string) ([]string, error) {
	entries, err := os.ReadDir(l.real(dir))
	if err != nil {
		return nil, err
	}
	names := kept
	for _, e := range entries {
		if e.IsDir() && !slices.Contains(kept, e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
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
