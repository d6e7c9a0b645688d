package image_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/option"
)

// rawLayout writes an OCI image layout by hand, so that tests can make
// every part of it wrong.
type rawLayout struct {
	t   *testing.T
	dir string
}

func newRawLayout(t *testing.T) rawLayout {
	t.Helper()
	l := rawLayout{t, t.TempDir()}
	if err := os.MkdirAll(filepath.Join(l.dir, "blobs", "sha256"), 0o755); err != nil {
		t.Fatal(err)
	}
	return l
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// blob stores data and returns a descriptor of it (JSON, without media
// type).
func (l rawLayout) blob(data []byte) map[string]any {
	l.t.Helper()
	d := sha(data)
	if err := os.WriteFile(filepath.Join(l.dir, "blobs", "sha256", strings.TrimPrefix(d, "sha256:")), data, 0o644); err != nil {
		l.t.Fatal(err)
	}
	return map[string]any{"digest": d, "size": len(data)}
}

func (l rawLayout) json(v any) []byte {
	l.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		l.t.Fatal(err)
	}
	return data
}

// image stores a config with diffIDs and a manifest of the layer
// descriptors, and returns the manifest's descriptor.
func (l rawLayout) image(diffIDs []string, layers ...map[string]any) map[string]any {
	config := l.blob(l.json(map[string]any{"os": "linux", "architecture": "amd64",
		"config": map[string]any{"Labels": map[string]string{"operators.operatorframework.io.bundle.package.v1": "p"}},
		"rootfs": map[string]any{"type": "layers", "diff_ids": diffIDs}}))
	return l.blob(l.json(map[string]any{"schemaVersion": 2, "config": config, "layers": layers}))
}

// index writes index.json listing the descriptors.
func (l rawLayout) index(descs ...map[string]any) string {
	l.t.Helper()
	if err := os.WriteFile(filepath.Join(l.dir, "index.json"), l.json(map[string]any{"schemaVersion": 2, "manifests": descs}), 0o644); err != nil {
		l.t.Fatal(err)
	}
	return "oci:" + l.dir
}

func tarOf(t *testing.T, name, body string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte(body))
	tw.Close()
	return buf.Bytes()
}

