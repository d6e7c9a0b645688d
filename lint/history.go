package lint

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/model"
)

// News, not history. Linted without a baseline, an operator directory of
// a catalog repository holds what its package shipped long ago beside
// what it is about to ship. What its catalogs hold is released; a bundle
// directory no catalog holds is superseded when it is older than the
// newest bundle they hold (a directory from before the operator used
// file-based catalogs, a bundle taken out of them): neither will be
// released again. The hosted pipeline checks a pull request's own
// bundle, once; on history the checks that are only its (operator-sdk's
// suites, release-config.yaml, the directory's name, required fields,
// ...) and lint's advice are warnings at most, marked released or
// superseded, and operator-sdk's suites do not run at all. What breaks
// an install from a catalog stays an error (see Rule.onHistory). With a
// baseline the change is judged instead, as always; Options.Released
// chooses otherwise.

// Released says what lint does with findings about history, linted
// without a baseline (Options.Released).
type Released string

// The choices.
const (
	// ReleasedHide, the default, reports of history only what breaks an
	// install or an upgrade from a catalog (see Rule.breaksInstall), and
	// runs only those rules on it.
	ReleasedHide Released = "hide"
	// ReleasedWarn reports history's other findings too, as warnings at
	// most, each marked released or superseded; operator-sdk's suites do
	// not run on it.
	ReleasedWarn Released = "warn"
	// ReleasedCheck checks every bundle directory as a pull request's
	// own, history or not.
	ReleasedCheck Released = "check"
)

// ParseReleased reads a choice of Released ("" is ReleasedHide).
func ParseReleased(s string) (Released, error) {
	switch r := Released(s); r {
	case "":
		return ReleasedHide, nil
	case ReleasedWarn, ReleasedHide, ReleasedCheck:
		return r, nil
	}
	return "", fmt.Errorf("unknown choice %q for released bundles: use hide, warn or check", s)
}

// history knows which bundles of an operator directory are history: by
// name, those its catalogs hold; by version, the bundle directories older
// than the newest bundle they hold.
type history struct {
	released map[string]bool
	newest   *semver.Version
}

// historyOf is the history of an operator whose catalogs are p's; nil
// when there is none to tell: the operator has no file-based catalogs
// (its bundle directories are all it has), or the run judges a change
// against a baseline, or checks history as news.
func (l *linter) historyOf(p *catalogrepo.Package) *history {
	if l.judgesChange || l.released == ReleasedCheck {
		return nil
	}
	h := &history{released: map[string]bool{}}
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for i := range c.Config.Bundles {
			b := &c.Config.Bundles[i]
			h.released[b.Name] = true
			if v, err := (&model.Bundle{Decl: b}).Version(); err == nil && (h.newest == nil || v.Version.GT(*h.newest)) {
				h.newest = &v.Version
			}
		}
	}
	if len(h.released) == 0 {
		return nil
	}
	return h
}

// of is what a bundle is to the history: HistoryReleased,
// HistorySuperseded, or "" for news (a bundle directory no catalog holds
// yet, newer than every bundle they hold, or whose version cannot be
// read).
func (h *history) of(b *bundle) string {
	switch {
	case h == nil:
		return ""
	case h.released[b.name]:
		return finding.HistoryReleased
	}
	v, ok := b.version()
	if ok && h.newest != nil && v.LTE(*h.newest) {
		return finding.HistorySuperseded
	}
	return ""
}

// version is a bundle directory's version: its CSV's spec.version, else
// the version its directory's name spells.
func (b *bundle) version() (semver.Version, bool) {
	if csv := b.theCSV(); csv != nil {
		if v, err := semver.Parse(csv.root().StringAt("spec", "version")); err == nil {
			return v, true
		}
	}
	v, err := semver.Parse(strings.TrimPrefix(filepath.Base(b.dir), "v"))
	return v, err == nil
}

