package validate

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/sarif"
)

func TestGroupProblems(t *testing.T) {
	// b/index.json is a copy of a/index.json: one cause, many problems.
	// Two bundles share one mistake: one line for both.
	noPackage := `{"schema":"olm.bundle","package":"foo","name":"foo.v%s","image":"quay.io/x/foo:%s","properties":[]}`
	res := run(t, map[string]string{
		"a/index.json": goodPackage,
		"b/index.json": goodPackage,
		"c/extra.json": strings.ReplaceAll(noPackage, "%s", "9.0.0") + "\n" + strings.ReplaceAll(noPackage, "%s", "9.1.0") + "\n",
	})
	groups := GroupProblems(res.Problems)
	var lines []string
	total := 0
	for _, g := range groups {
		lines = append(lines, g.String())
		total += len(g.Problems)
	}
	if total != len(res.Problems) {
		t.Fatalf("groups hold %d problems, want %d", total, len(res.Problems))
	}
	want := `cat/b/index.json:1: objects of package "foo" defined again (first in cat/a/index.json); keep one copy (6 problems: cat/b/index.json:1 package "foo"; :2 channel "stable"; :3 channel "fast"; :4 bundle "foo.v0.1.0"; :5 bundle "foo.v0.2.0"; :6 bundle "foo.v0.3.0")`
	if lines[0] != want {
		t.Errorf("duplicate package line:\n got %s\nwant %s", lines[0], want)
	}
	found := false
	for _, l := range lines[1:] {
		if strings.Contains(l, "defined again") {
			t.Errorf("the duplicate package is reported on more than one line: %s", l)
		}
		if strings.HasPrefix(l, "cat/c/extra.json:1: ") && strings.Contains(l, `(2 problems: cat/c/extra.json:1 bundle "foo.v9.0.0"; :2 bundle "foo.v9.1.0")`) {
			found = true
		}
	}
	if !found {
		t.Errorf("the two bundles with the same problem are not one line:\n%s", strings.Join(lines, "\n"))
	}
}

func TestGroupSingleProblemIsUnchanged(t *testing.T) {
	p := &declcfg.Error{File: "x.json", Line: 3, Schema: declcfg.SchemaBundle, Package: "p", Bundle: "b", Message: "m", Cause: "c"}
	groups := GroupProblems(declcfg.ErrorList{p})
	if len(groups) != 1 || groups[0].String() != p.Error() {
		t.Fatalf("got %+v", groups)
	}
}

// TestSARIF checks the log against what the SARIF 2.1.0 schema requires of
// the parts written: version and runs; a run's tool.driver.name; each
// rule's id; each result's message.text, a ruleIndex that points at its
// rule, and locations with a relative artifactLocation.uri and a region
// whose startLine and startColumn count from 1.
func TestSARIF(t *testing.T) {
	problems := declcfg.ErrorList{
		{File: "/work/repo/catalog/foo/index.json", Line: 4, Column: 7, Schema: declcfg.SchemaBundle, Package: "foo", Bundle: "foo.v1", Message: "image: must not be empty"},
		{File: "catalog/a b/x.yaml", Line: 2, Message: "document is not an object"},
		{File: "/elsewhere/c.json", Schema: declcfg.SchemaPackage, Package: "foo", Message: "no channels"},
		{File: "catalog/foo/index.json", Line: 9, Schema: declcfg.SchemaBundle, Package: "foo", Bundle: "foo.v2", Message: "other"},
	}
	log := SARIF(problems, sarif.Options{ToolName: "opm", ToolVersion: "v1.2.3", BaseDir: filepath.FromSlash("/work/repo"), Omitted: 5})
	data, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != "2.1.0" || doc["$schema"] == nil {
		t.Fatalf("version/$schema: %v", doc)
	}
	runs := doc["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs: %d", len(runs))
	}
	runObj := runs[0].(map[string]any)
	driver := runObj["tool"].(map[string]any)["driver"].(map[string]any)
	if driver["name"] != "opm" || driver["version"] != "v1.2.3" {
		t.Fatalf("driver: %v", driver)
	}
	ruleIDs := sarifRuleIDs(t, driver)
	if got := strings.Join(ruleIDs, ","); got != "olm.bundle,document,olm.package" {
		t.Errorf("rules: %s", got)
	}
	results := runObj["results"].([]any)
	if len(results) != len(problems) {
		t.Fatalf("%d results for %d problems", len(results), len(problems))
	}
	wantURI := []string{"catalog/foo/index.json", "catalog/a%20b/x.yaml", "file:///elsewhere/c.json", "catalog/foo/index.json"}
	wantLine := []float64{4, 2, 0, 9}
	for i, r := range results {
		checkSARIFResult(t, i, r.(map[string]any), ruleIDs, wantURI[i], wantLine[i])
	}
	if p := runObj["properties"].(map[string]any); p["omittedProblems"] != float64(5) {
		t.Errorf("properties: %v", p)
	}
	if first := results[0].(map[string]any); first["message"].(map[string]any)["text"] != `bundle "foo.v1" (package "foo"): image: must not be empty` {
		t.Errorf("message: %v", first["message"])
	}
}

// sarifRuleIDs lists the ids of the rules of a decoded SARIF driver.
func sarifRuleIDs(t *testing.T, driver map[string]any) []string {
	t.Helper()
	var ids []string
	for _, r := range driver["rules"].([]any) {
		id, _ := r.(map[string]any)["id"].(string)
		if id == "" {
			t.Fatalf("rule without id: %v", r)
		}
		ids = append(ids, id)
	}
	return ids
}

// checkSARIFResult checks the decoded result i: a message, a ruleIndex
// that points at its rule, level error, and a location at wantURI with a
// region at wantLine (none for 0) whose column counts from 1.
func checkSARIFResult(t *testing.T, i int, res map[string]any, ruleIDs []string, wantURI string, wantLine float64) {
	t.Helper()
	if text, _ := res["message"].(map[string]any)["text"].(string); text == "" {
		t.Errorf("result %d: no message.text", i)
	}
	idx := int(res["ruleIndex"].(float64))
	if ruleIDs[idx] != res["ruleId"] {
		t.Errorf("result %d: ruleIndex %d is %s, ruleId %v", i, idx, ruleIDs[idx], res["ruleId"])
	}
	if res["level"] != "error" {
		t.Errorf("result %d: level %v", i, res["level"])
	}
	phys := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	if uri := phys["artifactLocation"].(map[string]any)["uri"]; uri != wantURI {
		t.Errorf("result %d: uri %v, want %s", i, uri, wantURI)
	}
	region, _ := phys["region"].(map[string]any)
	if wantLine == 0 {
		if region != nil {
			t.Errorf("result %d: region without a line: %v", i, region)
		}
		return
	}
	if region["startLine"] != wantLine {
		t.Errorf("result %d: startLine %v, want %v", i, region["startLine"], wantLine)
	}
	if c, ok := region["startColumn"].(float64); ok && c < 1 {
		t.Errorf("result %d: startColumn %v", i, c)
	}
}
