package baseline

import (
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

// The messages compared leave out the lines they quote.
func TestKey(t *testing.T) {
	a := finding.Finding{Rule: "default-channel-deprecated", Package: "p", Message: `deprecated (catalogs/v4.16/p/catalog.yaml:12: "x")`, Line: 3}
	b := a
	b.Message, b.Line = strings.Replace(a.Message, ":12:", ":40:", 1), 9
	if Key(&a) != Key(&b) {
		t.Error("a line decides")
	}
	b.Object = "CronJob x"
	if Key(&a) == Key(&b) {
		t.Error("the object does not decide")
	}
}

// A finding of more catalogs, or at another place (a catalog's line or
// its template's), is the same finding; one of another bundle is not.
func TestKeyCatalogs(t *testing.T) {
	a := finding.Finding{Rule: "csv-fields", Package: "p", Bundle: "p.v1", Message: "m", File: "catalogs/v4.16/p/catalog.yaml", Line: 40, Catalogs: []string{"v4.16"}}
	b := a
	b.File, b.Line, b.Catalogs = "operators/p/catalog-templates/basic.yaml", 12, []string{"v4.16", "v4.17"}
	if Key(&a) != Key(&b) {
		t.Error("the catalogs or the place decide")
	}
	b.Bundle = "p.v2"
	if Key(&a) == Key(&b) {
		t.Error("the bundle does not decide")
	}
}

// A finding the baseline has is unchanged, one it lacks new; the
// baseline's findings the change lacks are fixed, once each.
func TestMark(t *testing.T) {
	kept := finding.Finding{Rule: "r", Message: "kept", File: "a.yaml", Line: 3}
	moved := kept
	moved.Line = 7
	added := finding.Finding{Rule: "r", Message: "added"}
	gone := finding.Finding{Rule: "r", Message: "gone"}
	now := []finding.Finding{moved, added}
	fixed := Mark(now, []finding.Finding{kept, gone, gone})
	if now[0].BaselineState != finding.BaselineUnchanged || now[1].BaselineState != finding.BaselineNew {
		t.Errorf("states %q %q", now[0].BaselineState, now[1].BaselineState)
	}
	if len(fixed) != 1 || fixed[0].Message != "gone" || fixed[0].BaselineState != finding.BaselineAbsent {
		t.Errorf("fixed %+v", fixed)
	}
}
