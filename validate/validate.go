// Package validate checks file-based catalogs: every blob against the CUE
// schema for its kind (built in, or the user's own), and the catalog as a
// whole against every rule upstream opm applies to its model (references,
// upgrade graphs, versions, image references, deprecations). It reports
// every problem it finds, each at a file and line, in a stable order.
package validate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// Options configures Validate.
type Options struct {
	// RootName is how the catalog directory is named in positions.
	RootName string
	// Schemas are the user's own CUE definitions (see LoadUserSchemas).
	Schemas *UserSchemas
	// Concurrency bounds the number of files checked at once (default: the
	// number of CPUs).
	Concurrency int
	// KeepConfig asks for the loaded catalog in Result.Config and its
	// model in Result.Model, for callers that use it after checking it.
	KeepConfig bool
	// KeepBulk keeps the values of olm.bundle.object and olm.csv.metadata
	// properties in Result.Config; otherwise they are dropped as soon as
	// they are checked (declcfg.ReloadBundle reads them again).
	KeepBulk bool
	// Lines, if set, receives every object as JSON lines while the
	// catalog loads (see declcfg.WithLines).
	Lines func(file int, lines declcfg.Lines)
	// ObjectsOnly checks each blob on its own (its schema and the rules
	// of single objects) and skips the checks across objects: for a few
	// blobs taken out of a catalog.
	ObjectsOnly bool
	// Documents, if set, shares bundles between validations of catalogs
	// that hold the same documents (see declcfg.DocumentCache): each is
	// decoded and checked once. Validations sharing it must have the same
	// Schemas, KeepBulk and Lines.
	Documents *declcfg.DocumentCache
	// Pool, if set, keeps the compiled schemas for the validations that
	// share it (see SchemaPool).
	Pool *SchemaPool

	// trees decodes every document into a tree (declcfg.WithTrees), for
	// tests that compare.
	trees bool
}

// Result is the outcome of a validation.
type Result struct {
	// Problems, sorted by file, line and column.
	Problems declcfg.ErrorList
	// Warnings are data that the catalog holds but that does not survive
	// loading, here as in upstream opm (see declcfg.Loss), sorted. They do
	// not fail the validation, except a byte order mark that hides
	// objects and a repeated "schema" key (two objects run together),
	// which are problems; blobs without a package are problems of their
	// own.
	Warnings []declcfg.Warning
	// Config is the catalog as loaded, with Options.KeepConfig.
	Config *declcfg.DeclarativeConfig
	// Model indexes Config, when GraphChecked and Options.KeepConfig.
	Model *model.Catalog
	// Objects is the number of blobs read (of every schema).
	Objects int
	// GraphChecked is false when documents that could not be read made the
	// checks that span objects (channels, upgrade graphs, references) skip:
	// their results would have been misleading.
	GraphChecked bool
}

// Passed reports whether no problem was found.
func (r *Result) Passed() bool { return len(r.Problems) == 0 }

// Err returns nil for a catalog that passed, else an *InvalidError naming
// the catalog as ref.
func (r *Result) Err(ref string) error {
	if r.Passed() {
		return nil
	}
	return &InvalidError{Ref: ref, Problems: r.Problems}
}

// InvalidError is the error of commands that need a valid catalog and were
// given one that is not.
type InvalidError struct {
	Ref      string
	Problems declcfg.ErrorList
}

// Refused reports that a command given an invalid catalog refuses it,
// rather than failing to run (see cmd/opm's exit codes).
func (e *InvalidError) Refused() bool { return true }

func (e *InvalidError) Error() string {
	return fmt.Sprintf("%s is not a valid catalog; fix what opm validate reports:\n%v", e.Ref, e.Problems)
}

// ValidateBytes checks data as Validate checks a directory holding it as
// its one file, name (a path as declcfg.NewMemFS takes).
func ValidateBytes(ctx context.Context, name string, data []byte, opts Options) (*Result, error) {
	fsys, err := declcfg.NewMemFS(map[string][]byte{name: data})
	if err != nil {
		return nil, err
	}
	return Validate(ctx, fsys, opts)
}

