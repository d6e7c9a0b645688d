package lint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
)

// benchGitRepo writes, once, a two-commit git repository of an operator
// of that shape: the first commit without its newest bundle, the second
// with it (a release, as the pull-request job sees it). It returns the
// operator directory.
func benchGitRepo(b *testing.B, name string, shape func(string) catalogrepotest.LintRepo, sources ...string) string {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	src := ""
	for _, s := range sources {
		if _, err := os.Stat(s); err == nil {
			src = s
			break
		}
	}
	o := shape(src)
	root := filepath.Join(os.TempDir(), "opm-lint-bench-git-"+name+"-"+filepath.Base(src))
	dir := filepath.Join(root, "operators", o.Package)
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "opm-lint-bench-writing-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", tmp, "-c", "user.email=bench@example.com", "-c", "user.name=bench"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	before := o
	before.Bundles--
	before.InCatalogs--
	if _, err := catalogrepotest.WriteLintRepo(tmp, before); err != nil {
		b.Fatal(err)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "before")
	for _, d := range []string{"operators", "catalogs"} {
		if err := os.RemoveAll(filepath.Join(tmp, d)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := catalogrepotest.WriteLintRepo(tmp, o); err != nil {
		b.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-qm", "release")
	if err := os.Rename(tmp, root); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkLintSailBaseline is the pull-request job on a sailoperator-
// shaped operator: lint operators/<pkg> --baseline HEAD~1 after the
// release of its newest bundle.
func BenchmarkLintSailBaseline(b *testing.B) {
	dir := benchGitRepo(b, "sail", catalogrepotest.SailShape,
		"../../shared/conformance/bundles/datadog-operator_1.28.0", "../../../shared/conformance/bundles/datadog-operator_1.28.0", "../testdata/bundles/node-healthcheck-operator_0.6.0")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lintInProcess(context.Background(), []string{dir}, Options{Baseline: "HEAD~1"}); err != nil {
			b.Fatal(err)
		}
	}
}
