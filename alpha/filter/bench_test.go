package filter_test

import (
	"context"
	"io"
	"testing"

	"github.com/fbcat/opm/alpha/filter"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
	"github.com/fbcat/opm/render"
)

// benchmarkFilter renders the medium synthetic catalog, filters it with f
// (nil: no filter, as render) and writes the result.
func benchmarkFilter(b *testing.B, f *filter.Filter) {
	dir := declcfgtest.BenchmarkCatalog(b)
	r := &render.Renderer{}
	for b.Loop() {
		cfg, err := r.Run(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
		if f != nil {
			if cfg, err = filter.Apply(cfg, *f); err != nil {
				b.Fatal(err)
			}
		}
		if err := declcfg.Write(cfg, io.Discard, declcfg.FormatJSON); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderAll is the baseline: load and write everything.
func BenchmarkRenderAll(b *testing.B) { benchmarkFilter(b, nil) }

func BenchmarkFilterHeads(b *testing.B) { benchmarkFilter(b, &filter.Filter{}) }

func BenchmarkFilterFull(b *testing.B) { benchmarkFilter(b, &filter.Filter{Full: true}) }
