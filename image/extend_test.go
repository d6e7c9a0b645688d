package image_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
)

var (
	amd64 = v1.Platform{OS: "linux", Architecture: "amd64"}
	arm64 = v1.Platform{OS: "linux", Architecture: "arm64", Variant: "v8"}
)

// randomBody is n bytes that do not compress.
func randomBody(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pushBase pushes a two-platform base whose layers hold big random
// files, and returns its reference.
func pushBase(t *testing.T, reg string) string {
	t.Helper()
	a := imagetest.Image(t, map[string]string{"base": "yes"}, &amd64, imagetest.Layer(t, imagetest.Entry{Name: "bin/tool", Body: randomBody(t, 1<<20)}))
	b := imagetest.Image(t, map[string]string{"base": "yes"}, &arm64, imagetest.Layer(t, imagetest.Entry{Name: "bin/tool", Body: randomBody(t, 1<<20)}))
	ref := reg + "/base:v1"
	imagetest.PushIndex(t, ref, a, b)
	return ref
}

// buildOn extends each platform of base with a layer of dir.
func buildOn(t *testing.T, base *image.Base, dir string, platforms ...v1.Platform) v1.ImageIndex {
	t.Helper()
	layer, err := image.NewLayer(image.LayerSpec{Copies: []image.Copy{{Src: dir, Dst: "/configs"}}, Dirs: []image.Dir{{Path: "/tmp/cache", Mode: 0o755}}, Time: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var imgs []image.PlatformImage
	for _, p := range platforms {
		b, err := base.Image(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := image.Extend(b, image.Addition{Layer: layer, CreatedBy: "COPY configs /configs", Steps: []string{"CMD [\"serve\"]"},
			Time: time.Unix(0, 0), Config: func(cf *v1.ConfigFile) { cf.Config.Labels["added"] = "1" }})
		if err != nil {
			t.Fatal(err)
		}
		cf, _ := b.ConfigFile()
		imgs = append(imgs, image.PlatformImage{Platform: *cf.Platform(), Image: img})
	}
	idx, err := image.NewIndex(imgs)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// TestExtendPlatforms: the platforms of a two-platform base, a missing
// platform named with the ones there are, the layer and history added on
// each, the same digest twice, and an index readable from an OCI layout
// and archive per platform.
func TestExtendPlatforms(t *testing.T) {
	ctx := context.Background()
	ref := pushBase(t, imagetest.Registry(t, "", ""))
	base, err := image.OpenBase(ctx, ref, image.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := base.Platforms(); len(got) != 2 || got[0].String() != "linux/amd64" || got[1].String() != "linux/arm64/v8" {
		t.Fatalf("platforms %v", got)
	}
	_, err = base.Image(v1.Platform{OS: "linux", Architecture: "s390x"})
	if err == nil || !strings.Contains(err.Error(), "has no image for platform linux/s390x: it has linux/amd64, linux/arm64/v8") {
		t.Errorf("missing platform: %v", err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"pkg/catalog.yaml": "schema: olm.package\nname: pkg\n"})
	idx := buildOn(t, base, dir, amd64, v1.Platform{OS: "linux", Architecture: "arm64"})
	again := buildOn(t, base, dir, amd64, v1.Platform{OS: "linux", Architecture: "arm64"})
	d1, _ := idx.Digest()
	d2, _ := again.Digest()
	if d1 != d2 {
		t.Errorf("two builds: %s and %s", d1, d2)
	}
	if raw, _ := idx.RawManifest(); strings.Contains(string(raw), "artifactType") || !strings.Contains(string(raw), `"platform":{"architecture":"arm64","os":"linux","variant":"v8"}`) {
		t.Errorf("index manifest %s", raw)
	}
	layoutDir, archive := filepath.Join(t.TempDir(), "layout"), filepath.Join(t.TempDir(), "cat.tar")
	for _, target := range []string{"oci:" + layoutDir + ":cat", "oci-archive:" + archive} {
		got, err := image.WriteIndex(ctx, idx, target, image.Options{})
		if err != nil || got != d1 {
			t.Fatalf("WriteIndex %s = %s, %v", target, got, err)
		}
		for _, p := range []v1.Platform{amd64, arm64} {
			img, err := image.Pull(ctx, target, image.Options{Platform: &p})
			if err != nil {
				t.Fatalf("%s %s: %v", target, p, err)
			}
			if img.Labels["added"] != "1" || img.Labels["base"] != "yes" {
				t.Errorf("%s %s: labels %v", target, p, img.Labels)
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(archive))
	if len(entries) != 1 {
		t.Errorf("beside the archive: %v, want only it", entries)
	}
	img, err := idx.Image(mustChild(t, idx, 1))
	if err != nil {
		t.Fatal(err)
	}
	cf, _ := img.ConfigFile()
	if n := len(cf.History); n != 3 || cf.History[1].CreatedBy != "COPY configs /configs" || !cf.History[2].EmptyLayer || cf.Architecture != "arm64" {
		t.Errorf("history %+v, architecture %s", cf.History, cf.Architecture)
	}
	layers, _ := img.Layers()
	want := []string{"configs/ 755 0:0 0 ", "configs/pkg/ 755 0:0 0 ", "configs/pkg/catalog.yaml 644 0:0 0 schema: olm.package\nname: pkg\n", "tmp/cache/ 755 0:0 0 "}
	if got := layerEntries(t, layers[len(layers)-1]); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("layer %q, want %q", got, want)
	}
}

func mustChild(t *testing.T, idx v1.ImageIndex, i int) v1.Hash {
	t.Helper()
	im, err := idx.IndexManifest()
	if err != nil || len(im.Manifests) <= i {
		t.Fatalf("index manifest %v, %v", im, err)
	}
	if im.Manifests[i].MediaType != types.OCIManifestSchema1 && im.Manifests[i].MediaType != types.DockerManifestSchema2 {
		t.Errorf("child %d media type %s", i, im.Manifests[i].MediaType)
	}
	return im.Manifests[i].Digest
}

// uploadCounter counts the bytes of request bodies sent to a registry.
type uploadCounter struct {
	next  http.RoundTripper
	bytes atomic.Int64
}

func (c *uploadCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && (req.Method == http.MethodPut || req.Method == http.MethodPatch || req.Method == http.MethodPost) {
		data, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body.Close()
		c.bytes.Add(int64(len(data)))
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(strings.NewReader(string(data)))
	}
	return c.next.RoundTrip(req)
}

// TestPushReusesBaseBlobs: pushing an index built on a base of the same
// registry uploads the new layers, configurations and manifests, not
// the base's 2 MiB of layers (they are mounted).
func TestPushReusesBaseBlobs(t *testing.T) {
	imagetest.IsolateAuth(t)
	ctx := context.Background()
	reg := imagetest.Registry(t, "", "")
	counter := &uploadCounter{next: http.DefaultTransport}
	o := image.Options{Transport: counter}
	base, err := image.OpenBase(ctx, pushBase(t, reg), o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"pkg/catalog.yaml": "schema: olm.package\nname: pkg\n"})
	idx := buildOn(t, base, dir, amd64, arm64)
	want, _ := idx.Digest()
	got, err := image.WriteIndex(ctx, idx, reg+"/catalog:v1", o)
	if err != nil || got != want {
		t.Fatalf("WriteIndex = %s, %v", got, err)
	}
	t.Logf("uploaded %d bytes", counter.bytes.Load())
	if n := counter.bytes.Load(); n > 64<<10 {
		t.Errorf("uploaded %d bytes: the base's layers were sent again", n)
	}
	pulled, err := image.Pull(ctx, reg+"/catalog:v1", image.Options{Platform: &arm64})
	if err != nil || pulled.Labels["added"] != "1" {
		t.Fatalf("pull back: %v, %v", pulled, err)
	}
}

// TestReadFile: the topmost layer wins, whiteouts hide, symbolic links
// of the file and of a directory above it are followed.
func TestReadFile(t *testing.T) {
	img := imagetest.Image(t, nil, nil,
		imagetest.Layer(t, imagetest.Entry{Name: "usr/bin/opm", Body: "old"}, imagetest.Entry{Name: "etc/gone", Body: "x"}),
		imagetest.Layer(t, imagetest.Entry{Name: "bin", Type: '2', Linkname: "usr/bin"}, imagetest.Entry{Name: "usr/bin/opm", Body: "new"},
			imagetest.Entry{Name: "etc/.wh.gone"}, imagetest.Entry{Name: "usr/local/opm", Type: '2', Linkname: "../bin/opm"}))
	for name, want := range map[string]string{"/bin/opm": "new", "usr/bin/opm": "new", "/usr/local/opm": "new"} {
		if got, err := image.ReadFile(img, name, 1<<20); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	for _, name := range []string{"/etc/gone", "/nothing"} {
		if _, err := image.ReadFile(img, name, 1<<20); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v, want not found", name, err)
		}
	}
	if _, err := image.ReadFile(img, "/bin/opm", 2); err == nil || !strings.Contains(err.Error(), "more than the 2 read") {
		t.Errorf("size limit: %v", err)
	}
}

// TestOpenBaseLayout: a base in an OCI layout offers each platform it
// has, and names the one it lists when asked for another.
func TestOpenBaseLayout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// Its layer is compressed as another tool would (best compression),
	// so that compressing it again would give other bytes.
	rc, err := imagetest.Layer(t, imagetest.Entry{Name: "bin/opm", Body: strings.Repeat("opm serve ", 8192)}).Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	tarData, _ := io.ReadAll(rc)
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(tarData)), nil },
		tarball.WithCompressionLevel(gzip.BestCompression))
	if err != nil {
		t.Fatal(err)
	}
	stored := imagetest.Image(t, map[string]string{"arch": "arm64"}, &arm64, layer)
	imagetest.WriteLayoutIndex(t, dir, "base", imagetest.Image(t, map[string]string{"arch": "amd64"}, &amd64), stored)
	base, err := image.OpenBase(ctx, "oci:"+dir+":base", image.Options{})
	if err != nil {
		t.Fatal(err)
	}
	img, err := base.Image(v1.Platform{OS: "linux", Architecture: "arm64"})
	if err != nil {
		t.Fatal(err)
	}
	if cf, _ := img.ConfigFile(); cf.Config.Labels["arch"] != "arm64" {
		t.Errorf("arm64 image labels %v", cf.Config.Labels)
	}
	// The image is read as stored: same manifest digest and layer blobs,
	// so that an image built on it reuses them instead of compressing
	// the base's layers again.
	want, _ := stored.Digest()
	if got, err := img.Digest(); err != nil || got != want {
		t.Errorf("digest %v (%v), want the stored manifest's %v", got, err, want)
	}
	wantLayers, _ := stored.Layers()
	gotLayers, err := img.Layers()
	if err != nil || len(gotLayers) != len(wantLayers) {
		t.Fatalf("layers %d (%v), want %d", len(gotLayers), err, len(wantLayers))
	}
	for i, l := range gotLayers {
		got, _ := l.Digest()
		w, _ := wantLayers[i].Digest()
		rc, err := l.Compressed()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		sum := sha256.Sum256(data)
		if got != w || err != nil || "sha256:"+hex.EncodeToString(sum[:]) != w.String() {
			t.Errorf("layer %d: digest %v, blob sha256:%x (%v), want %v", i, got, sum, err, w)
		}
	}
	if _, err := base.Image(v1.Platform{OS: "linux", Architecture: "ppc64le"}); err == nil || !strings.Contains(err.Error(), "no manifest for platform linux/ppc64le") {
		t.Errorf("missing platform: %v", err)
	}
}
