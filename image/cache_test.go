package image_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

// blobCounter counts blob downloads; with failBody set, blob bodies break
// after a few bytes.
type blobCounter struct {
	n        atomic.Int64
	failBody atomic.Bool
}

func (c *blobCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && strings.Contains(req.URL.Path, "/blobs/") && req.Method == http.MethodGet {
		c.n.Add(1)
		if c.failBody.Load() {
			resp.Body = &breakingBody{resp.Body}
		}
	}
	return resp, err
}

type breakingBody struct{ io.ReadCloser }

func (b *breakingBody) Read(p []byte) (int, error) {
	n, _ := b.ReadCloser.Read(p[:min(len(p), 10)])
	return n, io.ErrUnexpectedEOF
}

func TestLayerCache(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	ref := host + "/cached:1"
	imagetest.Push(t, ref, imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil,
		imagetest.Layer(t, entry{Name: "configs/a.json", Body: strings.Repeat("a", 5000)}),
		imagetest.Layer(t, entry{Name: "configs/b.json", Body: "b"})))
	cache := t.TempDir()
	counter := &blobCounter{}
	extract := func(brokenLayers bool) ([]string, error) {
		img, err := image.Pull(context.Background(), ref, image.Options{CacheDir: cache, Transport: counter})
		if err != nil {
			t.Fatal(err)
		}
		counter.failBody.Store(brokenLayers)
		defer counter.failBody.Store(false)
		dst := t.TempDir()
		if err := img.Extract(context.Background(), dst, "configs"); err != nil {
			return nil, err
		}
		return tree(t, dst), nil
	}
	cached := func() []string {
		files, _ := filepath.Glob(filepath.Join(cache, "sha256", "*"))
		return files
	}

	// A broken download caches nothing and leaves no partial file.
	if _, err := extract(true); err == nil {
		t.Fatal("extraction over a broken connection succeeded")
	}
	if files := cached(); len(files) != 0 {
		t.Fatalf("a broken download left %v", files)
	}
	if partial, _ := filepath.Glob(filepath.Join(cache, "sha256", ".partial-*")); len(partial) != 0 {
		t.Fatalf("partial files left: %v", partial)
	}

	counter.n.Store(0)
	first, err := extract(false)
	if err != nil {
		t.Fatal(err)
	}
	if got := counter.n.Load(); got != 3 {
		t.Errorf("first pull downloaded %d blobs, want the config and two layers", got)
	}
	if files := cached(); len(files) != 2 {
		t.Fatalf("cache holds %v, want the two layers", files)
	}

	counter.n.Store(0)
	second, err := extract(false)
	if err != nil {
		t.Fatal(err)
	}
	if got := counter.n.Load(); got != 1 {
		t.Errorf("second pull downloaded %d blobs, want only the config", got)
	}
	if strings.Join(first, ",") != strings.Join(second, ",") {
		t.Errorf("from the cache: %v, want %v", second, first)
	}

	// A damaged cache entry is an error, removed, and downloaded again.
	damaged := cached()[0]
	if err := os.WriteFile(damaged, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := extract(false); err == nil || !strings.Contains(err.Error(), damaged+" is damaged") {
		t.Fatalf("damaged cache: %v", err)
	}
	third, err := extract(false)
	if err != nil || strings.Join(third, ",") != strings.Join(first, ",") {
		t.Errorf("after the damage: %v, %v", third, err)
	}
}
