package lint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/lint/layout"
	"github.com/fbcat/opm/registryv1/openshift"
)

// hasCIConfig reports whether dir has a ci.yaml, the file of an operator
// directory.
func hasCIConfig(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "ci.yaml"))
	return err == nil && !st.IsDir()
}

// operatorDirOutside is the error of a directory p (read at real) that
// has a ci.yaml but is not operators/<pkg>/ of a catalog repository:
// lint finds an operator's catalogs through its repository, and the
// directory is no catalog either. Outside a repository it says so as the
// catalog verbs do (catalogrepo.NotRepositoryError).
func operatorDirOutside(p, real string) error {
	abs, err := filepath.Abs(real)
	if err != nil {
		return err
	}
	root := filepath.Dir(filepath.Dir(abs))
	if err := (&catalogrepo.Repo{Root: root}).CheckRoot(); err != nil {
		var nr *catalogrepo.NotRepositoryError
		if !errors.As(err, &nr) {
			return err
		}
		return fmt.Errorf("%s has a ci.yaml, but an operator directory is operators/<pkg>/ of a catalog repository, and %v: lint the operator where it is in its repository", p, nr)
	}
	return fmt.Errorf("%s has a ci.yaml, but an operator directory is operators/<pkg>/ of a catalog repository: move it to %s, or lint the operator there", p, filepath.Join(root, "operators", filepath.Base(abs)))
}

// lintOperatorDir lints an operator directory: its bundle directories,
// and the catalogs its ci.yaml maps, knowing each bundle's directory;
// with the pipeline's rules, the operator as the pipeline checks it.
func (l *linter) lintOperatorDir(ctx context.Context, dir string) error {
	root := filepath.Join(dir, "..", "..")
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	var oc *operatorCheck
	if l.operatorRulesOn() {
		oc = l.readOperator(dir, root, filepath.Base(abs))
	}
	p, err := (&catalogrepo.Repo{Root: l.view.real(root)}).Open(ctx, filepath.Base(abs))
	var cfgErr *repoconfig.Problem
	switch {
	case errors.Is(err, repoconfig.ErrNotFBC):
		// bundle directories only: its catalogs are not file-based
		l.notes = append(l.notes, fmt.Sprintf("%s: its catalogs are not linted: %v", dir, err))
		p, err = &catalogrepo.Package{}, nil
	case errors.As(err, &cfgErr) && oc.explains(l):
		// the pipeline's checks of ci.yaml say what is wrong with it
		l.notes = append(l.notes, fmt.Sprintf("%s: its catalogs are not linted: %v", dir, err))
		p, err = &catalogrepo.Package{}, nil
	}
	if err != nil {
		return err
	}
	hist := l.historyOf(p)
	start := len(l.findings)
	dirs, err := l.lintBundleDirs(ctx, dir, hist)
	if err != nil {
		return err
	}
	byName := map[string]*bundle{}
	for _, b := range dirs {
		byName[b.name] = b
	}
	if l.enabled(ruleCRDUpgrade) {
		fs, err := crdUpgradeDirs(ctx, hist.upgradable(dirs), hist.isNews, l.leftAlone, &l.pairs)
		if err != nil {
			return err
		}
		l.add(fs)
		l.add(l.changedCRDs(dirs))
	}
	if oc != nil {
		oc.setBundles(dirs, p)
		l.add(l.operatorFindings(oc, dirs, hist))
	}
	hist.mark(l.findings[start:], byName, false)
	start = len(l.findings)
	defer func() { hist.mark(l.findings[start:], byName, true) }()
	released, lines := releasedIn(p.Catalogs), templateLines(p.Catalogs)
	found := make([]catalogFindings, 0, len(p.Catalogs))
	placers := make([]*placer, 0, len(p.Catalogs))
	for _, c := range p.Catalogs {
		fs, err := l.lintMappedCatalog(ctx, root, c, byName, released, oc, l.installOnly(hist))
		if err != nil {
			return err
		}
		found, placers = append(found, fs), append(placers, newPlacer(root, c, lines[c.Template]))
		c.Config = nil // linted: let it go
	}
	l.add(mergeCatalogs(found, placers))
	return nil
}

// lintMappedCatalog lints a catalog an operator directory's ci.yaml maps,
// knowing the bundle directories by CSV name and the OpenShift versions
// of the mapped catalogs each bundle is in; with the pipeline's rules (oc
// not nil), the catalog as the pipeline checks it too.
func (l *linter) lintMappedCatalog(ctx context.Context, root string, c *catalogrepo.Catalog, byName map[string]*bundle, released map[string][]openshift.Version, oc *operatorCheck, installOnly bool) (catalogFindings, error) {
	if c.Config == nil {
		l.notes = append(l.notes, fmt.Sprintf("%s: not linted: ci.yaml maps it but it does not exist", filepath.Join(root, c.Path)))
		return catalogFindings{}, nil
	}
	v, ok := layout.CatalogVersion(c.Name)
	cat := &catalog{name: filepath.Join(root, c.Path), label: c.Name, ocp: versionIf(v, ok), dirs: byName, released: released, problems: c.Problems, installOnly: installOnly}
	prefixPositions(c.Config, root)
	prefixProblems(cat.problems, root)
	var err error
	if cat.model, err = indexCatalog(cat.name, c.Config); err != nil {
		return catalogFindings{}, err
	}
	if l.compareTo != nil {
		if cat.base, err = l.baselineCatalog(ctx, filepath.Join(root, filepath.Dir(c.Path))); err != nil {
			return catalogFindings{}, err
		}
	}
	fs, err := l.lintCatalog(ctx, cat)
	if err != nil {
		return catalogFindings{}, err
	}
	return catalogFindings{placed: fs, kept: l.mappedFindings(oc, cat)}, nil
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

// prefixProblems makes the positions of problems found relative to a
// repository root relative to the working directory.
func prefixProblems(list declcfg.ErrorList, root string) {
	if filepath.Clean(root) == "." {
		return
	}
	for _, p := range list {
		if p.File != "" {
			p.File = filepath.ToSlash(filepath.Join(root, p.File))
		}
	}
}
