package lint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fbcat/opm/lint/layout"
	"github.com/fbcat/opm/render"
)

// The walk over the paths: each path is linted by what it is (an image,
// a bundle directory, an operator directory, the operators/ directory, a
// catalogs directory of OpenShift catalogs or a catalog directory), down
// to the two units the rules run on: a bundle (the bundle rules) and a
// catalog (the package rules, package by package). Paths are read
// through the run's view (see view.go).

// lintPath lints one path, by what it is.
func (l *linter) lintPath(ctx context.Context, p string) error {
	r := l.view.real(p)
	what := render.Classify(r)
	switch {
	case what.Kind == render.RefImage && l.images != nil:
		return l.lintImage(ctx, p)
	case what.Kind == render.RefImage:
		return what.PathErr
	case what.Kind == render.RefMissing:
		return what.Err()
	case what.Kind == render.RefFile:
		return fmt.Errorf("%s is a file: lint takes catalog, bundle and operator directories and image references", p)
	case what.Kind == render.RefBundleDir:
		b, err := l.view.readBundleDir(p)
		if err != nil {
			return err
		}
		l.add(l.bundleFindings(b, false, nil))
		return nil
	case layout.IsOperatorDir(r):
		return l.lintOperatorDir(ctx, p)
	case layout.IsCatalogsRoot(r):
		return l.lintCatalogsRoot(ctx, p)
	case hasCIConfig(r):
		return operatorDirOutside(p, r)
	}
	if dirs := layout.OperatorDirsIn(r); len(dirs) > 0 {
		for _, d := range dirs {
			if err := l.lintOperatorDir(ctx, filepath.Join(p, filepath.Base(d))); err != nil {
				return err
			}
		}
		return nil
	}
	if err := render.BundleWithoutMetadata(r); err != nil {
		return err
	}
	v, ok := layout.CatalogVersionOf(p)
	return l.lintCatalogDir(ctx, os.DirFS(r), p, versionIf(v, ok))
}

// lintImage lints an image: a catalog image as a catalog, a bundle image
// as a bundle (its files, annotations included, extracted while it is
// linted; positions name the image).
func (l *linter) lintImage(ctx context.Context, ref string) error {
	err := l.images.OpenCatalog(ctx, ref, func(fsys fs.FS, name string) error {
		return l.lintCatalogDir(ctx, fsys, name, nil)
	})
	if !errors.Is(err, render.ErrNotAllowed) {
		return err
	}
	return l.images.OpenBundle(ctx, ref, func(dir string) error {
		b, err := readBundleFS(os.DirFS(dir), ref)
		if err != nil {
			return err
		}
		l.add(l.bundleFindings(b, false, nil))
		return nil
	})
}

// lintCatalogsRoot lints each OpenShift catalog (v4.N) of a catalogs
// directory as the catalog of that version.
func (l *linter) lintCatalogsRoot(ctx context.Context, dir string) error {
	names, err := l.view.catalogsIn(dir)
	if err != nil {
		return err
	}
	for _, n := range names {
		v, ok := layout.CatalogVersion(n)
		if !ok {
			continue
		}
		sub := filepath.Join(dir, n)
		if err := l.lintCatalogDir(ctx, os.DirFS(l.view.real(sub)), sub, &v); err != nil {
			return err
		}
	}
	return nil
}
