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
// write, as the commands do. Releases are also measured into 10 templates
// of 50 and of 150 bundles (a large real package, and three times one).

// fresh copies a benchmark repository, outside the timing.
func fresh(b *testing.B, o declcfgtest.RepoOptions) string {
	b.StopTimer()
	defer b.StartTimer()
	dir := filepath.Join(b.TempDir(), "repo")
	if err := os.CopyFS(dir, os.DirFS(authortest.ForBenchmarkOf(b, o))); err != nil {
		b.Fatal(err)
	}
	return dir
}

func run(b *testing.B, verb func(ctx context.Context, root string) (*author.Plan, error)) {
	runOn(b, declcfgtest.BenchRepo, verb)
}

func runOn(b *testing.B, o declcfgtest.RepoOptions, verb func(ctx context.Context, root string) (*author.Plan, error)) {
	ctx := context.Background()
	authortest.ForBenchmarkOf(b, o)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		root := fresh(b, o)
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

func BenchmarkRelease(b *testing.B) { benchRelease(b, declcfgtest.BenchRepo) }

func BenchmarkRelease10x50(b *testing.B) {
	benchRelease(b, declcfgtest.RepoOptions{Templates: 10, Bundles: 50, Seed: 1})
}

func BenchmarkRelease10x150(b *testing.B) {
	benchRelease(b, declcfgtest.RepoOptions{Templates: 10, Bundles: 150, Seed: 1})
}

func benchRelease(b *testing.B, o declcfgtest.RepoOptions) {
	runOn(b, o, func(ctx context.Context, root string) (*author.Plan, error) {
		req := author.ReleaseRequest{
			BundleDir: filepath.Join(root, "operators", declcfgtest.RepoOperator, o.NextVersion()),
			Image:     "quay.io/example/bench-operator-bundle:" + o.NextVersion(),
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
		return p.Remove(ctx, author.RemoveRequest{Bundle: "bench-operator.v7.2.3"}, author.Options{})
	})
}

func BenchmarkRenderCheck(b *testing.B) {
	run(b, func(ctx context.Context, root string) (*author.Plan, error) {
		p, err := open(ctx, root)
		if err != nil {
			return nil, err
		}
		plan, err := p.Expand(ctx, author.Options{})
		if err == nil && len(plan.Changes) > 0 {
			b.Fatalf("render --check: %d catalogs differ", len(plan.Changes))
		}
		return plan, err
	})
}
