package lint

import "testing"

// The same finding through two channels is kept once; findings whose
// reasons differ are both kept.
func TestSortFindingsReasons(t *testing.T) {
	f := Finding{Rule: ruleCRDUpgrade, Severity: Error, Package: "etcd", Bundle: "b", File: "c.yaml", Line: 3, Message: "m",
		Reasons: []Reason{{Kind: ReasonFieldRemoved, Field: "spec.a", Message: "field removed"}}}
	g := f
	g.Channel = "beta"
	if got := sortFindings([]Finding{f, g}); len(got) != 1 || got[0].Channel != "" {
		t.Fatalf("want 1 finding, got:%s", dump(got))
	}
	h := f
	h.Reasons = []Reason{{Kind: ReasonTypeChanged, Field: "spec.a", Message: "field removed"}}
	if got := sortFindings([]Finding{f, h}); len(got) != 2 {
		t.Fatalf("want 2 findings, got:%s", dump(got))
	}
}

func TestReasonsText(t *testing.T) {
	r := func(field string) Reason {
		return Reason{Kind: ReasonFieldRemoved, Version: "v1", Field: field, Message: "field removed"}
	}
	tests := []struct {
		reasons []Reason
		want    string
	}{
		{[]Reason{{Kind: ReasonScopeChanged, Message: "scope changed"}}, "CRD x: scope changed"},
		{[]Reason{r("a")}, "CRD x, version v1, field a: field removed"},
		{[]Reason{r("a"), {Kind: ReasonScopeChanged, Message: "scope changed"}}, "CRD x: 2 unsafe changes: (1) version v1, field a: field removed; (2) scope changed"},
		{[]Reason{r("a"), r("b"), r("c"), r("d"), r("e"), r("f")},
			"CRD x: 6 unsafe changes: (1) version v1, field a: field removed; (2) version v1, field b: field removed; (3) version v1, field c: field removed; (4) version v1, field d: field removed; (5) version v1, field e: field removed; and 1 more"},
	}
	for _, tt := range tests {
		if got := reasonsText("CRD x", tt.reasons); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}
