package lint

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
)

// benchRepo writes an operator repository of that shape from a real
// bundle directory (the conformance data's when it is there, beside
// the checkout or a worktree of it, else testdata's) once, into the temporary directory, and returns its
// operator directory.
func benchRepo(b *testing.B, name string, shape func(string) catalogrepotest.LintRepo, sources ...string) string {
	b.Helper()
	src := ""
	for _, s := range sources {
		if _, err := os.Stat(s); err == nil {
			src = s
			break
		}
	}
	root := filepath.Join(os.TempDir(), "opm-lint-bench-"+name+"-"+filepath.Base(src))
	o := shape(src)
	dir := filepath.Join(root, "operators", o.Package)
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "opm-lint-bench-writing-")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := catalogrepotest.WriteLintRepo(tmp, o); err != nil {
		os.RemoveAll(tmp)
		b.Fatal(err)
	}
	if err := os.Rename(tmp, root); err != nil {
		os.RemoveAll(tmp)
		b.Fatal(err)
	}
	return dir
}

func benchLint(b *testing.B, dir string) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := lintInProcess(context.Background(), []string{dir}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLintSail lints an operator directory shaped like sailoperator:
// 43 bundle directories of about 2.7 MB, in six catalogs.
func BenchmarkLintSail(b *testing.B) {
	benchLint(b, benchRepo(b, "sail", catalogrepotest.SailShape,
		"../../shared/conformance/bundles/datadog-operator_1.28.0", "../../../shared/conformance/bundles/datadog-operator_1.28.0", "../testdata/bundles/node-healthcheck-operator_0.6.0"))
}

// BenchmarkLintHive lints an operator directory shaped like
// hive-operator: 225 bundle directories, 106 of them in six catalogs.
func BenchmarkLintHive(b *testing.B) {
	benchLint(b, benchRepo(b, "hive", catalogrepotest.HiveShape,
		"../../shared/conformance/bundles/hive-operator_1.2.3725-6ac23a8", "../../../shared/conformance/bundles/hive-operator_1.2.3725-6ac23a8", "../testdata/bundles/node-healthcheck-operator_0.6.0"))
}
