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

func benchmarkWrite(b *testing.B, dir string, f declcfg.Format) {
	cfg, err := declcfg.LoadFS(context.Background(), os.DirFS(dir))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := declcfg.Write(cfg, io.Discard, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteJSON(b *testing.B) {
	benchmarkWrite(b, declcfgtest.BenchmarkCatalog(b), declcfg.FormatJSON)
}

func BenchmarkWriteYAML(b *testing.B) {
	benchmarkWrite(b, declcfgtest.BenchmarkCatalog(b), declcfg.FormatYAML)
}

// BenchmarkWriteReal* write the catalog $OPM_BENCH_CATALOG names, once
// loaded: the writers alone (encoding in parallel, as render does).
func BenchmarkWriteRealJSON(b *testing.B) {
	benchmarkWrite(b, declcfgtest.RealCatalog(b), declcfg.FormatJSON)
}

func BenchmarkWriteRealYAML(b *testing.B) {
	benchmarkWrite(b, declcfgtest.RealCatalog(b), declcfg.FormatYAML)
}