// upgradable are the bundle directories whose upgrades crd-upgrade-unsafe
// compares: of an operator with file-based catalogs, those the
// superseded ones left (upgrades go along the catalogs' edges, which the
// catalogs' checks compare, and into news: from the newest bundle before
// it); all of them for another operator.
func (h *history) upgradable(dirs []*bundle) []*bundle {
	if h == nil {
		return dirs
	}
	var out []*bundle
	for _, b := range dirs {
		if h.of(b) != finding.HistorySuperseded {
			out = append(out, b)
		}
	}
	return out
}

// isNews reports whether a bundle directory is news: every one, for an
// operator without history.
func (h *history) isNews(b *bundle) bool { return h.of(b) == "" }

// mark marks the findings of an operator directory about its history:
// those of a released or superseded bundle, and those of its catalogs
// (which hold what was released). bundles are its bundle directories.
func (h *history) mark(fs []finding.Finding, bundles map[string]*bundle, fromCatalogs bool) {
	if h == nil {
		return
	}
	for i := range fs {
		f := &fs[i]
		switch {
		case f.Bundle != "" && bundles[f.Bundle] != nil:
			f.History = h.of(bundles[f.Bundle])
		case f.Bundle != "" && h.released[f.Bundle], fromCatalogs:
			f.History = finding.HistoryReleased
		}
	}
}

// breaksInstall reports whether what a rule finds breaks an install or
// an upgrade from a catalog, for the run's target: olmv1-unsupported
// does when OLM v1 installs.
func (l *linter) breaksInstall(id string) bool {
	if id == ruleOLMv1 {
		return l.target == config.TargetOLMv1
	}
	r, ok := ruleByID(id)
	return ok && r.breaksInstall
}

// runsOn reports whether a rule runs on a bundle that is history h to
// its operator ("" for news): on history, operator-sdk's suites never
// do, and with ReleasedHide only the rules whose findings it reports
// (see onHistory): none on a superseded bundle.
func (l *linter) runsOn(id, h string) bool {
	switch {
	case h == "":
		return true
	case id == ruleOSDKOperatorHub || id == ruleOSDKOperatorFramework:
		return false
	case l.released != ReleasedHide:
		return true
	}
	return h == finding.HistoryReleased && l.breaksInstall(id)
}

// installOnly reports whether history h is checked for what breaks
// installs only: with ReleasedHide, of an OLM v0 target, whose errors of
// CRD upgrades are the removed stored versions and scope changes.
func (l *linter) installOnly(h *history) bool {
	return h != nil && l.released == ReleasedHide && l.target != config.TargetOLMv1
}

// leftAlone reports whether b is a bundle directory a change compared
// with a git ref left alone: the run over the baseline takes the
// findings the change made of it (see view), which are existing by
// construction. Like history's, they are made of the rules whose
// findings break installs only, unless ReleasedCheck.
func (l *linter) leftAlone(b *bundle) bool {
	bl := l.compareTo // the run over the change
	if bl == nil {
		bl = l.view.baseline // the run over the baseline decides alike
	}
	return l.judgesChange && l.released != ReleasedCheck && bl != nil && b != nil && b.dir != "" && bl.Unchanged(b.dir)
}

// aloneOr is what b is to the rules that run on it (see runsOn): its
// history h, or, left alone by a change, released.
func (l *linter) aloneOr(b *bundle, h string) string {
	if h == "" && l.leftAlone(b) {
		return finding.HistoryReleased
	}
	return h
}

// onHistory applies the run's choice to a finding about history: an
// error of a rule whose findings break an install stays on what was
// released (nothing installs a superseded bundle); with ReleasedHide
// nothing else does, and otherwise the others are warnings at most. It
// reports whether the finding stays.
func (l *linter) onHistory(f *finding.Finding) bool {
	switch {
	case f.History == "":
		return true
	case f.History == finding.HistoryReleased && l.breaksInstall(f.Rule) && f.Severity == finding.Error:
		return true
	case l.released == ReleasedHide:
		return false
	}
	if f.Severity == finding.Error {
		f.Severity = finding.Warning
	}
	return true
}
