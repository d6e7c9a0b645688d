package report

import (
	"strings"

	"github.com/fbcat/opm/encoding/sarif"
	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
)

// docsURI is the page that documents the rules.
const docsURI = "https://github.com/fbcat/opm/blob/main/docs/lint.md"

// SARIF makes a SARIF 2.1.0 log of a lint result: every rule that ran with
// its description, help and default level, and one result per finding at
// its file and line, with its baseline state and suppression, and in its
// properties the pipeline check it stands for ("check"), every rule and
// check of a problem several rules found ("rules", "checks", comma
// separated; the message ends with what the others said), the catalogs
// it was found in ("catalogs": "v4.16,v4.17"; its message names them
// too) and, of history, "history" (released or superseded). The tool's informationUri
// is the rules' page unless o names another.
func SARIF(res *lint.Result, o sarif.Options) *sarif.Log {
	log := sarif.New(o.WithInformationURI(docsURI))
	run := &log.Runs[0]
	index := map[string]int{}
	for _, r := range res.Rules {
		index[r.ID] = run.AddRule(sarifRule(r))
	}
	for i := range res.Findings {
		run.Results = append(run.Results, sarifResult(&res.Findings[i], index, o))
	}
	// The findings the change fixed are left out (absent): code scanning
	// would show any result as an alert.
	return log
}

// sarifResult is a finding's result.
func sarifResult(f *finding.Finding, index map[string]int, o sarif.Options) sarif.Result {
	text := f.Message
	if s := f.Subject(); s != "" {
		text = s + ": " + text
	}
	r := sarif.Result{
		RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity),
		Message:       sarif.Message{Text: text},
		Locations:     sarif.Locations(f.File, f.Line, 0, o.BaseDir),
		BaselineState: f.BaselineState,
	}
	props := map[string]string{}
	if f.Check != "" {
		props["check"] = f.Check
	}
	if len(f.Checks) > 1 {
		props["checks"] = strings.Join(f.Checks, ",")
	}
	if len(f.Rules) > 1 {
		props["rules"] = strings.Join(f.Rules, ",")
	}
	if len(f.Catalogs) > 0 {
		props["catalogs"] = strings.Join(f.Catalogs, ",")
	}
	if f.History != "" {
		props["history"] = f.History
	}
	if len(props) > 0 {
		r.Properties = props
	}
	for _, rel := range f.Related {
		r.Message.Text += "\nalso " + rel.Rule + ": " + rel.Message
	}
	if f.Suppressed != "" {
		r.Suppressions = []sarif.Suppression{{Kind: "external", Justification: f.Suppressed}}
	}
	return r
}

// sarifLevel is a severity's SARIF level: an info is a note.
func sarifLevel(s finding.Severity) string {
	if s == finding.Info {
		return "note"
	}
	return string(s)
}

// SARIFFailure makes the SARIF log of a lint that could not run (msg says
// why): no rules, no results, and an invocation that failed.
func SARIFFailure(msg string, o sarif.Options) *sarif.Log {
	return sarif.Failure(msg, o.WithInformationURI(docsURI))
}

// sarifRule is a rule's reportingDescriptor.
func sarifRule(r lint.Rule) sarif.Rule {
	return sarif.Rule{
		ID:                   r.ID,
		Name:                 sarifName(r.ID),
		ShortDescription:     sarif.Message{Text: r.Description},
		FullDescription:      &sarif.Message{Text: r.Description + "."},
		Help:                 &sarif.Message{Text: r.Help + "."},
		HelpURI:              docsURI + "#" + r.ID,
		DefaultConfiguration: &sarif.RuleDefaults{Level: sarifLevel(r.Severity)},
	}
}

// sarifName is a rule ID in the UpperCamelCase SARIF suggests for names:
// removed-api is RemovedApi.
func sarifName(id string) string {
	out := make([]byte, 0, len(id))
	up := true
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c == '-':
			up = true
			continue
		case up && c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		up = false
		out = append(out, c)
	}
	return string(out)
}
