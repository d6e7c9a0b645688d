package lint

import (
	"github.com/fbcat/opm/lint/change"

	"github.com/fbcat/opm/lint/baseline"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/osdk"
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
	target     Target
	config     *Config
	// osdk keeps operator-sdk's verdicts on manifests for the runs over
	// the change and the baseline.
	osdk *osdk.Cache
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
// directory.
func (l *linter) bundleFindings(b *bundle, inOperator bool) []finding.Finding {
	return l.view.bundleFindings(b, func(b *bundle) []finding.Finding {
		c := &bundleCheck{b: b, previous: l.previous, noWebhooks: l.noWebhooks, pairs: &l.pairs, osdkCache: l.osdk,
			requiredFields: inOperator && l.enabled(pipeline.RuleRequiredFields),
			osdkSuites:     l.enabled(ruleOSDKOperatorHub) && l.enabled(ruleOSDKOperatorFramework),
			unchanged:      l.compareTo != nil && b.dir != "" && l.compareTo.Unchanged(b.dir)}
		var out []finding.Finding
		for _, r := range l.rules {
			if r.bundle != nil {
				out = append(out, r.bundle(c)...)
			}
		}
		return out
	})
}

// packageFindings runs the package rules on one package of a catalog.
func (l *linter) packageFindings(cat *catalog, name string) []finding.Finding {
	c := &packageCheck{cat: cat, pkg: cat.model.Packages[name], noWebhooks: l.noWebhooks, bundles: map[string]*bundle{}, pairs: &l.pairs}
	var out []finding.Finding
	for _, r := range l.rules {
		if r.pkg != nil {
			out = append(out, r.pkg(c)...)
		}
	}
	return out
}

// finish applies the target's and the configuration's severities and
// ignores to a run's findings.
func (l *linter) finish(res *Result, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		f.Severity = l.target.severity(f)
		l.config.apply(f)
	}
	return res, nil
}
