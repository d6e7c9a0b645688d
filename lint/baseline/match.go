package baseline

import (
	"regexp"

	"github.com/fbcat/opm/lint/finding"
)

// Mark marks each finding of now new or unchanged against the findings
// of the baseline (unchanged when the baseline has one of the same
// rule, package, bundle, object and message: see Key) and returns the
// baseline's findings the change fixed (absent from now), sorted, each
// once.
func Mark(now, before []finding.Finding) (fixed []finding.Finding) {
	seen := make(map[string]bool, len(before))
	for i := range before {
		seen[Key(&before[i])] = true
	}
	found := make(map[string]bool, len(now))
	for i := range now {
		f := &now[i]
		k := Key(f)
		found[k] = true
		f.BaselineState = finding.BaselineNew
		if seen[k] {
			f.BaselineState = finding.BaselineUnchanged
		}
	}
	for _, f := range finding.Sort(before) {
		if k := Key(&f); !found[k] {
			found[k] = true // once
			f.BaselineState = finding.BaselineAbsent
			fixed = append(fixed, f)
		}
	}
	return fixed
}

// lineRef is a "file.yaml:12" a message may quote: the line is left out
// when findings are compared.
var lineRef = regexp.MustCompile(`(\.(?:ya?ml|json)):\d+`)

// Key is what identifies a finding across the baseline and the change:
// its rule, package, bundle, object and message, but for the lines the
// message quotes (never its own line, which any edit above it moves, nor
// the catalogs it was found in: a release that adds a catalog to ci.yaml
// adds it to the finding's Catalogs, and the finding of a new bundle is
// new by its bundle).
func Key(f *finding.Finding) string {
	return f.Rule + "\x00" + f.Package + "\x00" + f.Bundle + "\x00" + f.Object + "\x00" + lineRef.ReplaceAllString(f.Message, "$1")
}
