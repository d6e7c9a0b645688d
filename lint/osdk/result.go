package osdk

// Suite is an optional suite of operator-sdk bundle validate.
type Suite int

// The suites the pipeline runs.
const (
	// OperatorHub is --select-optional name=operatorhub: the deprecated
	// operatorhub validator alone.
	OperatorHub Suite = iota
	// OperatorFramework is --select-optional suite=operatorframework: the
	// operatorhubv2, capabilities, categories, alpha-deprecated-apis and
	// good-practices validators.
	OperatorFramework
)

// Output is one output of operator-sdk's JSON: an error or a warning,
// its message as printed, and the file and line it is about.
type Output struct {
	Error   bool
	Message string
	// File is the file the output is about, as a path from the bundle
	// directory ("manifests/x.clusterserviceversion.yaml"); "" for the
	// directory as a whole. Line is its line, 0 for the file.
	File string
	Line int
	// Causes name the problem the output is about in the words lint's
	// rules use (see finding.Causes): a CSV field, a CRD's versions, an
	// object whose API is removed; none when it is only the validator's.
	Causes []string
}

// Result is what operator-sdk prints for both suites.
type Result struct {
	// Stopped, when set, is why operator-sdk stops before it validates:
	// the bundle cannot be loaded. It then prints no JSON, and Default
	// and the suites are empty.
	Stopped error
	// Default are the outputs of the validators operator-sdk always runs,
	// which it prints whatever the suite.
	Default []Output
	// Optional are the outputs each suite adds, by Suite.
	Optional [2][]Output
}

// Outputs are the outputs operator-sdk prints for the suite s.
func (r *Result) Outputs(s Suite) []Output {
	out := make([]Output, 0, len(r.Default)+len(r.Optional[s]))
	return append(append(out, r.Default...), r.Optional[s]...)
}
