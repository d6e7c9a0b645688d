package report

import (
	"context"
	"testing"

	"github.com/fbcat/opm/lint"
	"github.com/fbcat/opm/lint/osdk"
)

// lintRun lints paths and fails the test if linting cannot run.
func lintRun(t *testing.T, paths []string, opts lint.Options) *lint.Result {
	t.Helper()
	if opts.OSDK == nil {
		opts.OSDK = osdk.InProcess // no opm-osdk executable needed
	}
	res, err := lint.Lint(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
