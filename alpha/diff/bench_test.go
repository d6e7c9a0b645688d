package diff_test

import (
	"io"
	"testing"

	"github.com/fbcat/opm/alpha/diff"
	"github.com/fbcat/opm/alpha/filter"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// BenchmarkDiff compares the medium synthetic catalog with its heads:
// both loaded, every object compared, the text written.
func BenchmarkDiff(b *testing.B) {
	dir := declcfgtest.BenchmarkCatalog(b)
	for b.Loop() {
		old := load(b, dir)
		heads, err := filter.Apply(load(b, dir), filter.Filter{})
		if err != nil {
			b.Fatal(err)
		}
		if err := diff.WriteText(io.Discard, diff.Compare(old, heads)); err != nil {
			b.Fatal(err)
		}
	}
}
