package lint

import (
	"slices"
	"sync"

	"github.com/fbcat/opm/lint/change"

	"github.com/fbcat/opm/lint/baseline"
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/pipeline"
	"github.com/fbcat/opm/render"
)

// setup is what the runs of one Lint share: the rules and what they read
// besides the paths.
type setup struct {
	rules []Rule
	// previous is the bundle the bundle directories upgrade from
	// (Options.Previous), nil if none.
	previous   *bundle
	images     *render.Renderer
	noWebhooks bool
	target     config.Target
	config     *config.Config
	// osdk runs operator-sdk's suites for the runs over the change and
	// the baseline, and keeps their verdicts on bundle directories across
	// runs (see osdkRunner).
	osdk *osdkRunner
	// released is what the runs do with history (Options.Released).
	released Released
	// judgesChange is set when the paths are compared with a baseline:
	// the runs over the change and over the baseline judge the change,
	// and have no history (see history.go).
	judgesChange bool
	// notes are the run's notes said once whatever how many bundles make
	// them (about the tools rather than the bundles).
	once *onceNotes
}

// onceNotes are notes, each kept once; safe for bundles linted at once.
type onceNotes struct {
	mu   sync.Mutex
	said []string
}

// add keeps a note, once.
func (n *onceNotes) add(note string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !slices.Contains(n.said, note) {
		n.said = append(n.said, note)
	}
}

// all are the notes kept, in the order they were first made.
func (n *onceNotes) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.said)
}

// linter is one run of the rules over the paths: over the change, or
// over the baseline (see compareWithBaseline).
type linter struct {
	setup
	// view is where the run reads the paths.
	view view
	// compareTo is, in the run over a change, the baseline it is compared
	// with (for stranded-upgrade and Result.Changes); nil without one.
	compareTo *baseline.Baseline
	// pairs are the CRD pairs compared so far.
	pairs    crdcompat.Pairs
	findings []finding.Finding
	notes    []string
	changes  []change.Catalog
}

// add records findings.
func (l *linter) add(fs []finding.Finding) { l.findings = append(l.findings, fs...) }

// enabled reports whether a rule runs.
func (l *linter) enabled(id string) bool {
	for _, r := range l.rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

// bundleFindings runs the bundle rules on a bundle (or, in the run over
// the baseline, takes those of a bundle directory the change left alone:
// see view); inOperator says it is a bundle directory of an operator
// directory, whose history h tells (nil for none).
func (l *linter) bundleFindings(b *bundle, inOperator bool, h *history) []finding.Finding {
	return l.view.bundleFindings(b, func(b *bundle) []finding.Finding {
		c := &bundleCheck{b: b, previous: l.previous, noWebhooks: l.noWebhooks, pairs: &l.pairs, osdk: l.osdk, notes: l.once,
			requiredFields: inOperator && l.enabled(pipeline.RuleRequiredFields),
			osdkSuites:     l.enabled(ruleOSDKOperatorHub) && l.enabled(ruleOSDKOperatorFramework),
			unchanged:      l.compareTo != nil && b.dir != "" && l.compareTo.Unchanged(b.dir),
			history:        h.of(b)}
		var out []finding.Finding
		for _, r := range l.rules {
			if r.bundle != nil && l.runsOn(r.ID, l.aloneOr(b, c.history)) {
				out = append(out, r.bundle(c)...)
			}
		}
		return out
	})
}

// packageFindings runs the package rules on one package of a catalog.
func (l *linter) packageFindings(cat *catalog, name string) []finding.Finding {
	c := &packageCheck{leftAlone: l.leftAlone, cat: cat, pkg: cat.model.Packages[name], noWebhooks: l.noWebhooks, bundles: map[string]*bundle{}, pairs: &l.pairs}
	var out []finding.Finding
	for _, r := range l.rules {
		if r.pkg != nil {
			out = append(out, r.pkg(c)...)
		}
	}
	return out
}

// finish applies the target's and the configuration's severities and
// ignores to a run's findings, then what the run does with history, and
// makes one finding of each problem several rules found (see
// finding.Combine).
func (l *linter) finish(res *Result, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	kept := res.Findings[:0]
	for _, f := range res.Findings {
		f.Severity = targetSeverity(l.target, &f)
		l.config.Apply(&f)
		if l.onHistory(&f) {
			kept = append(kept, f)
		}
	}
	res.Findings = finding.Combine(kept, rank)
	return res, nil
}
