package author

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/author/repoconfig"
	"github.com/fbcat/opm/author/stage"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/internal/suggest"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/registryv1/openshift"
	"github.com/fbcat/opm/validate"
)

// Repo is a catalog repository: operators/ and catalogs/ under Root.
type Repo struct {
	Root string
}

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

	bundleDirs bundleDirIndex
	encOnce    sync.Once
	enc        *encoder
	poolOnce   sync.Once
	pool       *validate.SchemaPool
}

// encoder is the package's catalog writer (see encoder).
func (p *Package) encoder() *encoder {
	p.encOnce.Do(func() { p.enc = newEncoder() })
	return p.enc
}

// schemaPool keeps the compiled schemas of the package's validations:
// each catalog is validated as committed and again as rendered, and
// compiling the schemas costs more than checking what changed.
func (p *Package) schemaPool() *validate.SchemaPool {
	p.poolOnce.Do(func() { p.pool = validate.NewSchemaPool() })
	return p.pool
}

// Template is one mapped catalog template.
type Template struct {
	repoconfig.Mapping
	Path     string // relative to the root
	Data     []byte // nil when the file does not exist
	Catalogs []*Catalog
}

// Kind is the template's format.
func (t *Template) Kind() template.Kind { return t.Mapping.Kind() }

// Catalog is one catalog rendered from a template.
type Catalog struct {
	Name   string         // such as v4.17
	Path   string         // catalogs/<name>/<pkg>/catalog.yaml (or .json), relative to the root
	Format declcfg.Format // YAML, or JSON for a committed catalog.json
	// The committed text is not kept: Open reads it, loads it and lets it
	// go (a plan reads it again when it needs it).
	Template *Template
	Config   *declcfg.DeclarativeConfig // the committed catalog, loaded; nil when missing
	// Problems are what validation finds wrong with the committed catalog
	// (positions relative to the root); nil when it is valid.
	Problems declcfg.ErrorList

	dialect template.Options // how the committed catalog was rendered (see Package.Match)
	valid   bool             // the committed catalog passes validation
	exists  bool             // the catalog is committed
	file    string           // its path on disk
	sum     string           // the committed text's digest
	textSum string           // ... with "\r\n" read as "\n" (see Expanded.sameText)
	textLen int              // the length of that text
}

// MigrateLevel is the --migrate-level its catalog is rendered with: the
// community pipeline renders catalogs of OpenShift 4.17 and later with
// bundle-object-to-csv-metadata, older ones without migrations. The
// catalog's name is its OpenShift version, with or without the v.
func (c *Catalog) MigrateLevel() string {
	v, _, err := openshift.ParseVersion(c.Name)
	if err == nil && !v.Less(openshift.Version{Major: 4, Minor: 17}) {
		return "bundle-object-to-csv-metadata"
	}
	return ""
}

