package finding

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/lint/crdcompat"
)

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
	// Catalogs name the OpenShift catalogs the finding was made in (such
	// as ["v4.16", "v4.17"], in CompareCatalogs order) when it was made
	// in catalogs of an operator directory's ci.yaml or of a catalogs
	// directory: one finding stands for the same problem in each (see
	// Merge), and is placed where they are all fixed (the template line
	// that names the bundle) or in the first of them.
	Catalogs []string `json:"catalogs,omitempty"`
	// BaselineState is set when linting against a baseline: "new" for a
	// finding the change introduced, "unchanged" for one the baseline
	// already had (SARIF's baselineState). Unchanged findings never fail
	// a run.
	BaselineState string `json:"baselineState,omitempty"`
	// Suppressed is the reason the repository's lint configuration gives
	// for ignoring the finding; a suppressed finding never fails a run.
	Suppressed string `json:"suppressed,omitempty"`
	// Check names the check of the community and certified repositories'
	// hosted pipeline (operator-pipelines' static tests) that the finding
	// stands for, e.g. "check_operator_name", so that a local run reads
	// beside the hosted one; "" for findings the pipeline has no check of.
	Check string `json:"check,omitempty"`
	// Reasons are the changes behind a finding that has several (one
	// crd-upgrade-unsafe finding per upgrade edge and CRD lists each
	// unsafe change); nil for other findings.
	Reasons []crdcompat.Change `json:"reasons,omitempty"`
	// Rules are every rule the finding stands for, Rule first: one
	// problem that several rules find is one finding (see Combine).
	Rules []string `json:"rules,omitempty"`
	// Checks are the hosted pipeline's checks among them, Check first.
	Checks []string `json:"checks,omitempty"`
	// Related are what the other rules said of the same problem, each
	// whole, at its own place.
	Related []Related `json:"related,omitempty"`
	// History says the finding is about what the package already
	// shipped, linted without a baseline: HistoryReleased (a bundle its
	// catalogs hold, or the catalogs themselves) or HistorySuperseded (a
	// bundle directory no catalog holds, older than the newest bundle
	// they hold). Only what breaks an install from a catalog stays an
	// error there; "" for news.
	History string `json:"history,omitempty"`
	// Causes name the problem the finding is about, for Combine: findings
	// of one package and bundle that share a cause are one problem. Not
	// written: the rules make them, Combine reads them.
	Causes []string `json:"-"`
}

// Related is what one more rule said of a finding's problem.
type Related struct {
	Rule     string   `json:"rule"`
	Check    string   `json:"check,omitempty"`
	Severity Severity `json:"severity"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Message  string   `json:"message"`
}

// The histories of a finding (Finding.History).
const (
	HistoryReleased   = "released"
	HistorySuperseded = "superseded"
)

// The baseline states of a finding.
const (
	BaselineNew       = "new"
	BaselineUnchanged = "unchanged"
	// BaselineAbsent marks a finding of the baseline that the change
	// fixed (lint's Result.Fixed).
	BaselineAbsent = "absent"
)

// Location is "file:line", as much of it as is known.
func (f *Finding) Location() string {
	e := declcfg.Error{File: f.File, Line: f.Line}
	return e.Location()
}

// Subject names what the finding is about and the catalogs it is in,
// e.g. `bundle "foo.v1" (package "foo", channel "stable") in catalogs
// v4.16, v4.17`.
func (f *Finding) Subject() string {
	e := declcfg.Error{Package: f.Package, Channel: f.Channel, Bundle: f.Bundle}
	s := e.Subject()
	if cs := CatalogsText(f.Catalogs); cs != "" {
		if s == "" {
			return "in " + cs
		}
		s += " in " + cs
	}
	return s
}

// String is the finding's line: "file:line: severity rule: subject:
// message", the rule followed by the pipeline's check it stands for in
// brackets when it has one ("error operator-name [check_operator_name]").
func (f *Finding) String() string {
	var b strings.Builder
	if loc := f.Location(); loc != "" {
		b.WriteString(loc)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s %s", f.Severity, f.Rule)
	if f.Check != "" {
		fmt.Fprintf(&b, " [%s]", f.Check)
	}
	b.WriteString(": ")
	if s := f.Subject(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	b.WriteString(f.Message)
	b.WriteString(f.Marks())
	return b.String()
}

// Marks is what follows a finding's message: " (suppressed: REASON)",
// " (existing)" or " (released)", " (superseded)"; "" for none.
func (f *Finding) Marks() string {
	switch {
	case f.Suppressed != "":
		return fmt.Sprintf(" (suppressed: %s)", f.Suppressed)
	case f.BaselineState == BaselineUnchanged:
		return " (existing)"
	case f.History != "":
		return " (" + f.History + ")"
	}
	return ""
}

// Counts reports whether a finding can fail a run: it is not suppressed,
// the baseline does not already have it, and it is more than an info.
func (f *Finding) Counts() bool {
	return f.Suppressed == "" && f.BaselineState != BaselineUnchanged && f.Severity != Info
}
