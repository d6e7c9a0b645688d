// Package authortest writes synthetic operator repositories (the layout
// of community-operators-prod: ci.yaml, catalog templates, rendered
// catalogs and a bundle directory ready to release) for the catalog
// authoring benchmarks. It sits under author, whose Repo renders the
// catalogs, so that author's own tests may use it; the operator
// directories of lint's tests and benchmarks are
// catalogrepo/catalogrepotest's.
package authortest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// Write writes a repository under dir: its sources (see
// declcfgtest.WriteRepoSources) and its catalogs, rendered from its templates.
func Write(ctx context.Context, dir string, o declcfgtest.RepoOptions) error {
	bundles, err := declcfgtest.WriteRepoSources(dir, o)
	if err != nil {
		return err
	}
	p, err := (&author.Repo{Root: dir}).Open(ctx, declcfgtest.RepoOperator)
	if err != nil {
		return err
	}
	plan, err := p.Expand(ctx, author.Options{Bundles: bundles})
	if err != nil {
		return err
	}
	return plan.Apply()
}

var (
	mu    sync.Mutex
	repos = map[declcfgtest.RepoOptions]*repoOnce{}
)

type repoOnce struct {
	sync.Once
	dir string
	err error
}

// ForBenchmark writes declcfgtest.BenchRepo once per test binary, into the
// temporary directory under a name that says what it holds (reused by
// later runs), and returns its directory. Benchmarks copy it before
// changing it.
func ForBenchmark(b *testing.B) string { return ForBenchmarkOf(b, declcfgtest.BenchRepo) }

// ForBenchmarkOf is ForBenchmark for a repository of any size.
func ForBenchmarkOf(b *testing.B, o declcfgtest.RepoOptions) string {
	b.Helper()
	mu.Lock()
	once := repos[o]
	if once == nil {
		once = &repoOnce{}
		repos[o] = once
	}
	mu.Unlock()
	once.Do(func() {
		once.dir = filepath.Join(os.TempDir(), o.Name())
		if _, err := os.Stat(once.dir); err == nil {
			return
		}
		tmp, err := os.MkdirTemp(os.TempDir(), "opm-bench-writing-")
		if err == nil {
			if err = Write(context.Background(), tmp, o); err == nil {
				err = os.Rename(tmp, once.dir)
			}
			if err != nil {
				os.RemoveAll(tmp)
			}
		}
		once.err = err
	})
	if once.err != nil {
		b.Fatal(once.err)
	}
	return once.dir
}