// path joins a root-relative slash path to the root.
func (r *Repo) path(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

// readOptional reads a file, returning nil without error when it does not
// exist.
func (r *Repo) readOptional(rel string) ([]byte, error) {
	data, err := os.ReadFile(r.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// Packages lists, sorted, the operator directories maintained as
// file-based catalogs: those whose ci.yaml has fbc.enabled: true (or
// cannot be read, so that opening them says why).
func (r *Repo) Packages() ([]string, error) {
	if err := r.CheckRoot(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(r.path("operators"))
	if err != nil {
		return nil, fmt.Errorf("listing the operators of %s: %w", r.Root, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		file := path.Join("operators", e.Name(), "ci.yaml")
		data, err := os.ReadFile(r.path(file))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			if _, err := repoconfig.ParseCIConfig(file, data); errors.Is(err, repoconfig.ErrNotFBC) {
				continue
			}
		}
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names, nil
}

// FindRoot looks for the repository root from dir upwards: the first
// directory that has an operators/ directory. It returns dir when none
// has.
func FindRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "operators")); err == nil && st.IsDir() {
			if rel, err := filepath.Rel(abs, d); err == nil && !filepath.IsAbs(dir) {
				return filepath.Join(dir, rel)
			}
			return d
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

// Open reads an operator directory: its ci.yaml, the templates it maps
// and their committed catalogs, loaded. It refuses, with a
// *stage.InterruptedError naming the run's staging directory, a
// repository that a run of Plan.Apply left half-written (killed while
// moving its files into place or putting them back; Recover finishes or
// undoes it), and one that another process is writing when Open starts
// or ends, so that no caller reads a mix of old and new files silently.
// It never writes: readers such as lint leave recovery to the catalog
// verbs.
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
	if err := checkOperatorName(name); err != nil {
		return nil, err
	}
	p := &Package{Repo: r, Name: name, Dir: path.Join("operators", name)}
	ciFile := path.Join(p.Dir, "ci.yaml")
	data, err := os.ReadFile(r.path(ciFile))
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
	p.bundleDirs.pkg = p
	return p, nil
}

// checkOperatorName refuses a name that cannot be an operator
// directory's.
func checkOperatorName(name string) error {
	if err := repoconfig.PlainName("operator", nil, "operator name", name); err != nil || name == "" {
		return fmt.Errorf("invalid operator name %q: give the name of a directory under operators/", name)
	}
	return nil
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
	c.exists, c.file = exists, r.path(c.Path)
	return err
}

// exists reports whether a file exists.
func (r *Repo) exists(rel string) (bool, error) {
	_, err := os.Stat(r.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// CheckRoot reports whether Root is a catalog repository: a directory
// with an operators/ directory. Every verb asks it first, so that a verb
// run outside a repository says so in one way (an option.Error naming Repo.Root)
// before it reads anything else. An operators/ that is not a directory
// is left to the reading that fails on it, which says so.
func (r *Repo) CheckRoot() error {
	_, err := os.Stat(r.path("operators"))
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return r.noRoot()
	case err != nil:
		return fmt.Errorf("reading the repository %s: %w", r.Root, err)
	}
	return nil
}

// noRoot is the error of a root without operators/.
func (r *Repo) noRoot() error { return NotARepository(r.Root) }

// NotARepository is the error of a directory taken for a catalog
// repository's root that has no operators/ directory, naming it as an
// absolute path (a root found from the working directory is "."). Every
// verb (see CheckRoot) and lint say it in these words.
func NotARepository(root string) *option.Error {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return option.Lifting(fmt.Sprintf("%s is not a catalog repository (it has no operators/ directory)", root),
		": run from the root of the catalog repository or give %s", optionRoot)
}

// noOperator explains a missing operator directory.
func (r *Repo) noOperator(name string) error {
	if _, err := os.Stat(r.path("operators")); err != nil {
		return r.noRoot()
	}
	if _, err := os.Stat(r.path(path.Join("operators", name))); err != nil {
		ops, why := r.Operators(), ""
		near := suggest.Near(name, ops)
		for _, op := range ops {
			if len(near) == 0 && (strings.HasPrefix(name, op) || strings.HasPrefix(op, name)) {
				near, why = []string{op}, " (commands take the operator's directory name, which need not be its package's)"
			}
		}
		err := unknownName("operator", name, near, ops, "no operator %q: operators/%s does not exist", name, name)
		err.Msg += why
		return err
	}
	return refuse("operators/%s has no ci.yaml: it says which templates render which catalogs (fbc.catalog_mapping)", name)
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
		return c.load(ctx, data, docs, p.schemaPool())
	})
}

// load loads and validates the committed catalog's text data: its
// objects are the content rendering offline takes bundles from, and
// knowing it valid lets a catalog rendered from it be checked by what
// changed.
// The catalogs of a package repeat the same bundles: docs shares them;
// pool shares the compiled schemas.
func (c *Catalog) load(ctx context.Context, data []byte, docs *declcfg.DocumentCache, pool *validate.SchemaPool) error {
	c.exists, c.sum = true, stage.Digest(data)
	c.setTextSum(data)
	res, err := validateFile(ctx, c.Path, data, validate.Options{KeepConfig: true, KeepBulk: true, Documents: docs, Pool: pool})
	if err != nil {
		return err
	}
	if res.Config == nil || !res.GraphChecked {
		return refuse("reading catalog %s:\n%v", c.Path, res.Problems)
	}
	c.Config, c.valid, c.Problems = res.Config, res.Passed(), res.Problems
	return nil
}

// validateFile validates the catalog file named file (root-relative)
// holding data.
func validateFile(ctx context.Context, file string, data []byte, opts validate.Options) (*validate.Result, error) {
	dir, base := path.Split(file)
	opts.RootName = path.Clean(dir)
	return validate.ValidateBytes(ctx, base, data, opts)
}

// Template returns the mapped template named name.
func (p *Package) Template(name string) (*Template, error) {
	for _, t := range p.Templates {
		if t.TemplateFile == name {
			return t, nil
		}
	}
	return nil, unknownName("template", name, nil, p.CI.TemplateFiles(), "%s maps no template %q in fbc.catalog_mapping", p.CI.File, name)
}

// FBCPackage is the name of the package the catalogs hold (which need
// not be the operator directory's name), or "" when no catalog says.
func (p *Package) FBCPackage() string {
	for _, c := range p.Catalogs {
		if c.Config != nil && len(c.Config.Packages) > 0 {
			return c.Config.Packages[0].Name
		}
	}
	return ""
}
