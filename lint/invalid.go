package lint

import (
	"github.com/fbcat/opm/lint/finding"
)

// catalog-invalid: what opm validate rejects in a catalog that still
// loads (an empty channel, an upgrade graph without one head, a property
// of the wrong shape, ...), each problem a finding at its place. A change
// that breaks a catalog is then a new error like any other, and one that
// leaves an old problem alone is not blamed for it. A catalog that does
// not load at all stops the run (exit status 2).
const ruleCatalogInvalid = "catalog-invalid"

// invalidFindings makes the findings of a catalog's validation problems.
func invalidFindings(cat *catalog) []finding.Finding {
	out := make([]finding.Finding, 0, len(cat.problems))
	for _, p := range cat.problems {
		out = append(out, finding.Finding{
			Rule: ruleCatalogInvalid, Severity: finding.Error, Package: p.Package, Channel: p.Channel, Bundle: p.Bundle,
			File: p.File, Line: p.Line, Message: p.Message,
		})
	}
	return out
}
