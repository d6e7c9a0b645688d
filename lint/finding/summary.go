package finding

// Passed reports whether no finding that counts (see Finding.Counts) is at
// least as severe as failOn.
func Passed(findings []Finding, failOn Severity) bool {
	for i := range findings {
		if findings[i].Counts() && findings[i].Severity.AtLeast(failOn) {
			return false
		}
	}
	return true
}

// Count returns the numbers of errors and warnings that count (see
// Finding.Counts).
func Count(findings []Finding) (errors, warnings int) {
	s := Summarize(findings)
	return s.Errors, s.Warnings
}

// Summary counts a run's findings: errors, warnings and infos among those
// that are neither existing nor suppressed, and apart from them the
// existing (the baseline has them) and the suppressed ones.
type Summary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Existing   int `json:"existing"`
	Suppressed int `json:"suppressed"`
}

// Summarize counts findings.
func Summarize(findings []Finding) Summary {
	var s Summary
	for i := range findings {
		f := &findings[i]
		switch {
		case f.Suppressed != "":
			s.Suppressed++
		case f.BaselineState == BaselineUnchanged:
			s.Existing++
		case f.Severity == Error:
			s.Errors++
		case f.Severity == Warning:
			s.Warnings++
		default:
			s.Infos++
		}
	}
	return s
}