// TestLayoutLayerCompressions: layers stored plain or zstd-compressed,
// in a manifest without a media type, are read and checked.
func TestLayoutLayerCompressions(t *testing.T) {
	l := newRawLayout(t)
	plain := tarOf(t, "manifests/a.yaml", "a")
	zplain := tarOf(t, "manifests/b.yaml", "b")
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zdata := enc.EncodeAll(zplain, nil)
	enc.Close()
	ref := l.index(l.image([]string{sha(plain), sha(zplain)}, l.blob(plain), l.blob(zdata)))
	img, err := image.Pull(context.Background(), ref, image.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := img.Extract(context.Background(), dst); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, dst); !slices.Equal(got, []string{"manifests/", "manifests/a.yaml=a", "manifests/b.yaml=b"}) {
		t.Errorf("extracted %q", got)
	}

	bad := newRawLayout(t)
	notGzip := append([]byte{0x1f, 0x8b}, []byte("not gzip at all")...)
	img, err = image.Pull(context.Background(), bad.index(bad.image([]string{sha(plain)}, bad.blob(notGzip))), image.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := img.Extract(context.Background(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "layer blobs/sha256/") {
		t.Errorf("broken gzip layer: %v", err)
	}
}

// platformed gives a descriptor the platform linux/arch.
func platformed(d map[string]any, arch string) map[string]any {
	d["platform"] = map[string]string{"os": "linux", "architecture": arch}
	return d
}

// TestLayoutCorruption: every broken part of a layout is an error that
// names the layout and what is wrong.
func TestLayoutCorruption(t *testing.T) {
	layer := tarOf(t, "manifests/a.yaml", "a")
	tests := []struct {
		name string
		make func(l rawLayout) string
		want string
	}{
		{"index.json not JSON", func(l rawLayout) string {
			ref := l.index()
			os.WriteFile(filepath.Join(l.dir, "index.json"), []byte("{"), 0o644)
			return ref
		}, "index.json: unexpected end of JSON input"},
		{"manifest missing", func(l rawLayout) string {
			return l.index(map[string]any{"digest": sha([]byte("gone")), "size": 4})
		}, "no such file or directory"},
		{"manifest altered", func(l rawLayout) string {
			d := l.blob([]byte("{}"))
			d["digest"] = sha([]byte("other"))
			os.WriteFile(filepath.Join(l.dir, "blobs", "sha256", strings.TrimPrefix(sha([]byte("other")), "sha256:")), []byte("{} "), 0o644)
			return l.index(d)
		}, "does not match its digest"},
		{"manifest a directory", func(l rawLayout) string {
			d := sha([]byte("dir"))
			os.Mkdir(filepath.Join(l.dir, "blobs", "sha256", strings.TrimPrefix(d, "sha256:")), 0o755)
			return l.index(map[string]any{"digest": d, "size": 1})
		}, "is not a regular file"},
		{"manifest not JSON", func(l rawLayout) string { return l.index(l.blob([]byte("[1"))) }, "manifest sha256:"},
		{"sha512 digest", func(l rawLayout) string {
			return l.index(map[string]any{"digest": "sha512:" + strings.Repeat("a", 128), "size": 1})
		}, `unsupported digest "sha512:`},
		{"config not JSON", func(l rawLayout) string {
			return l.index(l.blob(l.json(map[string]any{"schemaVersion": 2, "config": l.blob([]byte("[")), "layers": []any{}})))
		}, "configuration sha256:"},
		{"layer count", func(l rawLayout) string { return l.index(l.image(nil, l.blob(layer))) }, "has 1 layers but its configuration 0"},
		{"layer digest sha512", func(l rawLayout) string {
			return l.index(l.image([]string{sha(layer)}, map[string]any{"digest": "sha512:" + strings.Repeat("a", 128), "size": 1}))
		}, "layer 1: unsupported digest"},
		{"no manifest for the platform", func(l rawLayout) string {
			idx := l.blob(l.json(map[string]any{"schemaVersion": 2, "manifests": []any{
				platformed(l.image(nil), "arm64"), l.image(nil), platformed(l.image(nil), "s390x")}}))
			return l.index(idx)
		}, "the image has no manifest for platform linux/amd64: it has linux/arm64, linux/s390x"},
		{"index not JSON", func(l rawLayout) string {
			d := l.blob([]byte(`{"manifests": 5}`))
			d["mediaType"] = "application/vnd.oci.image.index.v1+json"
			return l.index(d)
		}, "image index sha256:"},
		{"indexes nested too deep", func(l rawLayout) string {
			d := platformed(l.image(nil), "amd64")
			for range 6 {
				d = platformed(l.blob(l.json(map[string]any{"schemaVersion": 2, "manifests": []any{d}})), "amd64")
			}
			return l.index(d)
		}, "image indexes nested too deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newRawLayout(t)
			ref := tt.make(l)
			_, err := image.Pull(context.Background(), ref, image.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), l.dir) {
				t.Errorf("error %v, want one naming %s and containing %q", err, l.dir, tt.want)
			}
		})
	}
}

// TestLayoutPlatformIsAnOptionError: a layout without the platform asked
// for is an option.Error for Platform, so that a caller can name its own
// way of choosing another.
func TestLayoutPlatformIsAnOptionError(t *testing.T) {
	l := newRawLayout(t)
	idx := l.blob(l.json(map[string]any{"schemaVersion": 2, "manifests": []any{platformed(l.image(nil), "arm64")}}))
	_, err := image.Pull(context.Background(), l.index(idx), image.Options{})
	var oe *option.Error
	if !errors.As(err, &oe) || !slices.Contains(oe.Names(), image.OptionPlatform) || strings.Contains(err.Error(), "--platform") {
		t.Errorf("error %v: want an option.Error for Platform that names no flag", err)
	}
}
