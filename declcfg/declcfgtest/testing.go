package declcfgtest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Medium is the catalog Go benchmarks use: 40 packages, about 650
// bundles, about 15 MB, the size of a real community catalog.
var Medium = Options{Packages: 40, Bundles: 650, Seed: 1}

// catalogOnce provides a benchmark catalog. It is written once into the
// temporary directory, under a name that says what it holds, and reused by
// later runs (a catalog is complete once its directory has its final name).
type catalogOnce struct {
	once sync.Once
	dir  string
	err  error
}

func (c *catalogOnce) get(b *testing.B, o Options) string {
	b.Helper()
	c.once.Do(func() {
		c.dir = filepath.Join(os.TempDir(), o.Name())
		if _, err := os.Stat(c.dir); err == nil {
			return
		}
		tmp, err := os.MkdirTemp(os.TempDir(), "opm-bench-writing-")
		if err == nil {
			if err = Write(tmp, o); err == nil {
				err = os.Rename(tmp, c.dir)
			}
			if err != nil {
				os.RemoveAll(tmp)
			}
		}
		c.err = err
	})
	if c.err != nil {
		b.Fatal(c.err)
	}
	return c.dir
}

var medium, large catalogOnce

// BenchmarkCatalog writes the Medium catalog once per test binary and
// returns its directory.
func BenchmarkCatalog(b *testing.B) string { return medium.get(b, Medium) }

// BenchmarkLargeCatalog writes the Large catalog once per test binary and
// returns its directory.
func BenchmarkLargeCatalog(b *testing.B) string { return large.get(b, Large) }

// RealCatalogEnv names the environment variable that gives benchmarks a
// catalog of real data: a directory, as bench/cmd/realcatalog writes one
// from community-operators-prod (see docs/performance.md).
const RealCatalogEnv = "OPM_BENCH_CATALOG"

// RealCatalog returns the directory $OPM_BENCH_CATALOG names, and skips
// the benchmark when it names none.
func RealCatalog(b *testing.B) string {
	b.Helper()
	dir := os.Getenv(RealCatalogEnv)
	if dir == "" {
		b.Skip(RealCatalogEnv + " names no catalog of real data")
	}
	return dir
}
