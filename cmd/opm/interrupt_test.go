package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fbcat/opm/author"
)

// testRepo is a copy of testdata/repo.
func testRepo(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(root, os.DirFS("../../testdata/repo")); err != nil {
		t.Fatal(err)
	}
	return root
}

// promoteArgs promote a bundle in a copy of testdata/repo, whose catalog
// catalogs/v4.16/widget/catalog.yaml it returns with its text.
func promoteArgs(t *testing.T) (args []string, catalog string, before []byte) {
	t.Helper()
	root := testRepo(t)
	catalog = filepath.Join(root, "catalogs/v4.16/widget/catalog.yaml")
	before, err := os.ReadFile(catalog)
	if err != nil {
		t.Fatal(err)
	}
	return []string{"alpha", "catalog", "promote", "widget", "widget-operator.v1.1.1", "--to", "stable", "--root", root}, catalog, before
}

// TestInterruptBeforeWriting: a catalog verb whose context a signal
// ended before it wrote anything says so, once, and writes nothing.
func TestInterruptBeforeWriting(t *testing.T) {
	args, catalog, before := promoteArgs(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(interrupted{os.Interrupt})
	var stdout, stderr bytes.Buffer
	if code := run(ctx, args, strings.NewReader(""), &stdout, &stderr); code == 0 {
		t.Errorf("exit 0, want a failure (Main makes it 130)")
	}
	if want := "opm: interrupted by SIGINT: nothing was written; the repository is as it was\n"; stderr.String() != want || stdout.Len() > 0 {
		t.Errorf("stdout %q, stderr %q, want stderr %q", stdout.String(), stderr.String(), want)
	}
	if after, _ := os.ReadFile(catalog); !bytes.Equal(after, before) {
		t.Error("the catalog changed")
	}
}

// TestInterruptAfterWriting: a signal that comes once every file is
// written (while the verb prints what it wrote) lets it finish with exit
// 0, and it says that every change is written.
func TestInterruptAfterWriting(t *testing.T) {
	args, catalog, before := promoteArgs(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var stderr bytes.Buffer
	stdout := &cancelOnWrite{cancel: func() { cancel(interrupted{syscall.SIGTERM}) }}
	if code := run(ctx, args, strings.NewReader(""), stdout, &stderr); code != 0 {
		t.Errorf("exit %d, want 0: %s", code, stderr.String())
	}
	if want := "opm: interrupted by SIGTERM after every change was written: the repository has all of them\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if after, _ := os.ReadFile(catalog); bytes.Equal(after, before) {
		t.Error("the catalog was not written")
	}
}

// cancelOnWrite is a writer that calls cancel at its first write.
type cancelOnWrite struct {
	bytes.Buffer
	cancel func()
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	if w.Len() == 0 {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

// TestInterruptWhileWriting: a signal that comes while the files are
// written: before the run commits, nothing is written and the verb says
// so; after, the run finishes and says that every change is written.
func TestInterruptWhileWriting(t *testing.T) {
	for _, tc := range []struct {
		name      string
		committed bool
		says      string
	}{
		{"before the commit", false, "opm: interrupted by SIGINT: nothing was written; the repository is as it was\n"},
		{"moving files into place", true, "opm: interrupted by SIGINT while moving files into place, which finished: every change is written\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &author.Repo{Root: testRepo(t)}
			p, err := r.Open(context.Background(), "widget")
			if err != nil {
				t.Fatal(err)
			}
			plan, err := p.Promote(context.Background(), author.PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable"}, author.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var stderr bytes.Buffer
			said := interruptionOf(ctx, &stderr)
			said.set(planning)
			f := &catalogFlags{apply: func(plan *author.Plan, ctx context.Context) error {
				if !tc.committed {
					cancel(interrupted{os.Interrupt})
					return plan.ApplyContext(ctx)
				}
				// Once committed, stage.Write no longer asks ctx: the
				// signal is seen when it returns.
				err := plan.ApplyContext(context.WithoutCancel(ctx))
				cancel(interrupted{os.Interrupt})
				return err
			}}
			err = f.write(ctx, plan, said)
			if tc.committed != (err == nil) || (!tc.committed && !errors.Is(err, author.ErrNotWritten)) {
				t.Fatalf("write: %v", err)
			}
			said.say(os.Interrupt, err == nil, "") // as run does when the verb returns
			if stderr.String() != tc.says {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.says)
			}
			if _, err := r.Open(context.Background(), "widget"); err != nil {
				t.Errorf("the repository is left half-written: %v", err)
			}
		})
	}
}

// TestInterruptionPhases: each phase is said as it is, once.
func TestInterruptionPhases(t *testing.T) {
	for _, tc := range []struct {
		phase    writePhase
		finished bool
		says     string
	}{
		{notWriting, false, "opm: interrupted by SIGTERM before it finished\n"},
		{notWriting, true, "opm: interrupted by SIGTERM after it had finished\n"},
		{planning, false, "opm: interrupted by SIGTERM: nothing was written; the repository is as it was\n"},
		{writing, false, "opm: interrupted by SIGTERM while moving files into place: the next opm alpha catalog command on the repository finishes writing them\n"},
		{writeFailed, false, "opm: interrupted by SIGTERM: writing failed; the error says what state the repository is in\n"},
		{written, true, "opm: interrupted by SIGTERM after every change was written: the repository has all of them\n"},
	} {
		var w bytes.Buffer
		n := interruptionOf(context.Background(), &w)
		n.set(tc.phase)
		n.say(syscall.SIGTERM, tc.finished, "")
		n.say(syscall.SIGTERM, tc.finished, "")
		if w.String() != tc.says {
			t.Errorf("phase %d: %q, want %q", tc.phase, w.String(), tc.says)
		}
	}
}
