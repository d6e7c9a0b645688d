package declcfg_test

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/declcfg/declcfgtest"
)

func BenchmarkLoad(b *testing.B) {
	fsys := os.DirFS(declcfgtest.BenchmarkCatalog(b))
	for b.Loop() {
		if _, err := declcfg.LoadFS(context.Background(), fsys); err != nil {
			b.Fatal(err)
		}
	}
}

func benchmarkWrite(b *testing.B, f declcfg.Format) {
	cfg, err := declcfg.LoadFS(context.Background(), os.DirFS(declcfgtest.BenchmarkCatalog(b)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := declcfg.Write(cfg, io.Discard, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteJSON(b *testing.B) { benchmarkWrite(b, declcfg.FormatJSON) }
func BenchmarkWriteYAML(b *testing.B) { benchmarkWrite(b, declcfg.FormatYAML) }
