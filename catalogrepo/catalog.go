package catalogrepo

import (
	"bytes"
	"context"
	"path"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/catalogrepo/stage"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/registryv1/openshift"
	"github.com/fbcat/opm/validate"
)

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

	valid   bool   // the committed catalog passes validation
	exists  bool   // the catalog is committed
	file    string // its path on disk
	sum     string // the committed text's digest
	textSum string // ... with "\r\n" read as "\n" (see SameText)
	textLen int    // the length of that text
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

// Committed reports whether the catalog is committed (its file exists).
func (c *Catalog) Committed() bool { return c.exists }

// Valid reports whether the committed catalog passes validation.
func (c *Catalog) Valid() bool { return c.valid }

// File is the catalog's path on disk.
func (c *Catalog) File() string { return c.file }

// Digest is the committed text's digest (see stage.Digest), "" when the
// catalog is not committed or Open has not read it.
func (c *Catalog) Digest() string { return c.sum }

// SameText reports whether the committed text, "\r\n" read as "\n" (a
// checkout may turn one into the other), is the text of size bytes
// whose stage.Digest is digest.
func (c *Catalog) SameText(size int, digest string) bool {
	return c.exists && c.textLen == size && c.textSum == digest
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
	res, err := ValidateFile(ctx, c.Path, data, validate.Options{KeepConfig: true, KeepBulk: true, Documents: docs, Pool: pool})
	if err != nil {
		return err
	}
	if res.Config == nil || !res.GraphChecked {
		return Refuse("reading catalog %s:\n%v", c.Path, res.Problems)
	}
	c.Config, c.valid, c.Problems = res.Config, res.Passed(), res.Problems
	return nil
}

// setTextSum records what SameText compares a committed text by: its
// digest and length with "\r\n" read as "\n". c.sum is set.
func (c *Catalog) setTextSum(data []byte) {
	if !bytes.Contains(data, []byte("\r\n")) {
		c.textLen, c.textSum = len(data), c.sum
		return
	}
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	c.textLen, c.textSum = len(data), stage.Digest(data)
}

// ValidateFile validates the catalog file named file (root-relative)
// holding data, its positions relative to the root.
func ValidateFile(ctx context.Context, file string, data []byte, opts validate.Options) (*validate.Result, error) {
	dir, base := path.Split(file)
	opts.RootName = path.Clean(dir)
	return validate.ValidateBytes(ctx, base, data, opts)
}
