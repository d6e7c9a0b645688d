package author

import (
	"context"
	"sync"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/option"
)

// Repo is a catalog repository the verbs edit: operators/ and catalogs/
// under Root, as catalogrepo reads it (see Model).
type Repo struct {
	Root string
}

// Model is the repository as catalogrepo reads it: its operators, their
// templates and catalogs, its lookups and listings.
func (r *Repo) Model() *catalogrepo.Repo { return &catalogrepo.Repo{Root: r.Root} }

// FindRoot looks for the repository root from dir upwards (see
// catalogrepo.FindRoot).
func FindRoot(dir string) string { return catalogrepo.FindRoot(dir) }

// CheckRoot reports whether Root is a catalog repository: a directory
// with an operators/ directory. Every verb asks it first, so that a verb
// run outside a repository says so in one way (an option.Error naming
// Repo.Root)
// before it reads anything else.
func (r *Repo) CheckRoot() error { return needRoot(r.Model().CheckRoot()) }

// needRoot is err, but a directory that is no catalog repository
// (catalogrepo.NotRepositoryError) is what the verbs' caller fixes with
// Repo.Root: an option.Error that names it.
func needRoot(err error) error {
	if nr, ok := err.(*catalogrepo.NotRepositoryError); ok {
		return option.Lifting(nr.Error(), ": run from the root of the catalog repository or give %s", optionRoot)
	}
	return err
}

// Package is an operator directory the verbs edit: the catalogrepo
// Package read from disk (its ci.yaml, mapped templates and committed
// catalogs), with what editing it keeps.
type Package struct {
	*catalogrepo.Package

	bundleDirs bundleDirIndex
	encOnce    sync.Once
	enc        *encoder

	stylesMu sync.Mutex
	styles   map[*catalogrepo.Catalog]template.Options // how each committed catalog was rendered (see Match)
}

// Open reads an operator directory (see catalogrepo.Repo.Open): its
// ci.yaml, the templates it maps and their committed catalogs, loaded.
// It refuses a repository that a run of Plan.Apply left half-written
// (Recover finishes or undoes it).
func (r *Repo) Open(ctx context.Context, name string) (*Package, error) {
	p, err := r.Model().Open(ctx, name)
	if err != nil {
		return nil, needRoot(err)
	}
	return newPackage(p), nil
}

// OpenBundleDir opens the operator a bundle directory belongs to: the
// directory is given as a path relative to the working directory, or
// else to the root, and must be operators/<pkg>/<version>/ under the
// root.
func (r *Repo) OpenBundleDir(ctx context.Context, given string) (*Package, error) {
	_, pkg, err := r.Model().BundleDir(given)
	if err != nil {
		return nil, needRoot(err)
	}
	return r.Open(ctx, pkg)
}

// newPackage is the Package the verbs edit of one catalogrepo read.
func newPackage(p *catalogrepo.Package) *Package {
	out := &Package{Package: p, styles: map[*catalogrepo.Catalog]template.Options{}}
	out.bundleDirs.repo, out.bundleDirs.dir = p.Repo, p.Dir
	return out
}

// encoder is the package's catalog writer (see encoder).
func (p *Package) encoder() *encoder {
	p.encOnce.Do(func() { p.enc = newEncoder() })
	return p.enc
}

// style is how a committed catalog was rendered, as Match found it.
func (p *Package) style(c *catalogrepo.Catalog) template.Options {
	p.stylesMu.Lock()
	defer p.stylesMu.Unlock()
	return p.styles[c]
}

// setStyle records how a committed catalog was rendered.
func (p *Package) setStyle(c *catalogrepo.Catalog, style template.Options) {
	p.stylesMu.Lock()
	defer p.stylesMu.Unlock()
	p.styles[c] = style
}
