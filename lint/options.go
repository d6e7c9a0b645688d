package lint

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/lint/change"
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/option"
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
	Target config.Target
	// Config is the repository's lint configuration: rules turned off,
	// severities, ignored findings. Nil for none.
	Config *config.Config
	// NoWebhooks tells olmv1-unsupported that the cluster runs OLM v1
	// without webhook support.
	NoWebhooks bool
	// Images renders image references; nil refuses them.
	Images *render.Renderer
	// CacheDir, when set, is where operator-sdk's verdicts on bundle
	// directories are kept by their content, for the next run; CacheSalt
	// tells the build's validators from another's (the program's version:
	// a build that may judge otherwise must give another).
	CacheDir, CacheSalt string
	// OSDK starts what runs operator-sdk's suites for osdk-operatorhub and
	// osdk-operatorframework: Lint calls it at most once, for the first
	// bundle whose verdict is not in CacheDir, and closes what it returns
	// when the run ends. Nil starts the opm-osdk helper (suites.Start),
	// which holds operator-framework/api's validators so that programs
	// linking lint do not; lint/osdk's InProcess runs them in this
	// process.
	OSDK func(context.Context) (suites.Validator, error)
	// Released is what a run without a baseline does with the history of
	// an operator directory: what its catalogs hold and the bundle
	// directories they superseded (see history.go); "" is ReleasedWarn.
	Released Released
}

// Result is what Lint found.
type Result struct {
	// Findings, sorted by file, line and rule.
	Findings []finding.Finding
	// Rules are the rules that ran, in the table's order.
	Rules []Rule
	// Notes say what could not be checked and why.
	Notes []string
	// Changes are the catalogs the change being linted changed, compared
	// with Options.Baseline (none without one).
	Changes []change.Catalog
	// Fixed are the findings of the baseline the change fixed (none
	// without a baseline), sorted.
	Fixed []finding.Finding
}

// The options lint's errors name (see option.Error).
const (
	optionPrevious option.Name = "lint.Options.Previous"
	optionBaseline option.Name = "lint.Options.Baseline"
	optionReleased option.Name = "lint.Options.Released"
	optionRules    option.Name = "lint.Options.Rules"
	optionDisable  option.Name = "lint.Options.Disable"
	optionTarget   option.Name = "lint.Options.Target"
)

// Validate checks what the options say before anything is read: the
// target, the choice for released bundles and the rule IDs. Lint and
// EffectiveConfig call it; the bundle and the baseline the options name
// are read (and their errors, option.Errors, said) when linting.
func (o Options) Validate() error {
	if err := o.Target.Check(); err != nil {
		return option.Invalidf(optionTarget, "%v", err)
	}
	if _, err := ParseReleased(string(o.Released)); err != nil {
		return option.Invalidf(optionReleased, "%v", err)
	}
	for _, id := range append(slices.Clone(o.Rules), o.Disable...) {
		if !knownRule(id) {
			return fmt.Errorf("unknown rule %q: the rules are %s", id, strings.Join(RuleIDs(), ", "))
		}
	}
	return nil
}

// baselineError is an error of reading the baseline, which starts with
// the baseline given.
func baselineError(err error) error {
	return option.Errorf(option.Invalid, "%s %w", optionBaseline, err)
}
