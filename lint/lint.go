package lint

import (
	"context"
	"errors"
	"slices"

	"github.com/fbcat/opm/lint/baseline"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/render"
)

// Lint lints each path: a catalog directory, a catalogs directory (of
// v4.N catalogs), a registry+v1 bundle directory, an operator directory
// of a catalog repository (operators/<pkg>/, with its ci.yaml), the
// operators/ directory (each of its operator directories) or an image
// reference. An error means linting could not run (a path that cannot be
// read, an unknown rule, a bad baseline: an option.Error names the
// option) or was cancelled; what the rules find is in the result.
//
// With a baseline, the paths are linted twice: as the change has them,
// then as the baseline has them (see compareWithBaseline), and each
// finding is marked new or unchanged.
func Lint(ctx context.Context, paths []string, opts Options) (res *Result, err error) {
	if len(paths) == 0 {
		return nil, errors.New("nothing to lint: give catalog, bundle or operator directories, or image references")
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	rules, err := selectRules(opts.Rules, opts.Disable, opts.Config, opts.Config.ProfileOf().Resolve(paths))
	if err != nil {
		return nil, err
	}
	released, _ := ParseReleased(string(opts.Released))
	l := &linter{setup: setup{rules: rules, images: opts.Images, noWebhooks: opts.NoWebhooks, target: opts.Target, config: opts.Config,
		osdk: newOSDKRunner(ctx, opts), released: released, once: &onceNotes{}, judgesChange: opts.Baseline != ""}}
	defer func() {
		if err = l.osdk.close(err); err != nil {
			res = nil
		}
	}()
	if opts.Previous != "" {
		if l.previous, err = readPrevious(opts.Previous); err != nil {
			return nil, err
		}
	}
	if opts.Baseline == "" {
		if slices.Contains(opts.Rules, ruleStranded) {
			l.notes = append(l.notes, "stranded-upgrade: not checked: it compares with the catalogs before the change; give them with --baseline (a directory or a git ref)")
		}
		return l.withNotes(l.finish(l.run(ctx, paths)))
	}
	bl, err := baseline.New(ctx, opts.Baseline, paths)
	if err != nil {
		return nil, baselineError(err)
	}
	defer bl.Close()
	l.compareTo, l.view.memo = bl, baseline.NewMemo[*bundle]()
	res, err = l.finish(l.run(ctx, paths))
	if err != nil {
		return nil, err
	}
	if err := l.compareWithBaseline(ctx, paths, res); err != nil {
		return nil, err
	}
	return l.withNotes(res, nil)
}

// withNotes adds the notes said once per run to a result.
func (l *linter) withNotes(res *Result, err error) (*Result, error) {
	if err == nil {
		res.Notes = append(res.Notes, l.once.all()...)
	}
	return res, err
}

// readPrevious reads the bundle directory the linted ones upgrade from.
func readPrevious(dir string) (*bundle, error) {
	if !render.IsBundleDir(dir) {
		return nil, option.Errorf(option.Invalid, "%s %s: not a registry+v1 bundle directory (manifests/ and metadata/)", optionPrevious, dir)
	}
	b, err := readBundleDir(dir)
	if err != nil {
		return nil, option.Errorf(option.Invalid, "%s: %w", optionPrevious, err)
	}
	return b, nil
}

// run lints each path in turn. A cancelled ctx ends it with the
// context's error, never with the findings of a partial run.
func (l *linter) run(ctx context.Context, paths []string) (*Result, error) {
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := l.lintPath(ctx, p); err != nil {
			return nil, err
		}
		if err := l.osdk.failed(); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // cancelled while the last path was linted
	}
	return &Result{Findings: finding.Sort(l.findings), Rules: l.rules, Notes: l.notes, Changes: l.changes}, nil
}
