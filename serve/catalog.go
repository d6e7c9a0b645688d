// Package serve answers for one file-based catalog over the OLM v0 gRPC
// Registry API (with gRPC health and reflection) and the OLM v1
// catalogd-style HTTP API.
//
// Load reads and validates the catalog directory once, the way `opm
// validate` does plus the rules only serving adds, and indexes it; no
// prebuilt cache is needed. Answers are computed from the loaded objects on
// demand, so the catalog is held in memory once.
package serve

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"time"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/validate"
)

// Catalog is a loaded, valid catalog, ready to be served.
type Catalog struct {
	model *model.Catalog
	// lines is what the HTTP API serves; nil unless LoadOptions.Blobs.
	lines   *jsonLines
	queries queries
}

// LoadOptions configures Load.
type LoadOptions struct {
	// Name is how the catalog is named in problems (its directory).
	Name string
	// Blobs keeps every object as JSON lines for the HTTP API.
	Blobs bool
	// Concurrency bounds how many files are read at once (default: the
	// number of CPUs).
	Concurrency int
}

// Load reads the catalog in fsys and checks it as `opm validate` does, and
// for what serving adds: custom schema and package names OLM can store,
// and at most one olm.csv.metadata property per bundle. A catalog with
// problems is refused with a *validate.InvalidError listing all of them.
//
// Bundle objects and CSV metadata, most of a catalog's bytes, are not kept:
// answers that carry them read the bundle's document from fsys again, so
// fsys must not change while the catalog is served.
func Load(ctx context.Context, fsys fs.FS, opts LoadOptions) (*Catalog, error) {
	c := &Catalog{}
	vopts := validate.Options{RootName: opts.Name, KeepConfig: true, Concurrency: opts.Concurrency}
	var order *fileOrder
	if opts.Blobs {
		c.lines = newJSONLines()
		order = &fileOrder{lines: c.lines, pending: map[int]declcfg.Lines{}}
		vopts.Lines = order.add
	}
	res, err := validate.Validate(ctx, fsys, vopts)
	if err == nil && order != nil {
		err = order.err
	}
	if err == nil && res.GraphChecked {
		res.Problems = append(res.Problems, servable(res.Config)...)
		res.Problems.Sort()
	}
	if err == nil {
		err = res.Err(opts.Name)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	if c.lines != nil {
		// Last-Modified: when this process loaded the catalog, which is
		// when its content may last have changed for clients.
		c.lines.modified = time.Now().UTC().Truncate(time.Second)
	}
	c.model = res.Model
	c.queries.cat, c.queries.fsys = c.model, fsys
	return c, nil
}

// Close releases what the catalog keeps for the HTTP API.
func (c *Catalog) Close() {
	if c.lines != nil {
		c.lines.close()
	}
}

// Packages counts the catalog's packages.
func (c *Catalog) Packages() int { return len(c.model.Packages) }

// Bundles counts the catalog's bundles.
func (c *Catalog) Bundles() int {
	n := 0
	for _, p := range c.model.Packages {
		n += len(p.Bundles)
	}
	return n
}

// customName is what upstream's serve requires of the schema and package
// of blobs of other schemas, which it stores under those names.
var customName = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]*$`)

// servable finds what upstream's serve refuses although validate accepts
// it.
func servable(cfg *declcfg.DeclarativeConfig) declcfg.ErrorList {
	var problems declcfg.ErrorList
	for _, m := range cfg.Others {
		field, val := "", ""
		switch {
		case !customName.MatchString(m.Schema):
			field, val = "schema", m.Schema
		case m.Package != "" && !customName.MatchString(m.Package):
			field, val = "package", m.Package
		default:
			continue
		}
		problems = append(problems, &declcfg.Error{File: m.Pos.File, Line: m.Pos.Line, Package: m.Package,
			Message: fmt.Sprintf("cannot serve a blob whose %s is %q: OLM stores blobs of other schemas by schema and package, which must match %s", field, val, customName)})
	}
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		var lines []int
		for _, p := range b.Properties {
			if p.Type == declcfg.PropertyCSVMetadata {
				lines = append(lines, p.Line)
			}
		}
		if len(lines) > 1 {
			e := model.BundleProblem(b, "expected at most 1 property of type %q, found %d; OLM cannot serve the bundle: keep one", declcfg.PropertyCSVMetadata, len(lines))
			e.File, e.Line = b.Pos.File, cmp.Or(lines[1], b.Pos.Line)
			problems = append(problems, &e)
		}
	}
	return problems
}