// Validate checks the catalog in fsys.
func Validate(ctx context.Context, fsys fs.FS, opts Options) (*Result, error) {
	lent, err := lend(opts.Pool, opts.Schemas)
	if err != nil {
		return nil, err
	}
	defer lent.giveBack()
	var mu sync.Mutex
	loadOpts := []declcfg.LoadOption{
		declcfg.WithQuickObjectCheck(lent.checks),
		declcfg.WithItemCheck(func() declcfg.ItemCheck { return objectRules }),
		declcfg.WithRootName(opts.RootName),
	}
	if !opts.KeepBulk {
		loadOpts = append(loadOpts, declcfg.WithoutBulkValues())
	}
	if opts.Lines != nil {
		loadOpts = append(loadOpts, declcfg.WithLines(opts.Lines))
	}
	if opts.Documents != nil {
		loadOpts = append(loadOpts, declcfg.WithDocumentCache(opts.Documents))
	}
	if opts.Concurrency > 0 {
		loadOpts = append(loadOpts, declcfg.WithConcurrency(opts.Concurrency))
	}
	if opts.trees {
		loadOpts = append(loadOpts, declcfg.WithTrees())
	}
	var warnings []declcfg.Warning
	var hidden declcfg.ErrorList
	loadOpts = append(loadOpts, declcfg.WithWarnings(func(w declcfg.Warning) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case w.Loss == declcfg.LossBOM, w.SeparatorMissing():
			hidden = append(hidden, w.At)
		case w.Loss == declcfg.LossNoPackage:
		default:
			warnings = append(warnings, w)
		}
	}))
	cfg, err := declcfg.LoadFS(ctx, fsys, loadOpts...)
	var problems declcfg.ErrorList
	if err != nil && !errors.As(err, &problems) {
		return nil, err
	}
	problems = append(problems, hidden...)
	declcfg.SortWarnings(warnings)
	if lent.err != nil {
		return nil, fmt.Errorf("compiling schemas: %w", lent.err)
	}
	res := &Result{Problems: problems, Warnings: warnings, GraphChecked: true}
	if cfg != nil {
		res.Objects = len(cfg.Packages) + len(cfg.Channels) + len(cfg.Bundles) + len(cfg.Deprecations) + len(cfg.Others)
	}
	if opts.KeepConfig {
		res.Config = cfg
	}
	for _, p := range problems {
		if p.Schema == "" {
			// A document that could not be read: what it held is unknown,
			// so checks across objects would mislead.
			res.GraphChecked = false
		}
	}
	if res.GraphChecked && !opts.ObjectsOnly {
		c, found := checkModel(cfg, brokenObjects(problems, cfg))
		res.Problems = append(res.Problems, found...)
		if opts.KeepConfig {
			res.Model = c
		}
	}
	res.Problems.Sort()
	return res, nil
}

// brokenObjects lists the objects that problems name but that could not be
// loaded.
func brokenObjects(problems declcfg.ErrorList, cfg *declcfg.DeclarativeConfig) *broken {
	br := &broken{packages: map[string]bool{}, channels: map[string]map[string]bool{}, bundles: map[string]map[string]bool{}}
	set := func(m map[string]map[string]bool, pkg, name string) {
		if m[pkg] == nil {
			m[pkg] = map[string]bool{}
		}
		m[pkg][name] = true
	}
	for _, p := range problems {
		switch p.Schema {
		case declcfg.SchemaPackage:
			br.packages[p.Package] = true
		case declcfg.SchemaChannel:
			set(br.channels, p.Package, p.Channel)
		case declcfg.SchemaBundle:
			set(br.bundles, p.Package, p.Bundle)
		}
	}
	for _, p := range cfg.Packages {
		delete(br.packages, p.Name)
	}
	for _, c := range cfg.Channels {
		delete(br.channels[c.Package], c.Name)
	}
	for _, b := range cfg.Bundles {
		delete(br.bundles[b.Package], b.Name)
	}
	return br
}
