package sarif

import (
	"net/url"
	"path/filepath"
	"slices"
	"strings"
)

// Options names the tool of a log and how its file names are written.
type Options struct {
	// ToolName and ToolVersion name the tool in the log.
	ToolName, ToolVersion string
	// InformationURI is the tool's documentation.
	InformationURI string
	// BaseDir is the directory the artifact URIs are relative to (the
	// working directory, where code-scanning tools expect the repository
	// root); absolute file names below it are made relative to it.
	BaseDir string
	// Omitted is the number of problems left out of the log, recorded in
	// the run's properties (omittedProblems) when not zero.
	Omitted int
}

// WithInformationURI is o, with uri as the tool's documentation when o
// names none.
func (o Options) WithInformationURI(uri string) Options {
	if o.InformationURI == "" {
		o.InformationURI = uri
	}
	return o
}

// New makes a log with one run of the tool o names, with no rules and no
// results yet.
func New(o Options) *Log {
	run := Run{
		Tool:    Tool{Driver: Driver{Name: o.ToolName, Version: o.ToolVersion, InformationURI: o.InformationURI, Rules: []Rule{}}},
		Results: []Result{},
	}
	if o.Omitted > 0 {
		run.Props = map[string]any{"omittedProblems": o.Omitted}
	}
	return &Log{Schema: Schema, Version: Version, Runs: []Run{run}}
}

// Failure makes the log of a run that could not be done (msg says why):
// no results, and an invocation that failed.
func Failure(msg string, o Options) *Log {
	l := New(o)
	l.Runs[0].Invocations = []Invocation{{Notifications: []Notification{{Level: "error", Message: Message{Text: msg}}}}}
	return l
}

// AddRule appends a rule to the run's driver and returns its index, which
// the rule's results give as their RuleIndex.
func (r *Run) AddRule(rule Rule) int {
	r.Tool.Driver.Rules = append(r.Tool.Driver.Rules, rule)
	return len(r.Tool.Driver.Rules) - 1
}

// Locations is the location of a result at a file (relative to base when
// below it), line and column (0: not known); nil without a file.
func Locations(file string, line, column int, base string) []Location {
	if file == "" {
		return nil
	}
	loc := Location{PhysicalLocation: PhysicalLocation{ArtifactLocation: ArtifactLocation{URI: URI(file, base)}}}
	if line > 0 {
		loc.PhysicalLocation.Region = &Region{StartLine: line, StartColumn: column}
	}
	return []Location{loc}
}

// URI is file as a relative URI reference: relative to base when it lies
// below it, with forward slashes and escaped segments. A file elsewhere
// is an absolute file: URI.
func URI(file, base string) string {
	if filepath.IsAbs(file) && base != "" {
		if rel, err := filepath.Rel(base, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			file = rel
		}
	}
	if filepath.IsAbs(file) {
		p := filepath.ToSlash(file)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a drive letter
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	segs := strings.Split(filepath.ToSlash(filepath.Clean(file)), "/")
	segs = slices.DeleteFunc(segs, func(s string) bool { return s == "." })
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
