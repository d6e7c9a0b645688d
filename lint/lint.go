package lint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/fbcat/opm/render"
)

// Options configures Lint.
type Options struct {
	// Rules, if set, are the only rules run; Disable names rules not to
	// run. Both take rule IDs (see Rules).
	Rules, Disable []string
	// Previous is a bundle directory the bundle directories being linted
	// upgrade from: crd-upgrade-unsafe compares their CRDs with its.
	Previous string
	// Baseline is what the paths were before the change being linted: a
	// directory (for one catalog directory: the catalog as it was; for a
	// catalogs directory of v4.N catalogs: that directory as it was; for a
	// bundle directory: the bundle as it was; for operator directories:
	// the repository root as it was), or a git ref whose same paths hold
	// them. Each finding is then new or unchanged (Finding.BaselineState),
	// and stranded-upgrade compares the catalogs with the baseline's.
	Baseline string
	// Target is who installs the catalogs (default OLM v0): what only OLM
	// v1 refuses is an error for OLM v1 and a warning for OLM v0.
	Target Target
	// Config is the repository's lint configuration: rules turned off,
	// severities, ignored findings. Nil for none.
	Config *Config
	// NoWebhooks tells olmv1-unsupported that the cluster runs OLM v1
	// without webhook support.
	NoWebhooks bool
	// Images renders image references; nil refuses them.
	Images *render.Renderer
}

// Result is what Lint found.
type Result struct {
	// Findings, sorted by file, line and rule.
	Findings []Finding
	// Rules are the rules that ran, in the table's order.
	Rules []Rule
	// Notes say what could not be checked and why.
	Notes []string
	// Changes are the catalogs the change being linted changed, compared
	// with Options.Baseline (none without one).
	Changes []CatalogChange
	// Fixed are the findings of the baseline the change fixed (none
	// without a baseline), sorted.
	Fixed []Finding
}

// linter is one run of Lint.
type linter struct {
	opts     Options
	rules    []Rule
	previous *bundle
	baseline *baseline
	findings []Finding
	notes    []string
	changes  []CatalogChange
	// remap, in the run over the baseline, says where the baseline holds
	// a path (positions keep the path); nil reads the path itself.
	remap func(string) string
	// memo records each bundle directory's findings (see memo); reuse, in
	// the run over the baseline, gives those of directories the change
	// left alone.
	memo, reuse *memo
	// crdPairs are the CRD pairs compared so far.
	crdPairs crdPairs
}

// Lint lints each path: a catalog directory, a catalogs directory (of
// v4.N catalogs), a registry+v1 bundle directory, an operator directory
// of a catalog repository (operators/<pkg>/, with its ci.yaml), the
// operators/ directory (each of its operator directories) or an image
// reference. An error means linting could not run (a path that cannot be
// read, an unknown rule, a bad baseline) or was cancelled; what the
// rules find is in the result.
func Lint(ctx context.Context, paths []string, opts Options) (*Result, error) {
	if len(paths) == 0 {
		return nil, errors.New("nothing to lint: give catalog, bundle or operator directories, or image references")
	}
	if err := opts.Target.check(); err != nil {
		return nil, err
	}
	rules, err := selectRules(opts.Rules, opts.Disable, opts.Config)
	if err != nil {
		return nil, err
	}
	l := &linter{opts: opts, rules: rules}
	if opts.Previous != "" {
		if !render.IsBundleDir(opts.Previous) {
			return nil, fmt.Errorf("--previous %s: not a registry+v1 bundle directory (manifests/ and metadata/)", opts.Previous)
		}
		if l.previous, err = readBundleDir(opts.Previous); err != nil {
			return nil, fmt.Errorf("--previous: %w", err)
		}
	}
	if opts.Baseline == "" {
		if slices.Contains(opts.Rules, ruleStranded) {
			l.notes = append(l.notes, "stranded-upgrade: not checked: it compares with the catalogs before the change; give them with --baseline (a directory or a git ref)")
		}
		return l.finish(l.run(ctx, paths))
	}
	if l.baseline, err = newBaseline(ctx, opts.Baseline, paths); err != nil {
		return nil, err
	}
	defer l.baseline.close()
	l.memo = newMemo()
	res, err := l.finish(l.run(ctx, paths))
	if err != nil {
		return nil, err
	}
	if err := l.compareWithBaseline(ctx, paths, res); err != nil {
		return nil, err
	}
	return res, nil
}

