package author_test

import (
	"context"
	"io"
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
	runThen(b, o, verb, (*author.Plan).Apply)
}

// runThen runs verb on a fresh copy and finish on its plan: Apply, or a
// dry run's diff.
func runThen(b *testing.B, o declcfgtest.RepoOptions, verb func(ctx context.Context, root string) (*author.Plan, error), finish func(*author.Plan) error) {
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
		if err := finish(plan); err != nil {
			b.Fatal(err)
		}
	}
}

// dryRun is what --dry-run does with a plan: its readable diff.
func dryRun(p *author.Plan) error { return p.ReadableDiff(io.Discard, "--full-diff") }

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

// BenchmarkReleaseDryRun is release --dry-run: the plan and its
// readable diff, nothing written (compare BenchmarkRelease).
func BenchmarkReleaseDryRun(b *testing.B) {
	runThen(b, declcfgtest.BenchRepo, release(declcfgtest.BenchRepo), dryRun)
}

// BenchmarkRemoveDryRun is remove --dry-run (compare BenchmarkRemove).
func BenchmarkRemoveDryRun(b *testing.B) { runThen(b, declcfgtest.BenchRepo, remove, dryRun) }

func benchRelease(b *testing.B, o declcfgtest.RepoOptions) { runOn(b, o, release(o)) }

// release releases the repository's next bundle.
func release(o declcfgtest.RepoOptions) func(ctx context.Context, root string) (*author.Plan, error) {
	return func(ctx context.Context, root string) (*author.Plan, error) {
		req := author.ReleaseRequest{
			BundleDir: filepath.Join(root, "operators", declcfgtest.RepoOperator, o.NextVersion()),
			Image:     "quay.io/example/bench-operator-bundle:" + o.NextVersion(),
		}
		p, err := (&author.Repo{Root: root}).OpenBundleDir(ctx, req.BundleDir)
		if err != nil {
			return nil, err
		}
		return p.Release(ctx, req, author.Options{})
	}
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

func BenchmarkRemove(b *testing.B) { run(b, remove) }

// remove removes a bundle from the middle of every template.
func remove(ctx context.Context, root string) (*author.Plan, error) {
	p, err := open(ctx, root)
	if err != nil {
		return nil, err
	}
	return p.Remove(ctx, author.RemoveRequest{Bundle: "bench-operator.v7.2.3"}, author.Options{})
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
