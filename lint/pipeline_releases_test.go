package lint

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

// The hosted pipeline's checks on real releases (the conformance data's
// releases/, when it is beside the checkout or a worktree of it), each
// replayed as the pull-request job sees it: a two-commit repository (the
// tree before the release, then after it with the new bundle directory)
// linted with --baseline HEAD~1. The merged releases pass; each seeded
// change breaks one check and fails with the checks the pipeline fails
// it with (its own code, run offline on the same repositories, gave
// these verdicts).

// releasesDir is the conformance releases, or "" when they are not there.
func releasesDir() string {
	for _, d := range []string{"../../shared/conformance/releases", "../../../shared/conformance/releases"} {
		if _, err := os.Stat(d); err == nil {
			abs, _ := filepath.Abs(d)
			return abs
		}
	}
	return ""
}

// replay is a release replayed as a two-commit repository.
type replay struct {
	t                 *testing.T
	root, pkg, bundle string
	// dir is the new bundle directory, relative to root.
	dir string
}

// file is a path of the repository.
func (r *replay) file(rel string) string { return filepath.Join(r.root, rel) }

// edit replaces old (which must be there) with new in a file.
func (r *replay) edit(rel, old, new string) {
	r.t.Helper()
	data, err := os.ReadFile(r.file(rel))
	if err != nil || !strings.Contains(string(data), old) {
		r.t.Fatalf("%s: no %q to replace (%v)", rel, old, err)
	}
	r.write(rel, strings.Replace(string(data), old, new, 1))
}

// write writes a file of the repository.
func (r *replay) write(rel, data string) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Dir(r.file(rel)), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(r.file(rel), []byte(data), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// csv is the path of the new bundle's CSV.
func (r *replay) csv() string {
	r.t.Helper()
	m, _ := filepath.Glob(filepath.Join(r.root, r.dir, "manifests", "*.clusterserviceversion.yaml"))
	if len(m) != 1 {
		r.t.Fatalf("no CSV in %s", r.dir)
	}
	rel, _ := filepath.Rel(r.root, m[0])
	return rel
}

// seed is one change to a release: before changes the tree of both
// commits, after the release's commit; dirName names the new bundle
// directory (the version, by default).
type seed struct {
	name, release string
	dirName       string
	before, after func(r *replay)
	// checks are the pipeline's checks the change fails (none: it passes);
	// at is where one of their findings is.
	checks []string
	at     string
	// own are lint's own rules the change fails besides (a problem the
	// pipeline does not check, or checks only in other words).
	own []string
	// noBaseline lints the repository as it is after the change, without
	// a baseline (news, not history).
	noBaseline bool
	// warns is where a new warning of lint's own is (a slip the pipeline
	// lets pass).
	warns string
}

// buildReplay makes a release's two-commit repository with a seed.
func buildReplay(t *testing.T, releases string, s seed) *replay {
	t.Helper()
	src := filepath.Join(releases, s.release)
	var c struct{ Package, Version, Bundle string }
	data, err := os.ReadFile(filepath.Join(src, "case.json"))
	if err != nil || json.Unmarshal(data, &c) != nil {
		t.Fatalf("%s: case.json: %v", s.release, err)
	}
	dir := s.dirName
	if dir == "" {
		dir = c.Version
	}
	r := &replay{t: t, root: filepath.Join(t.TempDir(), "repo"), pkg: c.Package, bundle: c.Bundle, dir: filepath.Join("operators", c.Package, dir)}
	if keep := os.Getenv("OPM_KEEP_REPLAYS"); keep != "" {
		r.root = filepath.Join(keep, s.name)
		_ = os.RemoveAll(r.root)
	}
	copyTree(t, filepath.Join(src, "before"), r.root)
	if s.before != nil {
		s.before(r)
	}
	git(t, r.root, "init", "-q")
	git(t, r.root, "add", "-A")
	git(t, r.root, "commit", "-qm", "before")
	for _, d := range []string{"catalogs", "operators"} {
		if err := os.RemoveAll(r.file(d)); err != nil {
			t.Fatal(err)
		}
	}
	copyTree(t, filepath.Join(src, "after"), r.root)
	copyTree(t, filepath.Join(src, "bundle"), r.file(r.dir))
	if s.before != nil {
		s.before(r)
	}
	if s.after != nil {
		s.after(r)
	}
	git(t, r.root, "add", "-A")
	git(t, r.root, "commit", "-qm", "after: "+s.name)
	return r
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(to, os.DirFS(from)); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=ci@example.com", "-c", "user.name=ci"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// newErrors are the findings that fail the run.
func newErrors(fs []finding.Finding) []finding.Finding {
	return slices.DeleteFunc(slices.Clone(fs), func(f finding.Finding) bool { return !f.Counts() || f.Severity != finding.Error })
}

func TestPipelineReleases(t *testing.T) {
	releases := releasesDir()
	if releases == "" {
		t.Skip("the conformance releases are not beside the checkout")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, s := range pipelineSeeds() {
		t.Run(s.name, func(t *testing.T) {
			r := buildReplay(t, releases, s)
			t.Chdir(r.root)
			opts := Options{Baseline: "HEAD~1"}
			if s.noBaseline {
				opts = Options{}
			}
			res, err := lintInProcess(context.Background(), []string{filepath.Join("operators", r.pkg)}, opts)
			if err != nil {
				t.Fatal(err)
			}
			errs := newErrors(res.Findings)
			var got, own []string
			for _, f := range errs {
				for _, rule := range f.Rules {
					if r, _ := ruleByID(rule); r.Check == "" {
						own = addUnique(own, rule)
					}
				}
				for _, c := range f.Checks {
					got = addUnique(got, c)
				}
			}
			slices.Sort(own)
			if want := slices.Sorted(slices.Values(s.own)); !slices.Equal(own, want) {
				t.Errorf("failing rules of lint's own %v, want %v:%s", own, want, dump(errs))
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(s.checks))
			if !slices.Equal(got, want) {
				t.Fatalf("failing checks %v, want %v (the pipeline's):%s", got, want, dump(errs))
			}
			if s.at != "" && !slices.ContainsFunc(errs, func(f finding.Finding) bool { return strings.Contains(filepath.ToSlash(f.Location()), s.at) }) {
				t.Errorf("no finding at %s:%s", s.at, dump(errs))
			}
			if s.warns != "" && !slices.ContainsFunc(res.Findings, func(f finding.Finding) bool {
				return f.Counts() && f.Severity == finding.Warning && strings.Contains(filepath.ToSlash(f.Location()), s.warns)
			}) {
				t.Errorf("no new warning at %s:%s", s.warns, dump(res.Findings))
			}
			if s.noBaseline {
				// history checked as news fails as the pipeline fails a pull
				// request bringing the bundle
				res, err := lintInProcess(context.Background(), []string{filepath.Join("operators", r.pkg)}, Options{Released: ReleasedCheck})
				if err != nil || finding.Passed(res.Findings, finding.Error) {
					t.Errorf("--released check passes history (%v):%s", err, dump(res.Findings))
				}
			}
		})
	}
}

// addUnique adds s to a list that does not have it.
func addUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
