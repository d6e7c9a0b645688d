package validate

import (
	"fmt"
	"io"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/encoding/sarif"
	"github.com/fbcat/opm/option"
)

// Formats are the formats a result is written in besides the text
// report ("").
var Formats = []string{"json", "yaml", "sarif"}

// Output says how a result is written: Format "" is the report for
// people (one line per cause, the warnings, a summary), "json" and
// "yaml" the document (Document), "sarif" a SARIF 2.1.0 log;
// MaxProblems, if not 0, caps the problems written (the rest are
// counted); SARIF names the tool of a log; Words are how the caller
// names the options the report mentions (see option.Error.Say).
type Output struct {
	Format      string
	MaxProblems int
	SARIF       sarif.Options
	Words       map[option.Name]string
}

// optionMaxProblems is Output.MaxProblems.
const optionMaxProblems option.Name = "validate.Output.MaxProblems"

// Validate checks the output's options.
func (o Output) Validate() error {
	if o.MaxProblems < 0 {
		return option.Errorf(option.Invalid, "%s must be 0 (no limit) or more, not %d", optionMaxProblems, o.MaxProblems)
	}
	if o.Format != "" && !contains(Formats, o.Format) {
		return option.Invalidf("validate.Output.Format", "%q is no format: use %s", o.Format, strings.Join(Formats, ", "))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Document is the structured result. "passed" and "error.message" are
// what upstream prints; "problems" lists each problem on its own,
// "omitted" counts those MaxProblems left out.
type Document struct {
	Passed       bool             `json:"passed"`
	Error        *DocumentError   `json:"error,omitempty"`
	Problems     []*declcfg.Error `json:"problems"`
	Warnings     []*declcfg.Error `json:"warnings"`
	Omitted      int              `json:"omitted,omitempty"`
	GraphChecked bool             `json:"graphChecked"`
}

// DocumentError is the message of a failed validation.
type DocumentError struct {
	Message string `json:"message"`
}

// Write writes a result, with text (the report for people) and out (a
// document) as the format says; with res nil, the document of a
// validation that could not run (failure says why), and no report (the
// failure is the caller's error).
func (o Output) Write(out, text io.Writer, res *Result, failure string) error {
	var shown declcfg.ErrorList
	if res != nil {
		shown = res.Problems
		if o.MaxProblems > 0 && len(shown) > o.MaxProblems {
			shown = shown[:o.MaxProblems]
		}
	}
	switch {
	case o.Format == "" && res != nil:
		writeReport(text, res, shown, optionMaxProblems.In(o.Words))
	case o.Format == "":
	case o.Format == "sarif" && res == nil:
		return jsonout.Write(out, SARIFFailure(failure, o.SARIF))
	case o.Format == "sarif":
		so := o.SARIF
		so.Omitted = len(res.Problems) - len(shown)
		return jsonout.Write(out, SARIF(shown, so))
	case res == nil:
		return jsonout.WriteAs(out, o.Format, struct {
			Passed bool          `json:"passed"`
			Error  DocumentError `json:"error"`
		}{Error: DocumentError{Message: failure}})
	default:
		return jsonout.WriteAs(out, o.Format, document(res, shown))
	}
	return nil
}

// document is the Document of a result with the problems shown.
func document(res *Result, shown declcfg.ErrorList) Document {
	doc := Document{Passed: res.Passed(), Problems: shown, Omitted: len(res.Problems) - len(shown), GraphChecked: res.GraphChecked}
	if doc.Problems == nil {
		doc.Problems = []*declcfg.Error{}
	}
	doc.Warnings = make([]*declcfg.Error, len(res.Warnings))
	for i, w := range res.Warnings {
		doc.Warnings[i] = w.At
	}
	if !res.Passed() {
		lines := make([]string, len(shown))
		for i, p := range shown {
			lines[i] = p.Error()
		}
		doc.Error = &DocumentError{Message: strings.Join(lines, "\n")}
	}
	return doc
}

// writeReport prints the problems shown for people: one line per cause
// ("file:line:col: subject: message" for a problem of its own), then the
// warnings, one line per cause, then a summary (which says the cap with
// maxProblems, the caller's name for it).
func writeReport(w io.Writer, res *Result, shown declcfg.ErrorList, maxProblems string) {
	for _, g := range GroupProblems(shown) {
		fmt.Fprintln(w, g.String())
	}
	WriteWarnings(w, res.Warnings)
	if !res.GraphChecked {
		fmt.Fprintln(w, "note: checks across objects (channels, upgrade graphs, references) were skipped because some documents could not be read; fix those first")
	}
	n := len(res.Problems)
	if n == 0 {
		return
	}
	files := map[string]bool{}
	for _, p := range res.Problems {
		files[p.File] = true
	}
	fmt.Fprintf(w, "%d %s in %d %s", n, plural(n, "problem", "problems"), len(files), plural(len(files), "file", "files"))
	if left := n - len(shown); left > 0 {
		fmt.Fprintf(w, " (%d more left out by %s %d)", left, maxProblems, len(shown))
	}
	fmt.Fprintln(w)
}

// WriteWarnings prints warnings about data that does not survive
// loading, one line per cause: the first place, and how many more there
// are.
func WriteWarnings(w io.Writer, ws []declcfg.Warning) {
	for _, g := range declcfg.GroupWarnings(ws) {
		fmt.Fprintln(w, g)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
