package lint

import (
	"path/filepath"

	"github.com/fbcat/opm/declcfg"
)

// catalog-invalid: what opm validate rejects in a catalog that still
// loads (an empty channel, an upgrade graph without one head, a property
// of the wrong shape, ...), each problem a finding at its place. A change
// that breaks a catalog is then a new error like any other, and one that
// leaves an old problem alone is not blamed for it. A catalog that does
// not load at all stops the run (exit status 2).

// invalidFindings makes the findings of a catalog's validation problems.
func invalidFindings(cat *catalog) []Finding {
	out := make([]Finding, 0, len(cat.problems))
	for _, p := range cat.problems {
		out = append(out, Finding{
			Rule: ruleCatalogInvalid, Severity: Error, Package: p.Package, Channel: p.Channel, Bundle: p.Bundle,
			File: p.File, Line: p.Line, Message: p.Message,
		})
	}
	return out
}

// prefixProblems makes the positions of problems found relative to a
// repository root relative to the working directory.
func prefixProblems(list declcfg.ErrorList, root string) {
	if filepath.Clean(root) == "." {
		return
	}
	for _, p := range list {
		if p.File != "" {
			p.File = filepath.ToSlash(filepath.Join(root, p.File))
		}
	}
}
