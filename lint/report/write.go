package report

import (
	"io"

	"github.com/fbcat/opm/encoding/jsonout"
	"github.com/fbcat/opm/encoding/sarif"
	"github.com/fbcat/opm/lint"
)

// The formats a lint result is written in.
var Formats = []string{"text", "json", "sarif", "markdown"}

// Options says how a result is written: whether the run passed (by its
// --fail-on), the baseline it was compared with ("" for none), and how a
// SARIF log names its tool and paths.
type Options struct {
	Passed   bool
	Baseline string
	SARIF    sarif.Options
}

// Write writes a lint result in a format of Formats ("" is text).
func Write(w io.Writer, format string, res *lint.Result, o Options) error {
	switch format {
	case "json":
		return jsonout.Write(w, JSON(res, o.Passed))
	case "sarif":
		return sarif.Write(w, SARIF(res, o.SARIF))
	case "markdown":
		return WriteMarkdown(w, res, MarkdownOptions{Passed: o.Passed, Baseline: o.Baseline})
	}
	return WriteText(w, res, o.Baseline != "")
}

// WriteFailure writes, in a format of Formats, the document of a run that
// could not lint (msg says why): JSON, SARIF and markdown say so, text
// writes nothing (the error is the command's).
func WriteFailure(w io.Writer, format, msg string, o Options) error {
	switch format {
	case "json":
		return jsonout.Write(w, JSONFailure(msg))
	case "sarif":
		return sarif.Write(w, SARIFFailure(msg, o.SARIF))
	case "markdown":
		return WriteMarkdownFailure(w, msg)
	}
	return nil
}
