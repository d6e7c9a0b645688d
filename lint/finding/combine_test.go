package finding

import (
	"slices"
	"testing"
)

// rankOf ranks rules by their place in a list.
func rankOf(rules ...string) func(string) int {
	return func(r string) int { return slices.Index(rules, r) }
}

// Findings of one bundle that share a cause, directly or through another,
// are one, the most severe's (then the first by rank), naming every rule
// and check; the others' words are its Related.
func TestCombine(t *testing.T) {
	fs := []Finding{
		{Rule: "osdk-a", Check: "check_a", Severity: Error, Package: "p", Bundle: "b", File: "crd.yaml", Line: 17, Message: "present but not in the CSV", Causes: []string{CauseCRDVersions("foos.x"), CauseSaid("osdk", "crd.yaml", 17, "present")}},
		{Rule: "osdk-b", Check: "check_b", Severity: Error, Package: "p", Bundle: "b", File: "crd.yaml", Line: 17, Message: "present but not in the CSV", Causes: []string{CauseCRDVersions("foos.x"), CauseSaid("osdk", "crd.yaml", 17, "present")}},
		{Rule: "csv-crd-mismatch", Severity: Error, Package: "p", Bundle: "b", File: "csv.yaml", Line: 40, Message: "owns v1", Causes: []string{CauseCRDVersions("foos.x")}},
		{Rule: "crd-upgrade-unsafe", Severity: Error, Package: "p", Bundle: "b", File: "crd.yaml", Line: 1, Message: "stored version removed", Causes: []string{CauseCRDVersions("foos.x")}},
		{Rule: "csv-fields", Severity: Warning, Package: "p", Bundle: "b", File: "csv.yaml", Line: 3, Message: "no icon"},
		{Rule: "csv-crd-mismatch", Severity: Error, Package: "p", Bundle: "c", File: "c/csv.yaml", Line: 40, Message: "owns v1", Causes: []string{CauseCRDVersions("foos.x")}},
	}
	got := Combine(fs, rankOf("crd-upgrade-unsafe", "csv-crd-mismatch", "csv-fields", "osdk-a", "osdk-b"))
	if len(got) != 3 {
		t.Fatalf("want 3 findings, got %+v", got)
	}
	c := got[1]
	if c.Rule != "crd-upgrade-unsafe" || c.File != "crd.yaml" || c.Line != 1 ||
		!slices.Equal(c.Rules, []string{"crd-upgrade-unsafe", "csv-crd-mismatch", "osdk-a", "osdk-b"}) ||
		!slices.Equal(c.Checks, []string{"check_a", "check_b"}) || len(c.Related) != 3 {
		t.Fatalf("combined: %+v", c)
	}
	if got[0].Bundle != "c" || !slices.Equal(got[0].Rules, []string{"csv-crd-mismatch"}) {
		t.Errorf("another bundle's finding stays apart: %+v", got[0])
	}
	if !slices.Equal(got[2].Rules, []string{"csv-fields"}) || got[2].Checks != nil {
		t.Errorf("a finding without causes stays alone: %+v", got[2])
	}
}

// A suppressed finding does not speak for a problem another rule's
// finding still fails; the combined one is history only when all are.
func TestCombineSuppressedAndHistory(t *testing.T) {
	cause := []string{CauseCSVField("spec.displayName")}
	fs := []Finding{
		{Rule: "a", Severity: Error, Bundle: "b", File: "f", Line: 1, Message: "x", Suppressed: "known", Causes: cause, History: HistoryReleased},
		{Rule: "b", Severity: Warning, Bundle: "b", File: "f", Line: 1, Message: "y", Causes: cause, History: HistoryReleased},
	}
	got := Combine(fs, rankOf("a", "b"))
	if len(got) != 1 || got[0].Rule != "b" || got[0].Suppressed != "" || got[0].History != HistoryReleased || !slices.Equal(got[0].Rules, []string{"b", "a"}) {
		t.Fatalf("got %+v", got)
	}
	fs[1].Suppressed = "also known"
	if got := Combine(fs, rankOf("a", "b")); got[0].Suppressed == "" || got[0].Rule != "a" {
		t.Fatalf("all suppressed: %+v", got)
	}
	fs[1].Suppressed, fs[0].Suppressed, fs[1].History = "", "", ""
	if got := Combine(fs, rankOf("a", "b")); got[0].History != "" {
		t.Fatalf("news and history: %+v", got)
	}
}

// Findings of different catalogs linted on their own stay apart.
func TestCombineCatalogs(t *testing.T) {
	cause := []string{CauseCSVField("spec.icon")}
	fs := []Finding{
		{Rule: "a", Severity: Warning, Bundle: "b", File: "v4.16/c.yaml", Line: 1, Causes: cause, Catalogs: []string{"v4.16"}},
		{Rule: "b", Severity: Warning, Bundle: "b", File: "v4.17/c.yaml", Line: 1, Causes: cause, Catalogs: []string{"v4.17"}},
	}
	if got := Combine(fs, rankOf("a", "b")); len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
}

// The causes: an annotation is its own field, a field below a member of
// spec is the member's.
func TestCauseCSVField(t *testing.T) {
	for in, want := range map[string]string{
		"spec.provider.name":                "csv-field:spec.provider",
		"spec.displayName":                  "csv-field:spec.displayName",
		"metadata.annotations.categories":   "csv-field:metadata.annotations.categories",
		"metadata.annotations.alm-examples": "csv-field:metadata.annotations.alm-examples",
	} {
		if got := CauseCSVField(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
