package lint

import (
	"github.com/fbcat/opm/lint/change"

	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/registryv1/openshift"
	"github.com/fbcat/opm/validate"
)

// lintCatalogDir loads a catalog directory (or an extracted image's) and
// lints it; v is its OpenShift version, if any.
func (l *linter) lintCatalogDir(ctx context.Context, fsys fs.FS, name string, v *openshift.Version) error {
	fs, err := l.view.catalogFindings(name, func() ([]finding.Finding, error) {
		cat, err := l.loadCatalog(ctx, fsys, name, v)
		if err != nil {
			return nil, err
		}
		return l.lintCatalog(ctx, cat)
	})
	if err != nil {
		return err
	}
	l.add(fs)
	return nil
}

// loadCatalog loads (and validates) a catalog directory, and the
// baseline's copy of it when there is one.
func (l *linter) loadCatalog(ctx context.Context, fsys fs.FS, name string, v *openshift.Version) (*catalog, error) {
	res, err := validate.Validate(ctx, fsys, validate.Options{RootName: name, KeepConfig: true, KeepBulk: true})
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", name, err)
	}
	if res.Config == nil || !res.GraphChecked {
		return nil, notLoaded(name, res.Problems)
	}
	cfg := res.Config
	if len(cfg.Packages)+len(cfg.Bundles) == 0 {
		return nil, fmt.Errorf("%s holds no catalog objects: check the path", name)
	}
	cat := &catalog{name: name, ocp: v, problems: res.Problems}
	if v != nil {
		cat.label = "v" + v.String()
	}
	if cat.model, err = indexCatalog(name, cfg); err != nil {
		return nil, err
	}
	switch {
	case l.compareTo == nil:
	case l.compareTo.Unchanged(name):
		cat.base = cat.model // the baseline's copy may leave it out
	default:
		if cat.base, err = l.baselineCatalog(ctx, name); err != nil {
			return nil, err
		}
	}
	return cat, nil
}

// baselineCatalog is the baseline of the catalog directory dir (a path of
// the work tree), its graph only; nil when the baseline has no such
// directory (a new catalog).
func (l *linter) baselineCatalog(ctx context.Context, dir string) (*model.Catalog, error) {
	bl := l.compareTo
	if err := bl.Ready(); err != nil {
		return nil, baselineError(err)
	}
	if !bl.Holds(dir) {
		return nil, nil
	}
	name := bl.CatalogName(dir)
	cfg, err := declcfg.LoadFS(ctx, os.DirFS(bl.Real(dir)), declcfg.WithRootName(name), declcfg.WithoutBulkValues())
	if err != nil {
		return nil, option.Errorf(option.Invalid, "%s: %w", optionBaseline, notLoaded(name, err))
	}
	m, err := indexCatalog(name, cfg)
	if err != nil {
		return nil, option.Errorf(option.Invalid, "%s: %w", optionBaseline, err)
	}
	return m, nil
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
// packages at a time, then the rules of the catalog as a whole. When ctx
// is done it returns the context's error, and no findings.
func (l *linter) lintCatalog(ctx context.Context, cat *catalog) ([]finding.Finding, error) {
	names := cat.model.PackageNames()
	found := make([][]finding.Finding, len(names))
	err := parallel.Do(ctx, len(names), 0, func(i int) error {
		found[i] = l.packageFindings(cat, names[i])
		return nil
	})
	if err == nil {
		err = ctx.Err() // cancelled while the last packages were checked
	}
	if err != nil {
		return nil, err
	}
	var out []finding.Finding
	for _, fs := range found {
		out = append(out, fs...)
	}
	if l.enabled(ruleStranded) {
		out = append(out, strandedPackagesGone(cat, cat.name)...)
	}
	if l.enabled(ruleCatalogInvalid) {
		out = append(out, invalidFindings(cat)...)
	}
	if cat.label != "" {
		in := []string{cat.label}
		for i := range out {
			out[i].Catalogs = in
		}
	}
	l.recordChanges(cat)
	return out, nil
}

// versionIf is v when ok, else nil.
func versionIf(v openshift.Version, ok bool) *openshift.Version {
	if !ok {
		return nil
	}
	return &v
}

// recordChanges keeps what the change did to a catalog, when linting
// against a baseline and the catalog changed.
func (l *linter) recordChanges(cat *catalog) {
	if l.compareTo == nil {
		return
	}
	if _, err := os.Stat(cat.name); cat.base == nil && err != nil {
		return // an image: it has no history to compare with
	}
	pkgs := change.Packages(cat.base, cat.model)
	if len(pkgs) == 0 {
		return
	}
	c := change.Catalog{Catalog: catalogDisplayName(cat.name), New: cat.base == nil, Packages: pkgs}
	if cat.ocp != nil {
		c.OpenShift = "v" + cat.ocp.String()
	}
	l.changes = append(l.changes, c)
}

// catalogDisplayName names a catalog by its directory: an operator
// directory's catalogs are loaded from their catalog file.
func catalogDisplayName(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		name = filepath.Dir(name)
	}
	return filepath.ToSlash(name)
}
