package lint

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/position"
)

// release-check: a bundle directory's release-config.yaml checked as
// opm alpha catalog release checks it before it writes anything
// (repoconfig's ReleaseConfig.Check, the one implementation): channels
// that nearly match one the templates have or a conventional name,
// templates ci.yaml does not map, replaces and skips naming bundles the
// package does not have, a bad skipRange, and unknown keys anywhere, each
// at its key's line with what was likely meant. The pipeline's schema
// refuses an unknown key at the top level (an error, as its check) and
// lets one inside a catalog_templates entry pass, which its release bot
// then ignores (a warning: replace for replaces renders no replaces).
// Where the pipeline's checks of the file say the same at the same line,
// the findings are one (finding.CauseReleaseConfig).
const ruleReleaseCheck = "release-check"

// releaseCheckBundle checks the release-config.yaml of a bundle
// directory of an operator directory, if it has one.
func releaseCheckBundle(c *operatorCheck, b *bundle) []finding.Finding {
	if c.facts == nil {
		return nil // no file-based catalogs: the pipeline's checks say so
	}
	file := filepath.Join(b.dir, "release-config.yaml")
	data, err := os.ReadFile(c.real(file))
	if err != nil {
		return nil // none (the pipeline's checks say when one is needed)
	}
	rc, err := repoconfig.ParseReleaseConfig(file, data)
	if rc == nil {
		f := finding.Finding{Rule: ruleReleaseCheck, Severity: finding.Error, Package: b.pkg, Bundle: b.name, File: file, Line: 1,
			Message: "release-config.yaml cannot be read: " + err.Error()}
		var e *position.Error
		if errors.As(err, &e) && e.Line > 0 {
			f.Line, f.Message = e.Line, "release-config.yaml cannot be read: "+e.Text()
		}
		f.Causes = []string{finding.CauseReleaseConfig(file, 0)}
		return []finding.Finding{f}
	}
	var out []finding.Finding
	for _, e := range rc.Check(*c.facts) {
		sev := finding.Error
		if repoconfig.ProblemOf(e).Warning || errors.Is(e, repoconfig.ErrUnknownEntryKey) {
			sev = finding.Warning
		}
		line := max(e.Line, 1)
		out = append(out, finding.Finding{Rule: ruleReleaseCheck, Severity: sev, Package: b.pkg, Bundle: b.name, File: file, Line: line,
			Message: e.Text(), Causes: []string{finding.CauseReleaseConfig(file, line)}})
	}
	return out
}
