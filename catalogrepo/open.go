package catalogrepo

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sync"

	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/catalogrepo/stage"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/validate"
)

// Package is one operator directory, its ci.yaml, its mapped templates
// and catalogs, read from disk.
type Package struct {
	Repo *Repo
	Name string // the operator directory's name
	Dir  string // operators/<name>, relative to the root
	CI   *repoconfig.CIConfig
	// Templates in ci.yaml's order.
	Templates []*Template
	// Catalogs in ci.yaml's order.
	Catalogs []*Catalog

	poolOnce sync.Once
	pool     *validate.SchemaPool
}

// SchemaPool keeps the compiled schemas of the package's validations:
// each catalog is validated as committed and again as rendered, and
// compiling the schemas costs more than checking what changed.
func (p *Package) SchemaPool() *validate.SchemaPool {
	p.poolOnce.Do(func() { p.pool = validate.NewSchemaPool() })
	return p.pool
}

// Open reads an operator directory: its ci.yaml, the templates it maps
// and their committed catalogs, loaded. It refuses, with a
// *stage.InterruptedError naming the run's staging directory, a
// repository that a write (stage.Write) left half-written (killed while
// moving its files into place or putting them back; stage.Recover
// finishes or undoes it), and one that another process is writing when
// Open starts or ends, so that no caller reads a mix of old and new files
// silently. It never writes: readers such as lint leave recovery to the
// catalog verbs.
func (r *Repo) Open(ctx context.Context, name string) (*Package, error) {
	if err := r.CheckRoot(); err != nil {
		return nil, err
	}
	if err := stage.Check(r.Root); err != nil {
		return nil, err
	}
	p, err := r.OpenTemplates(name)
	if err != nil {
		return nil, err
	}
	if err := p.loadCatalogs(ctx); err != nil {
		return nil, err
	}
	if err := stage.Check(r.Root); err != nil {
		return nil, err // a run committed while the catalogs were read
	}
	return p, nil
}

// OpenTemplates reads an operator directory's ci.yaml and the templates it
// maps, and finds their catalogs without reading them: what listing the
// names of an operator needs (a Package that Open has not loaded).
func (r *Repo) OpenTemplates(name string) (*Package, error) {
	if err := CheckOperatorName(name); err != nil {
		return nil, err
	}
	p := &Package{Repo: r, Name: name, Dir: path.Join("operators", name)}
	ciFile := path.Join(p.Dir, "ci.yaml")
	data, err := os.ReadFile(r.Path(ciFile))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, r.noOperator(name)
		}
		return nil, err
	}
	if p.CI, err = repoconfig.ParseCIConfig(ciFile, data); err != nil {
		return nil, err
	}
	for _, m := range p.CI.Mappings {
		t := &Template{Mapping: m, Path: path.Join(p.Dir, "catalog-templates", m.TemplateFile)}
		if t.Data, err = r.readOptional(t.Path); err != nil {
			return nil, err
		}
		for _, c := range m.Catalogs {
			cat := &Catalog{Name: c, Template: t}
			if err := r.findCatalog(cat, name); err != nil {
				return nil, err
			}
			t.Catalogs = append(t.Catalogs, cat)
			p.Catalogs = append(p.Catalogs, cat)
		}
		p.Templates = append(p.Templates, t)
	}
	return p, nil
}

// findCatalog finds a catalog's committed catalog.yaml, or its
// catalog.json when only that exists (new catalogs are YAML, as the
// community pipeline writes them); loadCatalogs reads it.
func (r *Repo) findCatalog(c *Catalog, pkg string) error {
	dir := path.Join("catalogs", c.Name, pkg)
	c.Path, c.Format = path.Join(dir, "catalog.yaml"), declcfg.FormatYAML
	exists, err := r.exists(c.Path)
	if !exists && err == nil {
		json := path.Join(dir, "catalog.json")
		if exists, err = r.exists(json); exists {
			c.Path, c.Format = json, declcfg.FormatJSON
		}
	}
	c.exists, c.file = exists, r.Path(c.Path)
	return err
}

// loadCatalogs reads and loads the committed catalogs, a few at a time
// (no more than run at once: each holds its catalog's text), and lets
// their texts go: only the decoded objects stay. Every catalog's error is
// reported, in catalog order.
func (p *Package) loadCatalogs(ctx context.Context) error {
	var committed []*Catalog
	for _, c := range p.Catalogs {
		if c.exists {
			committed = append(committed, c)
		}
	}
	docs := declcfg.NewDocumentCache()
	return parallel.DoAll(ctx, len(committed), min(4, runtime.GOMAXPROCS(0)), func(i int) error {
		c := committed[i]
		data, err := os.ReadFile(c.file)
		if err != nil {
			return err
		}
		return c.load(ctx, data, docs, p.SchemaPool())
	})
}
