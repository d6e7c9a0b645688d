package lint

import (
	"context"
	"fmt"

	"github.com/fbcat/opm/lint/baseline"
)

// compareWithBaseline lints the paths as the baseline has them, under the
// same names and with the same rules, reusing what the change left alone
// (see view), and marks each finding of res as new or unchanged (see
// baseline.Mark); res.Fixed are the baseline's findings the change
// fixed. A path the baseline cannot be linted at is a note: its findings
// are new.
func (l *linter) compareWithBaseline(ctx context.Context, paths []string, res *Result) error {
	if err := l.compareTo.Ready(); err != nil {
		return baselineError(err)
	}
	bl := &linter{setup: l.setup, view: view{memo: l.view.memo, baseline: l.compareTo}}
	bl.pairs.Seed(&l.pairs)
	for _, p := range paths {
		if !l.compareTo.Holds(p) {
			continue // new, or an image: every finding is new
		}
		if err := bl.lintPath(ctx, p); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			res.Notes = append(res.Notes, fmt.Sprintf("%s: linting it as --baseline %s has it failed, so its findings count as new: %v", p, l.compareTo.Given(), err))
		}
	}
	base, err := bl.finish(&Result{Findings: bl.findings}, nil)
	if err != nil {
		return err
	}
	res.Fixed = baseline.Mark(res.Findings, base.Findings)
	return nil
}
