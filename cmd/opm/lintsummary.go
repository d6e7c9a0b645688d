package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/lint"
)

// appendLintSummary appends lint's pull-request summary to file (lint
// --summary), as GitHub Actions' $GITHUB_STEP_SUMMARY wants it: appended,
// never truncated. Nothing is written when file is "".
func appendLintSummary(file string, res *lint.Result, passed bool, baseline string) error {
	if file == "" {
		return nil
	}
	out, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("--summary: %w", err)
	}
	err = lint.WriteMarkdown(out, res, lint.MarkdownOptions{Passed: passed, Baseline: baseline})
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--summary %s: %w", file, err)
	}
	return nil
}

// writeLintSummaryFailure writes, for -o markdown and --summary, the
// summary of a run that could not lint.
func writeLintSummaryFailure(cmd *cobra.Command, f *lintFlags, err error) {
	if f.output.value == "markdown" {
		_ = lint.WriteMarkdownFailure(cmd.OutOrStdout(), err.Error())
	}
	if f.summary == "" {
		return
	}
	out, oerr := os.OpenFile(f.summary, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if oerr != nil {
		return // the error already says why lint could not run
	}
	_ = lint.WriteMarkdownFailure(out, err.Error())
	_ = out.Close()
}
