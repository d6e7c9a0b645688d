package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/lint/finding"
)

// indented writes v as the command line writes its JSON: indented by two
// spaces, without HTML escaping.
func indented(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The document's members and their order are the interface scripts read.
func TestJSON(t *testing.T) {
	res := &lint.Result{Findings: []finding.Finding{{
		Rule: "crd-upgrade-unsafe", Severity: finding.Error, Package: "p", Bundle: "p.v2", File: "c.yaml", Line: 4, Message: "upgrade from p.v1: <x>",
		BaselineState: finding.BaselineNew, Catalogs: []string{"v4.16", "v4.17"},
		Reasons: []crdcompat.Change{{Kind: crdcompat.FieldRemoved, Version: "v1", Field: "spec.a", Message: "field removed", Line: 9}},
	}}}
	want := `{
  "passed": false,
  "findings": [
    {
      "rule": "crd-upgrade-unsafe",
      "severity": "error",
      "package": "p",
      "channel": "",
      "bundle": "p.v2",
      "file": "c.yaml",
      "line": 4,
      "message": "upgrade from p.v1: <x>",
      "catalogs": [
        "v4.16",
        "v4.17"
      ],
      "baselineState": "new",
      "reasons": [
        {
          "kind": "field-removed",
          "version": "v1",
          "field": "spec.a",
          "message": "field removed",
          "line": 9
        }
      ]
    }
  ],
  "summary": {
    "errors": 1,
    "warnings": 0,
    "infos": 0,
    "existing": 0,
    "suppressed": 0
  }
}
`
	if got := indented(t, JSON(res, false)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := indented(t, JSON(&lint.Result{}, true)); got != "{\n  \"passed\": true,\n  \"findings\": [],\n  \"summary\": {\n    \"errors\": 0,\n    \"warnings\": 0,\n    \"infos\": 0,\n    \"existing\": 0,\n    \"suppressed\": 0\n  }\n}\n" {
		t.Errorf("no findings: %s", got)
	}
	if got := indented(t, JSONFailure("bad")); got != "{\n  \"passed\": false,\n  \"error\": {\n    \"message\": \"bad\"\n  },\n  \"findings\": []\n}\n" {
		t.Errorf("failure: %s", got)
	}
}
