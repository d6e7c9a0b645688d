package author_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/author/authortest"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// The authoring benchmarks run on declcfgtest.BenchRepo (20 basic templates of
// 500 bundles, catalogs v4.12 to v4.31), each on a fresh copy: plan and
// write, as the commands do.

// fresh copies the benchmark repository, outside the timing.
func fresh(b *testing.B) string {
	b.StopTimer()
	defer b.StartTimer()
	dir := filepath.Join(b.TempDir(), "repo")
	if err := os.CopyFS(dir, os.DirFS(authortest.ForBenchmark(b))); err != nil {
		b.Fatal(err)
	}
	return dir
}

func run(b *testing.B, verb func(ctx context.Context, root string) (*author.Plan, error)) {
	ctx := context.Background()
	authortest.ForBenchmark(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		root := fresh(b)
		plan, err := verb(ctx, root)
		if err != nil {
			b.Fatal(err)
		}
		if err := plan.Apply(); err != nil {
			b.Fatal(err)
		}
	}
}

func open(ctx context.Context, root string) (*author.Package, error) {
	return (&author.Repo{Root: root}).Open(ctx, declcfgtest.RepoOperator)
}

func BenchmarkRelease(b *testing.B) {
	run(b, func(ctx context.Context, root string) (*author.Plan, error) {
		req := author.ReleaseRequest{
			BundleDir: filepath.Join(root, "operators", declcfgtest.RepoOperator, declcfgtest.BenchRepo.NextVersion()),
			Image:     "quay.io/example/bench-operator-bundle:" + declcfgtest.BenchRepo.NextVersion(),
		}
		p, err := (&author.Repo{Root: root}).OpenBundleDir(ctx, req.BundleDir)
		if err != nil {
			return nil, err
		}
		return p.Release(ctx, req, author.Options{})
	})
}

func BenchmarkPromote(b *testing.B) {
	run(b, func(ctx context.Context, root string) (*author.Plan, error) {
		p, err := open(ctx, root)
		if err != nil {
			return nil, err
		}
		return p.Promote(ctx, author.PromoteRequest{Bundle: "bench-operator.v13.2.3", Channel: "fast"}, author.Options{})
	})
}

func BenchmarkRemove(b *testing.B) {
	run(b, func(ctx context.Context, root string) (*author.Plan, error) {
		p, err := open(ctx, root)
		if err != nil {
			return nil, err
		}
		return p.Remove(ctx, "bench-operator.v7.2.3", author.Options{})
	})
}

func BenchmarkRenderCheck(b *testing.B) {
	run(b, func(ctx context.Context, root string) (*author.Plan, error) {
		p, err := open(ctx, root)
		if err != nil {
			return nil, err
		}
		plan, err := p.Render(ctx, author.Options{})
		if err == nil && len(plan.Changes) > 0 {
			b.Fatalf("render --check: %d catalogs differ", len(plan.Changes))
		}
		return plan, err
	})
}
