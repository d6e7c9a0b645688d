package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
)

// TestWriteOptions: FailOn decides whether a result passes; a bad one,
// and a summary file that cannot be written, name their option.
func TestWriteOptions(t *testing.T) {
	warn := &lint.Result{Findings: []finding.Finding{{Rule: "r", Severity: finding.Warning, File: "f", Message: "m"}}}
	if !(Options{}).Passed(warn) || (Options{FailOn: "warning"}).Passed(warn) || (Options{}).Passed(nil) {
		t.Error("Passed")
	}
	for _, bad := range []string{"info", "fatal"} {
		if err := (Options{FailOn: bad}).Validate(); err == nil || err.Error() != `Options.FailOn "`+bad+`": use error or warning (infos never fail)` {
			t.Errorf("%s: %v", bad, err)
		}
	}
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	var out bytes.Buffer
	if err := Write(&out, "json", nil, Options{Failure: "why", Summary: summary}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(summary); !strings.Contains(out.String(), `"why"`) || !strings.Contains(string(data), "why") {
		t.Errorf("failure: %s / %s", out.String(), data)
	}
	err := Write(&out, "text", warn, Options{Summary: filepath.Join(dir, "no", "s.md")})
	if err == nil || !strings.HasPrefix(err.Error(), "Options.Summary: open ") {
		t.Errorf("an unwritable summary: %v", err)
	}
	out.Reset()
	if err := Write(&out, "text", nil, Options{Failure: "why"}); err != nil || out.Len() != 0 {
		t.Errorf("text of a failure: %q %v", out.String(), err)
	}
}
