//go:build unix

package author_test

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/author/authortest"
	"github.com/fbcat/opm/declcfg/declcfgtest"
	"github.com/fbcat/opm/validate"
)

// crashRepo is the synthetic repository the crash tests release into: 4
// templates, so a release changes 8 files.
var crashRepo = declcfgtest.RepoOptions{Templates: 4, Bundles: 12, Seed: 7}

// Environment of the child process of TestReleaseKilled.
const (
	killRootEnv = "OPM_TEST_KILL_ROOT"
	killStepEnv = "OPM_TEST_KILL_STEP"
)

// releasePlan plans the release of crashRepo's next bundle in root.
func releasePlan(t *testing.T, root string) *author.Plan {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(root, "operators", declcfgtest.RepoOperator, crashRepo.NextVersion())
	p, err := (&author.Repo{Root: root}).OpenBundleDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := p.Release(ctx, author.ReleaseRequest{BundleDir: dir, Image: "quay.io/example/bench-bundle:" + crashRepo.NextVersion()}, author.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestKilledReleaseChild is the child process of TestReleaseKilled: it
// releases into $OPM_TEST_KILL_ROOT and SIGKILLs itself at Apply's step
// $OPM_TEST_KILL_STEP.
func TestKilledReleaseChild(t *testing.T) {
	root := os.Getenv(killRootEnv)
	if root == "" {
		t.Skip("run by TestReleaseKilled")
	}
	plan := releasePlan(t, root)
	author.SetApplyHook(plan, func(step string) {
		if step == os.Getenv(killStepEnv) {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // until the signal lands
		}
	})
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("Apply never reached step %q", os.Getenv(killStepEnv))
}

// TestReleaseKilled kills a release (SIGKILL, in a process of its own) at
// every step of writing it and checks that the repository was left valid
// and either unchanged or, once Recover has run, fully released, with
// nothing stray.
func TestReleaseKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per step")
	}
	base := t.TempDir()
	if err := authortest.Write(context.Background(), base, crashRepo); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, base)
	// The steps and the released repository, from a release not killed.
	done := copyRepo(t, base)
	plan := releasePlan(t, done)
	var steps []string
	var mu sync.Mutex // the staging steps run concurrently
	author.SetApplyHook(plan, func(step string) {
		mu.Lock()
		defer mu.Unlock()
		steps = append(steps, step)
	})
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, done)
	slices.Sort(steps) // "committed" < "renamed <i>" < "staged <i>"
	if len(steps) < 10 {
		t.Fatalf("only %d steps: %v", len(steps), steps)
	}
	for _, step := range steps {
		t.Run(strings.ReplaceAll(step, " ", "-"), func(t *testing.T) {
			root := copyRepo(t, base)
			cmd := exec.Command(os.Args[0], "-test.run=^TestKilledReleaseChild$")
			cmd.Env = append(os.Environ(), killRootEnv+"="+root, killStepEnv+"="+step)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child not killed: %v\n%s", err, out)
			}
			validCatalogs(t, root)
			committed := !strings.HasPrefix(step, "staged")
			if got := snapshot(t, root); !committed && !maps.Equal(got, before) {
				t.Errorf("killed before committing, the repository changed: %v", diffKeys(before, got))
			}
			rec, err := (&author.Repo{Root: root}).Recover()
			if err != nil {
				t.Fatal(err)
			}
			want := before
			if committed {
				want = after
			}
			if got := snapshot(t, root); !maps.Equal(got, want) {
				t.Errorf("after Recover, files differ from the expected repository: %v", diffKeys(want, got))
			}
			if _, err := os.Stat(filepath.Join(root, author.StagingDir)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s left after Recover: %v", author.StagingDir, err)
			}
			notes := strings.Join(rec.Notes(), "\n")
			if committed && !strings.Contains(notes, "now complete") || !committed && !strings.Contains(notes, "as it was") {
				t.Errorf("Recover says: %q", notes)
			}
			validCatalogs(t, root)
		})
	}
}

// snapshot reads every file of a repository but its staging directory.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == author.StagingDir {
				return filepath.SkipDir
			}
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func diffKeys(want, got map[string]string) []string {
	var out []string
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			out = append(out, k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			out = append(out, "+"+k)
		}
	}
	slices.Sort(out)
	return out
}

func copyRepo(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// validCatalogs validates every catalogs/<version> directory as opm
// validate does.
func validCatalogs(t *testing.T, root string) {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join(root, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		res, err := validate.Validate(context.Background(), os.DirFS(filepath.Join(root, "catalogs", d.Name())), validate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Err(d.Name()); err != nil {
			t.Error(err)
		}
	}
}