// real is where the path p is read from.
func (l *linter) real(p string) string {
	if l.remap == nil {
		return p
	}
	return l.remap(p)
}

// finish applies the target's and the configuration's severities and
// ignores to a run's findings.
func (l *linter) finish(res *Result, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		f.Severity = l.opts.Target.severity(f)
		l.opts.Config.apply(f)
	}
	return res, nil
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
	}
	if err := ctx.Err(); err != nil {
		return nil, err // cancelled while the last path was linted
	}
	return &Result{Findings: sortFindings(l.findings), Rules: l.rules, Notes: l.notes, Changes: l.changes}, nil
}

// enabled reports whether a rule runs.
func (l *linter) enabled(id string) bool {
	for _, r := range l.rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

// lintPath lints one path, by what it is.
func (l *linter) lintPath(ctx context.Context, p string) error {
	r := l.real(p)
	st, err := os.Stat(r)
	switch {
	case errors.Is(err, fs.ErrNotExist) && l.opts.Images != nil && !looksLikePath(p):
		return l.lintImage(ctx, p)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is a file: lint takes catalog, bundle and operator directories and image references", p)
	case render.IsBundleDir(r):
		b, err := l.readBundleDir(p)
		if err != nil {
			return err
		}
		l.lintBundle(b)
		return nil
	case isOperatorDir(r):
		return l.lintOperatorDir(ctx, p)
	case isCatalogsRoot(r):
		return l.lintCatalogsRoot(ctx, p)
	}
	if dirs := operatorDirsIn(r); len(dirs) > 0 {
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
	return l.lintCatalogDir(ctx, os.DirFS(r), p, catalogVersionOf(p))
}

// looksLikePath reports whether a reference that does not exist was meant
// as a path (so that a mistyped directory is not taken for an image).
func looksLikePath(p string) bool {
	return filepath.IsAbs(p) || p == "." || p == ".." || len(p) > 1 && (p[:2] == "./" || p[:2] == "..")
}

// operatorDirsIn lists the operator directories of dir when it is the
// operators/ directory of a catalog repository.
func operatorDirsIn(dir string) []string {
	abs, err := filepath.Abs(dir)
	if err != nil || filepath.Base(abs) != "operators" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if d := filepath.Join(dir, e.Name()); e.IsDir() && isOperatorDir(d) {
			out = append(out, d)
		}
	}
	return out
}

// isOperatorDir reports whether dir is operators/<pkg>/ of a catalog
// repository: it has a ci.yaml and its parent is named operators.
func isOperatorDir(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "ci.yaml")); err != nil {
		return false
	}
	abs, err := filepath.Abs(dir)
	return err == nil && filepath.Base(filepath.Dir(abs)) == "operators"
}

var catalogDirRE = regexp.MustCompile(`^v(\d+)\.(\d+)$`)

// catalogVersionOf is the OpenShift version of a catalog directory that
// lies in catalogs/v4.x/ (or is it), nil for any other.
func catalogVersionOf(dir string) *ocp {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	for d := abs; d != filepath.Dir(d); d = filepath.Dir(d) {
		if filepath.Base(filepath.Dir(d)) != "catalogs" {
			continue
		}
		if v := ocpOfName(filepath.Base(d)); v != nil {
			return v
		}
	}
	return nil
}

// ocpOfName reads a catalog name such as v4.17.
func ocpOfName(name string) *ocp {
	m := catalogDirRE.FindStringSubmatch(name)
	if m == nil {
		return nil
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major != 4 {
		return nil
	}
	return &ocp{major, minor}
}

// add records findings.
func (l *linter) add(fs []Finding) { l.findings = append(l.findings, fs...) }
