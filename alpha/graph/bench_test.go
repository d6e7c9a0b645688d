package graph_test

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/fbcat/opm/alpha/graph"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

// BenchmarkWriteMermaid draws the benchmark catalog (indexing included,
// loading not), as render-template -o mermaid would.
func BenchmarkWriteMermaid(b *testing.B) {
	cfg, err := declcfg.LoadFS(context.Background(), os.DirFS(declcfgtest.BenchmarkCatalog(b)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := graph.WriteMermaid(io.Discard, cfg, graph.Options{V0Semantics: true}); err != nil {
			b.Fatal(err)
		}
	}
}
