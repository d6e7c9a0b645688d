package synth

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// Medium is the catalog Go benchmarks use: 40 packages of 20 bundles,
// about 15 MB of YAML, the size of a real community catalog.
var Medium = Options{Packages: 40, BundlesPerPackage: 20, Format: declcfg.FormatYAML, Seed: 1}

// catalogOnce writes a catalog once per test binary.
type catalogOnce struct {
	once sync.Once
	dir  string
	err  error
}

func (c *catalogOnce) get(b *testing.B, o Options) string {
	b.Helper()
	c.once.Do(func() {
		c.dir, c.err = os.MkdirTemp("", "opm-bench-")
		if c.err == nil {
			c.err = Write(c.dir, o)
		}
	})
	if c.err != nil {
		b.Fatal(c.err)
	}
	return filepath.Clean(c.dir)
}

var medium, large catalogOnce

// BenchmarkCatalog writes the Medium catalog once per test binary and
// returns its directory.
func BenchmarkCatalog(b *testing.B) string { return medium.get(b, Medium) }

// BenchmarkLargeCatalog writes the Large catalog once per test binary and
// returns its directory.
func BenchmarkLargeCatalog(b *testing.B) string { return large.get(b, Large) }
