package finding

import (
	"slices"
	"strings"
	"testing"
)

func TestCatalogsText(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"v4.16"}, "catalog v4.16"},
		{[]string{"v4.16", "v4.17"}, "catalogs v4.16, v4.17"},
		{[]string{"v4.16", "v4.17", "v4.18"}, "catalogs v4.16, v4.17, v4.18"},
		{[]string{"v4.12", "v4.13", "v4.14", "v4.15", "v4.16", "v4.17", "v4.18", "v4.19"}, "8 catalogs (v4.12-v4.19)"},
	} {
		if got := CatalogsText(tt.in); got != tt.want {
			t.Errorf("CatalogsText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Catalogs are ordered by OpenShift version (v4.9 before v4.10), other
// names after them.
func TestJoinCatalogs(t *testing.T) {
	got := JoinCatalogs([]string{"v4.10", "v4.12"}, []string{"custom", "v4.9", "v4.10"})
	if want := []string{"v4.9", "v4.10", "v4.12", "custom"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Findings of several catalogs with one key are one, the first
// catalog's, naming them all; findings with other keys stay apart, in
// their order.
func TestMerge(t *testing.T) {
	fs := []Finding{
		{Rule: "csv-fields", Severity: Warning, Bundle: "b", File: "t.yaml", Line: 9, Message: "m", Channel: "fast", Catalogs: []string{"v4.17"}},
		{Rule: "csv-fields", Severity: Warning, Bundle: "c", File: "t.yaml", Line: 12, Message: "m", Catalogs: []string{"v4.17"}},
		{Rule: "csv-fields", Severity: Warning, Bundle: "b", File: "t.yaml", Line: 9, Message: "m", Channel: "stable", Catalogs: []string{"v4.9"}},
		{Rule: "csv-fields", Severity: Warning, Bundle: "b", File: "t.yaml", Line: 9, Message: "m", Catalogs: []string{"v4.10"}},
	}
	got := Merge(fs, []string{"b", "c", "b", "b"})
	if len(got) != 2 || got[0].Bundle != "b" || got[1].Bundle != "c" {
		t.Fatalf("got %+v", got)
	}
	if got[0].Channel != "stable" || !slices.Equal(got[0].Catalogs, []string{"v4.9", "v4.10", "v4.17"}) {
		t.Errorf("want the finding of v4.9 naming the three catalogs, got %+v", got[0])
	}
	if s := got[0].String(); !strings.HasPrefix(s, `t.yaml:9: warning csv-fields: bundle "b" (channel "stable") in catalogs v4.9, v4.10, v4.17: m`) {
		t.Errorf("String: %s", s)
	}
}

// Sort keeps once the same finding made in two catalogs at the same
// place (a bundle directory's file), naming both.
func TestSortJoinsCatalogs(t *testing.T) {
	f := Finding{Rule: "crd-upgrade-unsafe", Severity: Error, Bundle: "b", File: "b/manifests/crd.yaml", Line: 1, Message: "m"}
	g, h := f, f
	g.Catalogs, h.Catalogs = []string{"v4.17"}, []string{"v4.16"}
	got := Sort([]Finding{g, f, h})
	if len(got) != 1 || !slices.Equal(got[0].Catalogs, []string{"v4.16", "v4.17"}) {
		t.Fatalf("got %+v", got)
	}
}
