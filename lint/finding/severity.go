package finding

import "fmt"

// Severity says how much a finding matters: an error breaks installs or
// upgrades; a warning is worth fixing; an info is ordinary practice worth
// knowing about, and never fails a run.
type Severity string

// The severities, from the least to the most severe.
const (
	Info    Severity = "info"
	Warning Severity = "warning"
	Error   Severity = "error"
)

// ParseSeverity reads a severity name: error, warning or info.
func ParseSeverity(s string) (Severity, error) {
	switch Severity(s) {
	case Info, Warning, Error:
		return Severity(s), nil
	}
	return "", fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// rank orders severities.
func (s Severity) rank() int {
	switch s {
	case Error:
		return 2
	case Warning:
		return 1
	}
	return 0
}

// AtLeast reports whether s is as severe as min or more.
func (s Severity) AtLeast(min Severity) bool { return s.rank() >= min.rank() }
