// Package sarif holds the parts of SARIF 2.1.0 (OASIS Static Analysis
// Results Interchange Format) that code-scanning tools read to show
// problems on the lines of a change. opm validate and opm alpha lint
// both build their logs with it and write them, as every report, with
// encoding/jsonout.
package sarif

// Schema is the JSON schema a log names; Version is the SARIF version.
const (
	Schema  = "https://json.schemastore.org/sarif-2.1.0.json"
	Version = "2.1.0"
)

// Log is a SARIF log.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is the run of one tool.
type Run struct {
	Tool        Tool           `json:"tool"`
	Invocations []Invocation   `json:"invocations,omitempty"`
	Results     []Result       `json:"results"`
	Props       map[string]any `json:"properties,omitempty"`
}

// Invocation says whether the tool ran to its end, and if not why.
type Invocation struct {
	ExecutionSuccessful bool           `json:"executionSuccessful"`
	Notifications       []Notification `json:"toolExecutionNotifications,omitempty"`
}

// Notification is a message about the run itself.
type Notification struct {
	Level   string  `json:"level"`
	Message Message `json:"message"`
}

// Tool describes the tool.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver names the tool and lists its rules.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule is a reportingDescriptor: one kind of problem.
type Rule struct {
	ID               string  `json:"id"`
	Name             string  `json:"name,omitempty"`
	ShortDescription Message `json:"shortDescription"`
	// FullDescription, Help and HelpURI say more about the rule and how to
	// fix what it finds; DefaultConfiguration gives its level.
	FullDescription      *Message      `json:"fullDescription,omitempty"`
	Help                 *Message      `json:"help,omitempty"`
	HelpURI              string        `json:"helpUri,omitempty"`
	DefaultConfiguration *RuleDefaults `json:"defaultConfiguration,omitempty"`
}

// RuleDefaults is a rule's reportingConfiguration: its level ("error",
// "warning" or "note").
type RuleDefaults struct {
	Level string `json:"level"`
}

// Message is a plain-text message.
type Message struct {
	Text string `json:"text"`
}

// Result is one problem.
type Result struct {
	RuleID    string     `json:"ruleId"`
	RuleIndex int        `json:"ruleIndex"`
	Level     string     `json:"level"`
	Message   Message    `json:"message"`
	Locations []Location `json:"locations,omitempty"`
	// BaselineState compares the result with a baseline run: "new",
	// "unchanged", "updated" or "absent"; left out when empty.
	BaselineState string `json:"baselineState,omitempty"`
	// Suppressions, when any, say that the result is suppressed and why.
	Suppressions []Suppression `json:"suppressions,omitempty"`
	// Properties are the tool's own facts about the result (SARIF's
	// property bag); left out when empty.
	Properties map[string]string `json:"properties,omitempty"`
}

// Suppression is why a result is suppressed: kind "inSource" or
// "external" (a configuration file), and the justification given.
type Suppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

// Location is where a problem is.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and a region in it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation names a file by URI.
type ArtifactLocation struct {
	URI string `json:"uri"`
}

// Region is a position: lines and columns count from 1.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}
