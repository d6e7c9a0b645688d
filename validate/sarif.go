package validate

import (
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
)

// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format): the
// parts code-scanning tools read to show problems on the lines of a change.

// SARIFLog is a SARIF 2.1.0 log with one run.
type SARIFLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []SARIFRun `json:"runs"`
}

// SARIFRun is the run of one tool.
type SARIFRun struct {
	Tool        SARIFTool         `json:"tool"`
	Invocations []SARIFInvocation `json:"invocations,omitempty"`
	Results     []SARIFResult     `json:"results"`
	Props       map[string]any    `json:"properties,omitempty"`
}

// SARIFInvocation says whether the tool ran to its end, and if not why.
type SARIFInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []SARIFNotification `json:"toolExecutionNotifications,omitempty"`
}

// SARIFNotification is a message about the run itself.
type SARIFNotification struct {
	Level   string       `json:"level"`
	Message SARIFMessage `json:"message"`
}

// SARIFTool describes the tool.
type SARIFTool struct {
	Driver SARIFDriver `json:"driver"`
}

// SARIFDriver names the tool and lists its rules.
type SARIFDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []SARIFRule `json:"rules"`
}

// SARIFRule is a reportingDescriptor: one kind of problem.
type SARIFRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name,omitempty"`
	ShortDescription SARIFMessage `json:"shortDescription"`
	// FullDescription, Help and HelpURI say more about the rule and how to
	// fix what it finds; DefaultConfiguration gives its level.
	FullDescription      *SARIFMessage      `json:"fullDescription,omitempty"`
	Help                 *SARIFMessage      `json:"help,omitempty"`
	HelpURI              string             `json:"helpUri,omitempty"`
	DefaultConfiguration *SARIFRuleDefaults `json:"defaultConfiguration,omitempty"`
}

// SARIFRuleDefaults is a rule's reportingConfiguration: its level
// ("error", "warning" or "note").
type SARIFRuleDefaults struct {
	Level string `json:"level"`
}

// SARIFMessage is a plain-text message.
type SARIFMessage struct {
	Text string `json:"text"`
}

// SARIFResult is one problem.
type SARIFResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   SARIFMessage    `json:"message"`
	Locations []SARIFLocation `json:"locations,omitempty"`
}

// SARIFLocation is where a problem is.
type SARIFLocation struct {
	PhysicalLocation SARIFPhysicalLocation `json:"physicalLocation"`
}

// SARIFPhysicalLocation is a file and a region in it.
type SARIFPhysicalLocation struct {
	ArtifactLocation SARIFArtifactLocation `json:"artifactLocation"`
	Region           *SARIFRegion          `json:"region,omitempty"`
}

// SARIFArtifactLocation names a file by URI.
type SARIFArtifactLocation struct {
	URI string `json:"uri"`
}

// SARIFRegion is a position: lines and columns count from 1.
type SARIFRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// SARIFOptions configures SARIF.
type SARIFOptions struct {
	// ToolName and ToolVersion name the tool in the log.
	ToolName, ToolVersion string
	// BaseDir is the directory the artifact URIs are relative to (the
	// working directory, where code-scanning tools expect the repository
	// root); absolute file names below it are made relative to it.
	BaseDir string
	// Omitted is the number of problems left out of the log, recorded in
	// the run's properties when not zero.
	Omitted int
	// InformationURI is the tool's documentation; the file-based catalog
	// reference when empty.
	InformationURI string
}

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIF makes a SARIF log of problems: one result per problem, at its file,
// line and column. The rules are the kinds of object problems are about
// (olm.package, olm.bundle, a user's schema...) and "document" for files
// that could not be read as catalog data.
func SARIF(problems declcfg.ErrorList, o SARIFOptions) *SARIFLog {
	log := NewSARIFLog(o)
	run := &log.Runs[0]
	rules := map[string]int{}
	for _, p := range problems {
		id := sarifRuleID(p)
		if _, ok := rules[id]; !ok {
			rules[id] = len(run.Tool.Driver.Rules)
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, SARIFRule{ID: id, ShortDescription: SARIFMessage{Text: sarifRuleText(id)}})
		}
		text := p.Message
		if s := p.Subject(); s != "" {
			text = s + ": " + text
		}
		r := SARIFResult{RuleID: id, RuleIndex: rules[id], Level: "error", Message: SARIFMessage{Text: text}}
		r.Locations = SARIFLocations(p.File, p.Line, p.Column, o.BaseDir)
		run.Results = append(run.Results, r)
	}
	return log
}

// NewSARIFLog makes a log with one run of the tool o names, with no rules
// and no results yet.
func NewSARIFLog(o SARIFOptions) *SARIFLog {
	uri := o.InformationURI
	if uri == "" {
		uri = "https://olm.operatorframework.io/docs/reference/file-based-catalogs/"
	}
	run := SARIFRun{
		Tool:    SARIFTool{Driver: SARIFDriver{Name: o.ToolName, Version: o.ToolVersion, InformationURI: uri, Rules: []SARIFRule{}}},
		Results: []SARIFResult{},
	}
	if o.Omitted > 0 {
		run.Props = map[string]any{"omittedProblems": o.Omitted}
	}
	return &SARIFLog{Schema: sarifSchema, Version: "2.1.0", Runs: []SARIFRun{run}}
}

// SARIFLocations is the location of a result at a file (relative to base
// when below it), line and column (0: not known); nil without a file.
func SARIFLocations(file string, line, column int, base string) []SARIFLocation {
	if file == "" {
		return nil
	}
	loc := SARIFLocation{PhysicalLocation: SARIFPhysicalLocation{ArtifactLocation: SARIFArtifactLocation{URI: sarifURI(file, base)}}}
	if line > 0 {
		loc.PhysicalLocation.Region = &SARIFRegion{StartLine: line, StartColumn: column}
	}
	return []SARIFLocation{loc}
}

// SARIFFailure makes the SARIF log of a validation that could not run
// (msg says why): no results, and an invocation that failed.
func SARIFFailure(msg string, o SARIFOptions) *SARIFLog {
	log := SARIF(nil, o)
	log.Runs[0].Invocations = []SARIFInvocation{{Notifications: []SARIFNotification{{Level: "error", Message: SARIFMessage{Text: msg}}}}}
	return log
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

// sarifURI is file as a relative URI reference: relative to base when it
// lies below it, with forward slashes and escaped segments.
func sarifURI(file, base string) string {
	if filepath.IsAbs(file) && base != "" {
		if rel, err := filepath.Rel(base, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			file = rel
		}
	}
	if filepath.IsAbs(file) {
		p := filepath.ToSlash(file)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a drive letter
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	segs := strings.Split(filepath.ToSlash(filepath.Clean(file)), "/")
	segs = slices.DeleteFunc(segs, func(s string) bool { return s == "." })
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
