package suites

import (
	"encoding/json"
	"errors"
	"slices"
)

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

// resultJSON is a Result as the Store keeps it and the helper sends it:
// Stopped as its message.
type resultJSON struct {
	Stopped  string      `json:"stopped,omitempty"`
	Default  []Output    `json:"default,omitempty"`
	Optional [2][]Output `json:"optional"`
}

// MarshalJSON encodes the result as the Store keeps it.
func (r *Result) MarshalJSON() ([]byte, error) {
	if r.Stopped != nil {
		return json.Marshal(resultJSON{Stopped: r.Stopped.Error()})
	}
	return json.Marshal(resultJSON{Default: r.Default, Optional: r.Optional})
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (r *Result) UnmarshalJSON(data []byte) error {
	var j resultJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*r = Result{Default: j.Default, Optional: j.Optional}
	if j.Stopped != "" {
		*r = Result{Stopped: errors.New(j.Stopped)}
	}
	return nil
}

// Equal reports whether two results say the same (a stored or sent one
// and the one it was made of).
func (r *Result) Equal(o *Result) bool {
	if (r.Stopped == nil) != (o.Stopped == nil) || r.Stopped != nil && r.Stopped.Error() != o.Stopped.Error() {
		return false
	}
	eq := func(a, b []Output) bool {
		return slices.EqualFunc(a, b, func(x, y Output) bool {
			return x.Error == y.Error && x.Message == y.Message && x.File == y.File && x.Line == y.Line && slices.Equal(x.Causes, y.Causes)
		})
	}
	return eq(r.Default, o.Default) && eq(r.Optional[0], o.Optional[0]) && eq(r.Optional[1], o.Optional[1])
}
