package main

import (
	"fmt"
	"io"
	"os"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/report"
)

// appendLintSummary appends lint's pull-request summary to file (lint
// --summary). Nothing is written when file is "".
func appendLintSummary(file string, res *lint.Result, passed bool, baseline string) error {
	if file == "" {
		return nil
	}
	return appendSummary(file, func(w io.Writer) error {
		return report.WriteMarkdown(w, res, report.MarkdownOptions{Passed: passed, Baseline: baseline})
	})
}

// writeLintSummaryFailure writes, for --summary, the
// summary of a run that could not lint.
func writeLintSummaryFailure(f *lintFlags, err error) {
	if f.summary == "" {
		return
	}
	// a summary that cannot be written is left out: err already says why
	// lint could not run
	_ = appendSummary(f.summary, func(w io.Writer) error { return report.WriteMarkdownFailure(w, err.Error()) })
}

// appendSummary appends what write writes to file, as GitHub Actions'
// $GITHUB_STEP_SUMMARY wants it: appended, never truncated.
func appendSummary(file string, write func(io.Writer) error) error {
	out, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("--summary: %w", err)
	}
	err = write(out)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--summary %s: %w", file, err)
	}
	return nil
}
