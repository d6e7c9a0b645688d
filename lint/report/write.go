package report

import (
	"cmp"
	"io"
	"os"

	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/encoding/sarif"
	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/option"
)

// The formats a lint result is written in.
var Formats = []string{"text", "json", "sarif", "markdown"}

// Options says how a result is written: the least severity of a new
// finding that fails the run (FailOn: error or warning; infos never
// fail; "" is error), the baseline it was compared with ("" for none),
// how a SARIF log names its tool and paths; for a run that could not
// lint, Failure says why; Summary, if set, is a file the pull-request
// summary is appended to as well (GitHub Actions' $GITHUB_STEP_SUMMARY).
type Options struct {
	FailOn   string
	Baseline string
	SARIF    sarif.Options
	Failure  string
	Summary  string
}

// The options of Options, as errors name them.
const (
	optionSummary option.Name = "lint/report.Options.Summary"
	optionFailOn  option.Name = "lint/report.Options.FailOn"
)

// Validate checks FailOn.
func (o Options) Validate() error {
	if s, err := finding.ParseSeverity(cmp.Or(o.FailOn, string(finding.Error))); err != nil || s == finding.Info {
		return option.Errorf(option.Invalid, "%s %q: use error or warning (infos never fail)", optionFailOn, o.FailOn)
	}
	return nil
}

// Passed reports whether a result passes: no new, unsuppressed finding
// as severe as FailOn.
func (o Options) Passed(res *lint.Result) bool {
	failOn, _ := finding.ParseSeverity(cmp.Or(o.FailOn, string(finding.Error)))
	return res != nil && finding.Passed(res.Findings, failOn)
}

// Write writes a lint result in a format of Formats ("" is text) or,
// with res nil, the document of a run that could not lint (o.Failure):
// JSON, SARIF and markdown say so, text writes nothing (the error is the
// caller's). With o.Summary, the summary is appended to that file too.
func Write(w io.Writer, format string, res *lint.Result, o Options) error {
	var err error
	switch format {
	case "json":
		if res == nil {
			err = jsonout.Write(w, JSONFailure(o.Failure))
		} else {
			err = jsonout.Write(w, JSON(res, o.Passed(res)))
		}
	case "sarif":
		if res == nil {
			err = jsonout.Write(w, SARIFFailure(o.Failure, o.SARIF))
		} else {
			err = jsonout.Write(w, SARIF(res, o.SARIF))
		}
	case "markdown":
		err = writeMarkdown(w, res, o)
	default:
		if res != nil {
			err = WriteText(w, res, o.Baseline != "")
		}
	}
	if err != nil || o.Summary == "" {
		return err
	}
	return appendSummary(o.Summary, res, o)
}

// writeMarkdown writes the pull-request summary of a result, or of a run
// that could not lint.
func writeMarkdown(w io.Writer, res *lint.Result, o Options) error {
	if res == nil {
		return WriteMarkdownFailure(w, o.Failure)
	}
	return WriteMarkdown(w, res, MarkdownOptions{Passed: o.Passed(res), Baseline: o.Baseline})
}

// appendSummary appends the summary to file, as GitHub Actions'
// $GITHUB_STEP_SUMMARY wants it: appended, never truncated.
func appendSummary(file string, res *lint.Result, o Options) error {
	out, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return option.Errorf(option.Invalid, "%s: %w", optionSummary, err)
	}
	err = writeMarkdown(out, res, o)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return option.Errorf(option.Invalid, "%s %s: %w", optionSummary, file, err)
	}
	return nil
}
