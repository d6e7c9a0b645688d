package lint

import (
	"context"
	"fmt"
	"regexp"
)

// compareWithBaseline lints the paths as the baseline has them, under the
// same names and with the same options, and marks each finding of res as
// new or unchanged: unchanged when the baseline has a finding of the same
// rule, package, bundle, object and message (never compared by line,
// which any edit above it moves).
func (l *linter) compareWithBaseline(ctx context.Context, paths []string, res *Result) error {
	opts := l.opts
	opts.Baseline = ""
	reuse := l.memo
	if l.baseline.repo != nil {
		reuse.unchanged = l.baseline.repo.unchanged
	}
	bl := &linter{opts: opts, rules: l.rules, previous: l.previous, remap: l.baseline.real, reuse: reuse}
	bl.crdPairs.seed(&l.crdPairs)
	for _, p := range paths {
		if !l.baseline.holds(p) {
			continue // new, or an image: every finding is new
		}
		if err := bl.lintPath(ctx, p); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			res.Notes = append(res.Notes, fmt.Sprintf("%s: linting it as --baseline %s has it failed, so its findings count as new: %v", p, l.baseline.given, err))
		}
	}
	base, err := bl.finish(&Result{Findings: bl.findings}, nil)
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(base.Findings))
	for i := range base.Findings {
		seen[baselineKey(&base.Findings[i])] = true
	}
	now := make(map[string]bool, len(res.Findings))
	for i := range res.Findings {
		f := &res.Findings[i]
		k := baselineKey(f)
		now[k] = true
		f.BaselineState = BaselineNew
		if seen[k] {
			f.BaselineState = BaselineUnchanged
		}
	}
	for _, f := range sortFindings(base.Findings) {
		if k := baselineKey(&f); !now[k] {
			now[k] = true // once
			f.BaselineState = BaselineAbsent
			res.Fixed = append(res.Fixed, f)
		}
	}
	return nil
}

// lineRef is a "file.yaml:12" a message may quote: the line is left out
// when findings are compared.
var lineRef = regexp.MustCompile(`(\.(?:ya?ml|json)):\d+`)

// baselineKey is what identifies a finding across the baseline and the
// change: its rule, package, bundle, object and message (lines left out).
func baselineKey(f *Finding) string {
	return f.Rule + "\x00" + f.Package + "\x00" + f.Bundle + "\x00" + f.Object + "\x00" + lineRef.ReplaceAllString(f.Message, "$1")
}
