package author

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestApplyInterrupted: a plan whose context ends before its files are
// committed writes nothing and says why and that nothing was written (the
// cause first, as the command line words it); one that ended after
// Apply returned has every change written and leaves nothing to recover.
func TestApplyInterrupted(t *testing.T) {
	r := testRepo(t)
	catalog := "catalogs/v4.16/widget/catalog.yaml"
	before, err := os.ReadFile(r.Model().Path(catalog))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := open(t, r, "widget").Promote(context.Background(), PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted by SIGINT"))
	err = plan.ApplyContext(ctx)
	if !errors.Is(err, ErrNotWritten) || err.Error() != "interrupted by SIGINT: nothing was written" {
		t.Errorf("before the commit: %v", err)
	}
	if after, _ := os.ReadFile(r.Model().Path(catalog)); !bytes.Equal(after, before) {
		t.Error("before the commit: the catalog changed")
	}
	if _, err := os.Stat(filepath.Join(r.Root, StagingDir)); err == nil {
		t.Error("before the commit: the staging directory is left")
	}

	ctx, cancel = context.WithCancelCause(context.Background())
	if err := plan.ApplyContext(ctx); err != nil {
		t.Fatal(err)
	}
	cancel(errors.New("interrupted by SIGINT"))
	if after, _ := os.ReadFile(r.Model().Path(catalog)); bytes.Equal(after, before) {
		t.Error("after: the catalog was not written")
	}
	if rec, err := r.Recover(); err != nil || len(rec.Notes()) > 0 {
		t.Errorf("after: left something to recover: %v %q", err, rec.Notes())
	}
	open(t, r, "widget")
}
