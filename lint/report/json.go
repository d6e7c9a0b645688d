package report

import (
	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
)

// Document is the JSON document of a lint run (-o json): the verdict,
// every finding, the baseline's findings the change fixed and the
// counts; or, for a run that could not lint, the error and no findings.
// encoding/json writes it (indented, without HTML escaping, as every
// command's JSON is written).
type Document struct {
	Passed   bool              `json:"passed"`
	Error    *Problem          `json:"error,omitempty"`
	Findings []finding.Finding `json:"findings"`
	// Fixed are the baseline's findings the change fixed.
	Fixed   []finding.Finding `json:"fixed,omitempty"`
	Summary *finding.Summary  `json:"summary,omitempty"`
}

// Problem says why a run could not lint.
type Problem struct {
	Message string `json:"message"`
}

// JSON is the document of a run's result and verdict.
func JSON(res *lint.Result, passed bool) Document {
	sum := finding.Summarize(res.Findings)
	findings := res.Findings
	if findings == nil {
		findings = []finding.Finding{}
	}
	return Document{Passed: passed, Summary: &sum, Findings: findings, Fixed: res.Fixed}
}

// JSONFailure is the document of a run that could not lint: msg says
// why.
func JSONFailure(msg string) Document {
	return Document{Error: &Problem{Message: msg}, Findings: []finding.Finding{}}
}
