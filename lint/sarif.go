package lint

import (
	"github.com/fbcat/opm/validate"
)

// docsURI is the page that documents the rules.
const docsURI = "https://github.com/fbcat/opm/blob/main/docs/lint.md"

// SARIF makes a SARIF 2.1.0 log of a lint result (with package validate's
// types, which opm validate -o sarif writes too): every rule that ran with
// its description, help and default level, and one result per finding at
// its file and line.
func SARIF(res *Result, o validate.SARIFOptions) *validate.SARIFLog {
	if o.InformationURI == "" {
		o.InformationURI = docsURI
	}
	log := validate.NewSARIFLog(o)
	run := &log.Runs[0]
	index := map[string]int{}
	for _, r := range res.Rules {
		index[r.ID] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule(r))
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		text := f.Message
		if s := f.Subject(); s != "" {
			text = s + ": " + text
		}
		run.Results = append(run.Results, validate.SARIFResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: string(f.Severity),
			Message:   validate.SARIFMessage{Text: text},
			Locations: validate.SARIFLocations(f.File, f.Line, 0, o.BaseDir),
		})
	}
	return log
}

// sarifRule is a rule's reportingDescriptor.
func sarifRule(r Rule) validate.SARIFRule {
	return validate.SARIFRule{
		ID:                   r.ID,
		Name:                 sarifName(r.ID),
		ShortDescription:     validate.SARIFMessage{Text: r.Description},
		FullDescription:      &validate.SARIFMessage{Text: r.Description + "."},
		Help:                 &validate.SARIFMessage{Text: r.Help + "."},
		HelpURI:              docsURI + "#" + r.ID,
		DefaultConfiguration: &validate.SARIFRuleDefaults{Level: string(r.Severity)},
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
