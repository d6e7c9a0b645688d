package finding

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/crdcompat"
)

func TestSeverity(t *testing.T) {
	if s, err := ParseSeverity("warning"); err != nil || s != Warning {
		t.Fatal(s, err)
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Fatal("fatal is no severity")
	}
	fs := []Finding{{Severity: Warning}, {Severity: Warning}}
	if !Passed(fs, Error) || Passed(fs, Warning) {
		t.Error("Passed")
	}
	fs = append(fs, Finding{Severity: Error})
	if e, w := Count(fs); e != 1 || w != 2 {
		t.Errorf("Count: %d %d", e, w)
	}
}

// Existing and suppressed findings never fail a run, and are counted
// apart.
func TestSummarize(t *testing.T) {
	fs := []Finding{
		{Severity: Error, BaselineState: BaselineUnchanged},
		{Severity: Error, Suppressed: "known"},
		{Severity: Warning, BaselineState: BaselineNew},
		{Severity: Info},
	}
	want := Summary{Warnings: 1, Infos: 1, Existing: 1, Suppressed: 1}
	if got := Summarize(fs); got != want {
		t.Errorf("Summarize: %+v, want %+v", got, want)
	}
	if !Passed(fs, Error) || Passed(fs, Warning) {
		t.Error("Passed")
	}
}

func TestFindingString(t *testing.T) {
	f := Finding{Rule: "dangling-reference", Severity: Warning, Package: "etcd", Channel: "alpha", Bundle: "etcdoperator.v0.9.2", File: "catalog.yaml", Line: 10, Message: "m"}
	want := `catalog.yaml:10: warning dangling-reference: bundle "etcdoperator.v0.9.2" (package "etcd", channel "alpha"): m`
	if f.String() != want {
		t.Errorf("got  %s\nwant %s", f.String(), want)
	}
	f = Finding{Rule: "stranded-upgrade", Severity: Error, Package: "etcd", File: "catalog", Message: "m"}
	if got := f.String(); got != `catalog: error stranded-upgrade: package "etcd": m` {
		t.Errorf("got %s", got)
	}
	f.BaselineState = BaselineUnchanged
	if got := f.String(); !strings.HasSuffix(got, " (existing)") {
		t.Errorf("got %s", got)
	}
	// The same finding through two channels is kept once.
	fs := Sort([]Finding{{File: "b", Message: "x", Channel: "stable"}, {File: "a"}, {File: "b", Message: "x", Channel: "alpha"}})
	if len(fs) != 2 || fs[1].Channel != "alpha" {
		t.Errorf("Sort: %+v", fs)
	}
}

// The same finding through two channels is kept once; findings whose
// reasons differ are both kept.
func TestSortReasons(t *testing.T) {
	f := Finding{Rule: "crd-upgrade-unsafe", Severity: Error, Package: "etcd", Bundle: "b", File: "c.yaml", Line: 3, Message: "m",
		Reasons: []crdcompat.Change{{Kind: crdcompat.FieldRemoved, Field: "spec.a", Message: "field removed"}}}
	g := f
	g.Channel = "beta"
	if got := Sort([]Finding{f, g}); len(got) != 1 || got[0].Channel != "" {
		t.Fatalf("want 1 finding, got %+v", got)
	}
	h := f
	h.Reasons = []crdcompat.Change{{Kind: crdcompat.TypeChanged, Field: "spec.a", Message: "field removed"}}
	if got := Sort([]Finding{f, h}); len(got) != 2 {
		t.Fatalf("want 2 findings, got %+v", got)
	}
}
