package validate

import (
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/sarif"
)

// fbcURI documents file-based catalogs: the informationUri of a log when
// its options give none.
const fbcURI = "https://olm.operatorframework.io/docs/reference/file-based-catalogs/"

// SARIF makes a SARIF 2.1.0 log of problems: one result per problem, at
// its file, line and column. The rules are the kinds of object problems
// are about (olm.package, olm.bundle, a user's schema...) and "document"
// for files that could not be read as catalog data.
func SARIF(problems declcfg.ErrorList, o sarif.Options) *sarif.Log {
	log := sarif.New(o.WithInformationURI(fbcURI))
	run := &log.Runs[0]
	rules := map[string]int{}
	for _, p := range problems {
		id := sarifRuleID(p)
		if _, ok := rules[id]; !ok {
			rules[id] = run.AddRule(sarif.Rule{ID: id, ShortDescription: sarif.Message{Text: sarifRuleText(id)}})
		}
		text := p.Message
		if s := p.Subject(); s != "" {
			text = s + ": " + text
		}
		r := sarif.Result{RuleID: id, RuleIndex: rules[id], Level: "error", Message: sarif.Message{Text: text}}
		r.Locations = sarif.Locations(p.File, p.Line, p.Column, o.BaseDir)
		run.Results = append(run.Results, r)
	}
	return log
}

// SARIFFailure makes the SARIF log of a validation that could not run
// (msg says why): no results, and an invocation that failed.
func SARIFFailure(msg string, o sarif.Options) *sarif.Log {
	return sarif.Failure(msg, o.WithInformationURI(fbcURI))
}

func sarifRuleID(p *declcfg.Error) string {
	if p.Schema == "" {
		return "document"
	}
	return p.Schema
}

func sarifRuleText(id string) string {
	if id == "document" {
		return "A file in the catalog directory that cannot be read as catalog data"
	}
	return "A problem with a blob of schema " + id + " or the objects it refers to"
}
