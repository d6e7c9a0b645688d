package report

import (
	"github.com/fbcat/opm/lint/change"

	"github.com/fbcat/opm/lint/linttest"

	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/finding"
)

var updateMarkdown = flag.Bool("update", false, "rewrite the golden files of testdata/markdown")

// goldenDir is testdata/markdown, as an absolute path (tests change
// directory).
func goldenDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "markdown"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkGolden compares got with the golden file name of dir (rewritten
// with -update).
func checkGolden(t *testing.T, dir, name, got string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if *updateMarkdown {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -run %s -update rewrites it); got:\n%s", path, t.Name(), got)
	}
}

func markdownOf(t *testing.T, res *lint.Result, opts MarkdownOptions) string {
	t.Helper()
	var b strings.Builder
	if err := WriteMarkdown(&b, res, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A release in two OpenShift catalogs, linted against the catalogs
// before it: one section for both, the heads, the graphs, the findings.
func TestMarkdownRelease(t *testing.T) {
	golden, root := goldenDir(t), t.TempDir()
	for _, v := range []string{"v4.17", "v4.18"} {
		linttest.WriteFiles(t, filepath.Join(root, "base", v), map[string]string{"catalog.yaml": linttest.Chain3})
		linttest.WriteFiles(t, filepath.Join(root, "catalogs", v), map[string]string{"catalog.yaml": linttest.ChangedChain})
	}
	t.Chdir(root)
	changes := lintRun(t, []string{"catalogs"}, lint.Options{Baseline: "base"}).Changes
	// Findings as the baseline comparison marks them (made here, so that
	// the golden holds the summary's shape, not today's rule messages).
	res := &lint.Result{Changes: changes, Rules: lint.Rules()[:2], Findings: []finding.Finding{
		{Rule: "stranded-upgrade", Severity: finding.Error, Package: "etcd", Channel: "alpha", Bundle: "etcdoperator.v0.9.0", File: "catalogs/v4.17/catalog.yaml", Line: 9,
			Message: "installs of etcdoperator.v0.9.0 cannot upgrade", BaselineState: finding.BaselineNew, Catalogs: []string{"v4.17", "v4.18"}},
		{Rule: "csv-fields", Severity: finding.Warning, Package: "etcd", Message: "no icon", BaselineState: finding.BaselineUnchanged},
		{Rule: "csv-fields", Severity: finding.Warning, Package: "etcd", Message: "ignored", Suppressed: "known"},
	}}
	checkGolden(t, golden, "release.md", markdownOf(t, res, MarkdownOptions{Passed: false, Baseline: "origin/main"}))
}

// Without a baseline every finding that is not suppressed is listed, and
// no change is shown.
func TestMarkdownNoBaseline(t *testing.T) {
	res := &lint.Result{
		Rules: lint.Rules()[:3],
		Findings: []finding.Finding{
			{Rule: "removed-api", Severity: finding.Error, Package: "p", Bundle: "p.v1", File: "operators/p/1/manifests/x.yaml", Line: 3,
				Message: "uses policy/v1beta1 PodSecurityPolicy, removed in Kubernetes 1.25 (OpenShift >=4.12 <5); a|b *c* _d_ [e](f) `g`\nline"},
			{Rule: "csv-fields", Severity: finding.Warning, Message: "<script>alert(1)</script> & more"},
		},
		Notes: []string{"stranded-upgrade: not checked"},
	}
	checkGolden(t, goldenDir(t), "nobaseline.md", markdownOf(t, res, MarkdownOptions{Passed: false}))
}

// Names mermaid or markdown would read as syntax are escaped; caps keep
// a big change short.
func TestMarkdownEscapesAndCaps(t *testing.T) {
	weird := `we"ird <b>|x</b> [#1]; {y} ` + "`z`"
	var entries []change.Entry
	for i := 60; i > 0; i-- {
		e := change.Entry{Name: fmt.Sprintf("op.v1.0.%d", i), Version: fmt.Sprintf("1.0.%d", i)}
		if i > 1 {
			e.Replaces = fmt.Sprintf("op.v1.0.%d", i-1)
		}
		entries = append(entries, e)
	}
	after := append([]change.Entry{{Name: weird, Version: "2.0.0", Replaces: "op.v1.0.60", Skips: []string{"op.v1.0.59"}, SkipRange: ">=1.0.0 <2.0.0"}}, entries...)
	var added []string
	for i := range 25 {
		added = append(added, fmt.Sprintf("extra.v0.0.%d", i))
	}
	var channels []change.Channel
	for i := range maxMarkdownGraphs + 2 {
		channels = append(channels, change.Channel{Channel: fmt.Sprintf("c%02d", i), HeadAfter: "x", After: []change.Entry{{Name: "x"}}})
	}
	res := &lint.Result{Changes: []change.Catalog{
		{Catalog: "catalogs/v4.19/op", OpenShift: "v4.19", Packages: []change.Package{{
			Package: "op", Added: append([]string{weird}, added...),
			Channels: []change.Channel{{Channel: `st"able`, HeadBefore: "op.v1.0.60", HeadAfter: weird, Before: entries, After: after}},
		}}},
		{Catalog: "elsewhere", New: true, Packages: []change.Package{{Package: "many", New: true, Channels: channels}}},
	}}
	for i := range maxMarkdownFindings + 3 {
		res.Findings = append(res.Findings, finding.Finding{Rule: "r", Severity: finding.Warning, Message: fmt.Sprint(i), BaselineState: finding.BaselineNew})
	}
	got := markdownOf(t, res, MarkdownOptions{Passed: true, Baseline: "HEAD~1"})
	checkGolden(t, goldenDir(t), "caps.md", got)
	if strings.Contains(got, "<b>") || strings.Count(got, "```mermaid") != maxMarkdownGraphs {
		t.Errorf("not escaped or not capped")
	}
}

func TestTrimEntries(t *testing.T) {
	var entries []change.Entry
	for i := 100; i > 0; i-- {
		entries = append(entries, change.Entry{Name: fmt.Sprint(i), Replaces: fmt.Sprint(i - 1)})
	}
	got := trimEntries(entries, map[string]bool{"50": true, "100": true})
	var names []string
	for _, e := range got {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "100,99,51,50,49" {
		t.Fatalf("kept %v", names)
	}
	if got := trimEntries(entries[:maxGraphEntries], nil); len(got) != maxGraphEntries {
		t.Fatalf("a small channel is drawn whole: %d", len(got))
	}
}
