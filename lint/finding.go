package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// Severity says how much a finding matters: an error breaks installs or
// upgrades; a warning is worth fixing; an info is ordinary practice worth
// knowing about, and never fails a run.
type Severity string

// The severities, from the least to the most severe.
const (
	Info    Severity = "info"
	Warning Severity = "warning"
	Error   Severity = "error"
)

// ParseSeverity reads a severity name: error, warning or info.
func ParseSeverity(s string) (Severity, error) {
	switch Severity(s) {
	case Info, Warning, Error:
		return Severity(s), nil
	}
	return "", fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// rank orders severities.
func (s Severity) rank() int {
	switch s {
	case Error:
		return 2
	case Warning:
		return 1
	}
	return 0
}

// AtLeast reports whether s is as severe as min or more.
func (s Severity) AtLeast(min Severity) bool { return s.rank() >= min.rank() }

// Finding is one problem a rule found, at the file and line that causes
// it: a manifest, an annotation, a catalog line.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Package  string   `json:"package"`
	Channel  string   `json:"channel"`
	Bundle   string   `json:"bundle"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Message  string   `json:"message"`
	// Object names the manifest the finding is about when the file holds
	// it embedded (a catalog's olm.bundle.object), e.g.
	// "CustomResourceDefinition foos.example.com".
	Object string `json:"object,omitempty"`
	// BaselineState is set when linting against a baseline: "new" for a
	// finding the change introduced, "unchanged" for one the baseline
	// already had (SARIF's baselineState). Unchanged findings never fail
	// a run.
	BaselineState string `json:"baselineState,omitempty"`
	// Suppressed is the reason the repository's lint configuration gives
	// for ignoring the finding; a suppressed finding never fails a run.
	Suppressed string `json:"suppressed,omitempty"`
	// Reasons are the changes behind a finding that has several (one
	// crd-upgrade-unsafe finding per upgrade edge and CRD lists each
	// unsafe change); nil for other findings.
	Reasons []Reason `json:"reasons,omitempty"`
}

// The baseline states of a finding.
const (
	BaselineNew       = "new"
	BaselineUnchanged = "unchanged"
	// BaselineAbsent marks a finding of the baseline that the change
	// fixed (Result.Fixed).
	BaselineAbsent = "absent"
)

// Location is "file:line", as much of it as is known.
func (f *Finding) Location() string {
	e := declcfg.Error{File: f.File, Line: f.Line}
	return e.Location()
}

// Subject names what the finding is about, e.g.
// `bundle "foo.v1" (package "foo", channel "stable")`.
func (f *Finding) Subject() string {
	e := declcfg.Error{Package: f.Package, Channel: f.Channel, Bundle: f.Bundle}
	return e.Subject()
}

// String is the finding's line: "file:line: severity rule: subject:
// message".
func (f *Finding) String() string {
	var b strings.Builder
	if loc := f.Location(); loc != "" {
		b.WriteString(loc)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s %s: ", f.Severity, f.Rule)
	if s := f.Subject(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	b.WriteString(f.Message)
	switch {
	case f.Suppressed != "":
		fmt.Fprintf(&b, " (suppressed: %s)", f.Suppressed)
	case f.BaselineState == BaselineUnchanged:
		b.WriteString(" (existing)")
	}
	return b.String()
}

// compareFindings orders findings by file, line, rule, package, bundle,
// message and channel (last, so that repeats are neighbours).
func compareFindings(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Package, b.Package),
		cmp.Compare(a.Bundle, b.Bundle),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Channel, b.Channel),
	)
}

// sortFindings sorts findings and drops repeats: the same finding made
// through two channels or two catalogs at the same place is kept once
// (with the first channel).
func sortFindings(fs []Finding) []Finding {
	slices.SortFunc(fs, compareFindings)
	return slices.CompactFunc(fs, func(a, b Finding) bool {
		return sameFinding(&a, &b)
	})
}

// sameFinding reports whether two findings are the same but for their
// channel.
func sameFinding(a, b *Finding) bool {
	return a.Rule == b.Rule && a.Severity == b.Severity && a.Package == b.Package && a.Bundle == b.Bundle &&
		a.File == b.File && a.Line == b.Line && a.Message == b.Message && a.Object == b.Object &&
		a.BaselineState == b.BaselineState && a.Suppressed == b.Suppressed && slices.Equal(a.Reasons, b.Reasons)
}

// Counts reports whether a finding can fail a run: it is not suppressed,
// the baseline does not already have it, and it is more than an info.
func (f *Finding) Counts() bool {
	return f.Suppressed == "" && f.BaselineState != BaselineUnchanged && f.Severity != Info
}

// Passed reports whether no finding that counts (see Finding.Counts) is at
// least as severe as failOn.
func Passed(findings []Finding, failOn Severity) bool {
	for i := range findings {
		if findings[i].Counts() && findings[i].Severity.AtLeast(failOn) {
			return false
		}
	}
	return true
}

// Count returns the numbers of errors and warnings that count (see
// Finding.Counts).
func Count(findings []Finding) (errors, warnings int) {
	s := Summarize(findings)
	return s.Errors, s.Warnings
}

// Summary counts a run's findings: errors, warnings and infos among those
// that are neither existing nor suppressed, and apart from them the
// existing (the baseline has them) and the suppressed ones.
type Summary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Existing   int `json:"existing"`
	Suppressed int `json:"suppressed"`
}

// Summarize counts findings.
func Summarize(findings []Finding) Summary {
	var s Summary
	for i := range findings {
		f := &findings[i]
		switch {
		case f.Suppressed != "":
			s.Suppressed++
		case f.BaselineState == BaselineUnchanged:
			s.Existing++
		case f.Severity == Error:
			s.Errors++
		case f.Severity == Warning:
			s.Warnings++
		default:
			s.Infos++
		}
	}
	return s
}
