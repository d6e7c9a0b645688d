package author

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/author/textdiff"
)

// TestReadableDiffRealReleases releases each real case of the conformance
// data with --dry-run: no line over 300 characters.
func TestReadableDiffRealReleases(t *testing.T) {
	for _, dir := range releaseCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			if err := os.CopyFS(root, os.DirFS(filepath.Join(dir, "before"))); err != nil {
				t.Fatal(err)
			}
			c := readCase(t, dir)
			bdir := filepath.Join(root, "operators", c.Package, c.Version)
			if err := os.CopyFS(bdir, os.DirFS(filepath.Join(dir, "bundle"))); err != nil {
				t.Fatal(err)
			}
			r := &Repo{Root: root}
			plan, err := release(context.Background(), r, ReleaseRequest{BundleDir: bdir, Image: c.Image}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := plan.ReadableDiff(&out, ""); err != nil {
				t.Fatal(err)
			}
			if n := longest(out.String()); n > textdiff.MaxLine {
				t.Errorf("a line of %d characters", n)
			}
		})
	}
}

// longest is the length of the longest line of text.
func longest(text string) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		n = max(n, len(l))
	}
	return n
}

// releaseCase is what a real release case's case.json says.
type releaseCase struct {
	Package, Version, Image string
}

func readCase(t *testing.T, dir string) releaseCase {
	t.Helper()
	var c releaseCase
	data, err := os.ReadFile(filepath.Join(dir, "case.json"))
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPlanDiffInOrder: a plan's diffs, made a few at a time, are written
// in the order of its changes, each as the file's own diff; a file that
// changed since the plan was made stops the diff there, after the diffs
// of the changes before it.
func TestPlanDiffInOrder(t *testing.T) {
	r := testRepo(t)
	plan, err := release(context.Background(), r, ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changes) < 3 {
		t.Fatalf("changes: %+v", plan.Changes)
	}
	var want bytes.Buffer
	for _, c := range plan.Changes {
		old, err := plan.OldText(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := textdiff.Unified(&want, c.Path, old, c.NewText()); err != nil {
			t.Fatal(err)
		}
	}
	var got bytes.Buffer
	if err := plan.Diff(&got); err != nil || got.String() != want.String() {
		t.Errorf("diff: %v\n%s\nwant\n%s", err, got.String(), want.String())
	}
	last := plan.Changes[len(plan.Changes)-1]
	if err := os.WriteFile(filepath.Join(r.Root, filepath.FromSlash(last.Path)), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got.Reset()
	err = plan.Diff(&got)
	if err == nil || !strings.Contains(err.Error(), "changed while opm was working on it") {
		t.Errorf("diff of a changed file: %v", err)
	}
	if before := "+++ b/" + plan.Changes[len(plan.Changes)-2].Path; !strings.Contains(got.String(), before) || strings.Contains(got.String(), "+++ b/"+last.Path) {
		t.Errorf("the diff stopped elsewhere than at the changed file:\n%s", got.String())
	}
}
