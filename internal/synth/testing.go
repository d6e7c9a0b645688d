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

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// BenchmarkCatalog writes the Medium catalog once per test binary and
// returns its directory.
func BenchmarkCatalog(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "opm-bench-")
		if benchErr == nil {
			benchErr = Write(benchDir, Medium)
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return filepath.Clean(benchDir)
}
