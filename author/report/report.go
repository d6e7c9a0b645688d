// Package report writes what the catalog verbs did: a plan (the files
// written, or its diff for a dry run, and its notes), an expansion
// checked against the committed catalogs (drift), and a verb that failed,
// as text for people or as one JSON document (encoding/jsonout). The
// command line picks the format and writes with one call.
package report

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/internal/suggest"
	"github.com/fbcat/opm/option"
)

// Options say how a result is written.
type Options struct {
	// JSON writes one JSON document, else text.
	JSON bool
	// DryRun says the plan was not applied: text writes its diff.
	DryRun bool
	// FullDiff writes a dry run's diff in full (author.Plan.Diff), not
	// summarised for reading (author.Plan.ReadableDiff).
	FullDiff bool
	// Words are how the caller names options: what a plan was made
	// without and how to see a diff in full (see option.Error.Say).
	Words map[option.Name]string
}

// optionFullDiff is Options.FullDiff.
const optionFullDiff option.Name = "author/report.Options.FullDiff"

// Write writes a plan: with JSON, {"dryRun", "summary", "changes":
// [{"path", "kind", "action"}], "notes"}; else, for a dry run, its diff
// and then its summary on errOut, or each file written and the summary.
// Its notes go to errOut, each on a "note: " line.
func Write(out, errOut io.Writer, plan *author.Plan, o Options) error {
	if o.JSON {
		return writeJSON(out, plan, o)
	}
	if o.DryRun {
		diff := func(w io.Writer) error { return plan.ReadableDiff(w, optionFullDiff.In(o.Words)) }
		if o.FullDiff {
			diff = plan.Diff
		}
		if err := diff(out); err != nil {
			return err
		}
		fmt.Fprintf(errOut, "%s (dry run: nothing written)\n", plan.Summary)
	} else {
		for _, c := range plan.Changes {
			fmt.Fprintf(out, "%s %s\n", action(c), c.Path)
		}
		fmt.Fprintln(out, plan.Summary)
	}
	for _, n := range notes(plan, o.Words) {
		fmt.Fprintf(errOut, "note: %s\n", n)
	}
	return nil
}

// notes are a plan's notes, and what it was made without, said in
// words' words.
func notes(plan *author.Plan, words map[option.Name]string) []string {
	notes := slices.Clone(plan.Notes)
	for _, oe := range plan.Incomplete {
		notes = append(notes, oe.Say(words))
	}
	return notes
}

func action(c author.FileChange) string {
	if c.Created {
		return "created"
	}
	return "updated"
}

func writeJSON(w io.Writer, plan *author.Plan, o Options) error {
	type change struct {
		Path   string `json:"path"`
		Kind   string `json:"kind"`
		Action string `json:"action"`
	}
	doc := struct {
		DryRun  bool     `json:"dryRun"`
		Summary string   `json:"summary"`
		Changes []change `json:"changes"`
		Notes   []string `json:"notes"`
	}{DryRun: o.DryRun, Summary: plan.Summary, Changes: []change{}, Notes: notes(plan, o.Words)}
	if doc.Notes == nil {
		doc.Notes = []string{}
	}
	for _, c := range plan.Changes {
		doc.Changes = append(doc.Changes, change{c.Path, c.Kind, action(c)})
	}
	return jsonout.Write(w, doc)
}

// WriteFailure writes, with JSON, the document of a verb that failed:
// {"error": msg, "refused", and for a name the repository does not have,
// "didYouMean" (its near misses) or "names" (what there is)}; text
// writes nothing (the error is the caller's to print).
func WriteFailure(w io.Writer, err error, msg string, refused bool, o Options) error {
	if !o.JSON {
		return nil
	}
	doc := struct {
		Error      string   `json:"error"`
		Refused    bool     `json:"refused"`
		DidYouMean []string `json:"didYouMean,omitempty"`
		Names      []string `json:"names,omitempty"`
	}{Error: msg, Refused: refused}
	var unknown *suggest.Unknown
	var cfg *repoconfig.Problem
	switch {
	case errors.As(err, &unknown):
		doc.DidYouMean, doc.Names = unknown.Near, unknown.Known
	case errors.As(err, &cfg):
		doc.DidYouMean = cfg.Near // a release-config.yaml's first problem's
	}
	return jsonout.Write(w, doc)
}
