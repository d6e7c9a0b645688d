package serve

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbcat/opm/declcfg/declcfgtest"
	"github.com/fbcat/opm/serve/api"
)

// benchmarkLoad measures what stands between process start and a healthy
// server: loading, validating and indexing the catalog.
func benchmarkLoad(b *testing.B, dir string, opts LoadOptions) {
	fsys := os.DirFS(dir)
	for b.Loop() {
		if _, err := Load(context.Background(), fsys, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadMedium(b *testing.B) {
	benchmarkLoad(b, declcfgtest.BenchmarkCatalog(b), LoadOptions{})
}
func BenchmarkLoadLarge(b *testing.B) {
	benchmarkLoad(b, declcfgtest.BenchmarkLargeCatalog(b), LoadOptions{})
}
func BenchmarkLoadLargeWithHTTP(b *testing.B) {
	benchmarkLoad(b, declcfgtest.BenchmarkLargeCatalog(b), LoadOptions{Blobs: true})
}

func BenchmarkLoadConformance(b *testing.B) {
	dir := filepath.Join("..", "..", "..", "shared", "conformance", "catalogs")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no conformance catalogs")
	}
	benchmarkLoad(b, dir, LoadOptions{})
}

func BenchmarkGetBundleForChannel(b *testing.B) {
	conn, cat := dial(b, declcfgtest.BenchmarkCatalog(b), LoadOptions{})
	client := api.NewRegistryClient(conn)
	var reqs []*api.GetBundleInChannelRequest
	for _, pn := range cat.model.PackageNames() {
		for _, cn := range cat.model.Packages[pn].ChannelNames() {
			reqs = append(reqs, &api.GetBundleInChannelRequest{PkgName: pn, ChannelName: cn})
		}
	}
	i := 0
	for b.Loop() {
		//lint:ignore SA1019 deprecated in the API, but OLM still calls it
		if _, err := client.GetBundleForChannel(context.Background(), reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkListBundles(b *testing.B) {
	conn, _ := dial(b, declcfgtest.BenchmarkCatalog(b), LoadOptions{})
	client := api.NewRegistryClient(conn)
	for b.Loop() {
		stream, err := client.ListBundles(context.Background(), &api.ListBundlesRequest{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := stream.Recv(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
