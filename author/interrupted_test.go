package author

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/stage"
)

// TestOpenRefusesInterruptedRun plants what a run of Apply killed after
// committing leaves, and what one killed while undoing a failed rename
// leaves: Open refuses the repository, naming the run's directory, until
// Recover has finished or undone the run.
func TestOpenRefusesInterruptedRun(t *testing.T) {
	for _, tc := range []struct {
		state, says, notes string
	}{
		{"committed", "moving its files into place", "now complete"},
		{"aborting", "putting back the files it had replaced", "now undone"},
	} {
		r := testRepo(t)
		catalog := "catalogs/v4.16/widget/catalog.yaml"
		data, err := os.ReadFile(r.path(catalog))
		if err != nil {
			t.Fatal(err)
		}
		run := filepath.Join(r.Root, StagingDir, "run-1")
		os.MkdirAll(run, 0o755)
		os.WriteFile(filepath.Join(run, "lock"), nil, 0o644)
		journal := fmt.Sprintf(`{"state":%q,"files":[{"path":%q,"staged":"0","old":%q,"new":"crc64:0:1","mode":420}]}`, tc.state, catalog, stage.Digest(data))
		os.WriteFile(filepath.Join(run, "journal"), []byte(journal), 0o644)

		_, err = r.Open(context.Background(), "widget")
		var ie *stage.InterruptedError
		if !errors.As(err, &ie) || ie.Dir != StagingDir+"/run-1" || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), StagingDir+"/run-1") {
			t.Errorf("%s: Open: %v", tc.state, err)
		}
		rec, err := r.Recover()
		if err != nil || !strings.Contains(strings.Join(rec.Notes(), "\n"), tc.notes) {
			t.Errorf("%s: Recover: %v, %q", tc.state, err, rec.Notes())
		}
		open(t, r, "widget")
	}
}

// TestApplyInterrupted: a plan whose context ends before its files are
// committed writes nothing and says why and that nothing was written (the
// cause first, as the command line words it); one that ended after
// Apply returned has every change written and leaves nothing to recover.
func TestApplyInterrupted(t *testing.T) {
	r := testRepo(t)
	catalog := "catalogs/v4.16/widget/catalog.yaml"
	before, err := os.ReadFile(r.path(catalog))
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
	if after, _ := os.ReadFile(r.path(catalog)); !bytes.Equal(after, before) {
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
	if after, _ := os.ReadFile(r.path(catalog)); bytes.Equal(after, before) {
		t.Error("after: the catalog was not written")
	}
	if rec, err := r.Recover(); err != nil || len(rec.Notes()) > 0 {
		t.Errorf("after: left something to recover: %v %q", err, rec.Notes())
	}
	open(t, r, "widget")
}
