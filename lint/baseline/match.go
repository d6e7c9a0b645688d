package baseline

import (
	"regexp"
	"slices"

	"github.com/fbcat/opm/lint/finding"
)

// Mark marks each finding of now new or unchanged against the findings
// of the baseline and returns the baseline's findings the change fixed
// (absent from now), sorted, each once. A finding is unchanged when the
// baseline has each of the findings it stands for (itself and its
// Related, by rule, package, bundle, object and message: see Key), so a
// problem that a change makes worse (one more rule fails it) is new; a
// finding of the baseline is fixed when none of them is left.
func Mark(now, before []finding.Finding) (fixed []finding.Finding) {
	seen := make(map[string]bool, len(before))
	for i := range before {
		for _, k := range keys(&before[i]) {
			seen[k] = true
		}
	}
	found := make(map[string]bool, len(now))
	for i := range now {
		f := &now[i]
		f.BaselineState = finding.BaselineUnchanged
		for _, k := range keys(f) {
			found[k] = true
			if !seen[k] {
				f.BaselineState = finding.BaselineNew
			}
		}
	}
	for _, f := range finding.Sort(before) {
		ks := keys(&f)
		if !slices.ContainsFunc(ks, func(k string) bool { return found[k] }) {
			for _, k := range ks {
				found[k] = true // once
			}
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
	return key(f.Rule, f, f.Message)
}

// keys are the keys of a finding and of what it stands for besides
// (Related).
func keys(f *finding.Finding) []string {
	out := []string{Key(f)}
	for _, r := range f.Related {
		out = append(out, key(r.Rule, f, r.Message))
	}
	return out
}

// key is the key of a rule's message about f's package, bundle and
// object.
func key(rule string, f *finding.Finding, msg string) string {
	return rule + "\x00" + f.Package + "\x00" + f.Bundle + "\x00" + f.Object + "\x00" + lineRef.ReplaceAllString(msg, "$1")
}
