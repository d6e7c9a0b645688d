// Package finding holds what every room of lint shares: a Finding (one
// problem a rule found, at the file and line that causes it), its
// Severity and its state against a baseline, the order findings are
// reported in (Sort), and the verdict and counts of a run (Passed,
// Summarize). The rules (package lint) make findings, the baseline
// (lint/baseline) matches them, and the presenters (lint/report) write
// them.
package finding
