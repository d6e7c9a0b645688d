package sarif

import (
	"bytes"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fbcat/opm/encoding/jsonout"
)

func TestURI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the cases use slash-separated absolute paths")
	}
	for _, c := range []struct{ file, base, want string }{
		{"/work/repo/catalog/foo/index.json", "/work/repo", "catalog/foo/index.json"},
		{"/work/repo2/x.json", "/work/repo", "file:///work/repo2/x.json"},
		{"/elsewhere/c.json", "", "file:///elsewhere/c.json"},
		{"./catalog/a b/x.yaml", "/work/repo", "catalog/a%20b/x.yaml"},
		{"catalog/100%/x.yaml", "", "catalog/100%25/x.yaml"},
	} {
		if got := URI(filepath.FromSlash(c.file), filepath.FromSlash(c.base)); got != c.want {
			t.Errorf("URI(%q, %q) = %q, want %q", c.file, c.base, got, c.want)
		}
	}
}

func TestLocations(t *testing.T) {
	if l := Locations("", 3, 4, ""); l != nil {
		t.Errorf("no file: %v", l)
	}
	if l := Locations("a.json", 0, 0, ""); len(l) != 1 || l[0].PhysicalLocation.Region != nil {
		t.Errorf("no line: %+v", l)
	}
	l := Locations("a.json", 3, 4, "")
	if r := l[0].PhysicalLocation.Region; r == nil || r.StartLine != 3 || r.StartColumn != 4 {
		t.Errorf("line and column: %+v", r)
	}
}

// TestWrite checks the bytes of a small log: field names and order,
// empty rules and results written as [], fields left out when empty, no
// HTML escaping, two-space indentation and a final newline.
func TestWrite(t *testing.T) {
	l := New(Options{ToolName: "opm", ToolVersion: "v1", InformationURI: "https://example.com/?a=1&b=2", Omitted: 2})
	var buf bytes.Buffer
	if err := jsonout.Write(&buf, l); err != nil {
		t.Fatal(err)
	}
	want := `{
  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
  "version": "2.1.0",
  "runs": [
    {
      "tool": {
        "driver": {
          "name": "opm",
          "version": "v1",
          "informationUri": "https://example.com/?a=1&b=2",
          "rules": []
        }
      },
      "results": [],
      "properties": {
        "omittedProblems": 2
      }
    }
  ]
}
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestResults(t *testing.T) {
	l := New(Options{ToolName: "opm"})
	run := &l.Runs[0]
	if i := run.AddRule(Rule{ID: "a"}); i != 0 {
		t.Errorf("first rule at %d", i)
	}
	i := run.AddRule(Rule{ID: "b", DefaultConfiguration: &RuleDefaults{Level: "warning"}})
	if i != 1 || run.Tool.Driver.Rules[i].ID != "b" {
		t.Errorf("second rule at %d: %+v", i, run.Tool.Driver.Rules)
	}
	run.Results = append(run.Results,
		Result{RuleID: "b", RuleIndex: i, Level: "warning", Message: Message{Text: "m"}},
		Result{RuleID: "b", RuleIndex: i, Level: "warning", Message: Message{Text: "n"}, BaselineState: "new"})
	var buf bytes.Buffer
	if err := jsonout.Write(&buf, l); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), `"baselineState"`); n != 1 {
		t.Errorf("baselineState written %d times, want only where set:\n%s", n, &buf)
	}
	if !strings.Contains(buf.String(), `"baselineState": "new"`) || strings.Contains(buf.String(), `"informationUri"`) {
		t.Errorf("log:\n%s", &buf)
	}
}

func TestFailure(t *testing.T) {
	l := Failure("no such directory", Options{ToolName: "opm"})
	inv := l.Runs[0].Invocations
	if len(inv) != 1 || inv[0].ExecutionSuccessful || len(inv[0].Notifications) != 1 ||
		inv[0].Notifications[0].Level != "error" || inv[0].Notifications[0].Message.Text != "no such directory" {
		t.Errorf("invocations: %+v", inv)
	}
	if len(l.Runs[0].Results) != 0 || l.Runs[0].Results == nil {
		t.Errorf("results: %#v", l.Runs[0].Results)
	}
}

func TestWithInformationURI(t *testing.T) {
	if got := (Options{}).WithInformationURI("https://a").InformationURI; got != "https://a" {
		t.Errorf("an empty URI is filled: got %q", got)
	}
	if got := (Options{InformationURI: "https://b"}).WithInformationURI("https://a").InformationURI; got != "https://b" {
		t.Errorf("a given URI is kept: got %q", got)
	}
}
