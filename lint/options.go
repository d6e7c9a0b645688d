package lint

import (
	"github.com/fbcat/opm/lint/change"

	"strings"

	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/finding"
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

// OptionError is an option of Lint that cannot be used: the previous
// bundle or the baseline. Its message starts with what the option is
// ("the baseline origin/main is neither a directory nor a commit ...");
// Naming gives the message with the option named another way, as a
// command line names it by its flag.
type OptionError struct {
	// Option is the Options field: "Previous" or "Baseline".
	Option string
	Err    error
}

func (e *OptionError) Error() string { return e.Err.Error() }

func (e *OptionError) Unwrap() error { return e.Err }

// Naming is the error's message with the option called name (such as
// "--baseline") instead of by what it is.
func (e *OptionError) Naming(name string) string {
	msg := e.Err.Error()
	if rest, ok := strings.CutPrefix(msg, optionNoun(e.Option)); ok {
		return name + rest
	}
	return name + ": " + msg
}

// optionNoun is what an option is, as messages name it.
func optionNoun(option string) string {
	switch option {
	case "Previous":
		return "the previous bundle"
	case "Baseline":
		return "the baseline"
	}
	return option
}
