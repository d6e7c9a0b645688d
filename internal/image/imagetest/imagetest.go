// Package imagetest builds images and serves them from go-containerregistry's
// in-process registry on a loopback port, for tests.
package imagetest

import (
	"archive/tar"
	"bytes"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Registry starts an in-process registry on 127.0.0.1 and returns its
// host:port. With user and password set, every request must carry them
// (basic auth). It is stopped when the test ends.
func Registry(t testing.TB, user, password string) string {
	t.Helper()
	var h http.Handler = registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	if user != "" {
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			u, p, ok := r.BasicAuth()
			if !ok {
				w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
				http.Error(w, "authentication required", http.StatusUnauthorized)
				return
			}
			if u != user || p != password {
				http.Error(w, "denied", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// IsolateAuth points every place registry credentials are read from at
// empty directories, for the rest of the test.
func IsolateAuth(t testing.TB) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("REGISTRY_AUTH_FILE", "")
	t.Setenv("DOCKER_CONFIG", filepath.Join(dir, "docker"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(dir, "run"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
}

// Entry is one tar entry of a crafted layer.
type Entry struct {
	Name     string
	Type     byte // tar.TypeReg when zero
	Body     string
	Linkname string
	Size     int64 // the header's size when Body is empty (for size limits)
}

// Layer makes a layer of the entries, in order.
func Layer(t testing.TB, entries ...Entry) v1.Layer {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		hdr := &tar.Header{Name: e.Name, Typeflag: e.Type, Linkname: e.Linkname, Mode: 0o644, Size: int64(len(e.Body))}
		if hdr.Typeflag == 0 {
			hdr.Typeflag = tar.TypeReg
		}
		if hdr.Typeflag == tar.TypeDir {
			hdr.Mode = 0o755
		}
		if e.Size > 0 && e.Body == "" {
			hdr.Size = e.Size
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if e.Body != "" {
			if _, err := io.WriteString(tw, e.Body); err != nil {
				t.Fatal(err)
			}
		} else if hdr.Size > 0 {
			if _, err := io.CopyN(tw, zeros{}, hdr.Size); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
	if err != nil {
		t.Fatal(err)
	}
	return l
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// DirLayer makes a layer of the regular files and directories under dir,
// placed under prefix in the image (e.g. "configs").
func DirLayer(t testing.TB, dir, prefix string) v1.Layer {
	t.Helper()
	var entries []Entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := path.Join(prefix, filepath.ToSlash(rel))
		switch {
		case d.IsDir():
			if name != "." {
				entries = append(entries, Entry{Name: name + "/", Type: tar.TypeDir})
			}
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entries = append(entries, Entry{Name: name, Body: string(data)})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return Layer(t, entries...)
}

// Image makes an image of the layers with the labels and platform
// (default linux/amd64).
func Image(t testing.TB, labels map[string]string, platform *v1.Platform, layers ...v1.Layer) v1.Image {
	t.Helper()
	img, err := mutate.AppendLayers(empty.Image, layers...)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	cf = cf.DeepCopy()
	cf.Config.Labels = labels
	cf.OS, cf.Architecture = "linux", "amd64"
	if platform != nil {
		cf.OS, cf.Architecture, cf.Variant = platform.OS, platform.Architecture, platform.Variant
	}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// Push writes img to ref (host:port/repo:tag) with the given options
// (e.g. credentials).
func Push(t testing.TB, ref string, img v1.Image, opts ...remote.Option) {
	t.Helper()
	r, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(r, img, opts...); err != nil {
		t.Fatal(err)
	}
}

// PushIndex writes a multi-platform index of the images to ref.
func PushIndex(t testing.TB, ref string, imgs ...v1.Image) {
	t.Helper()
	var idx v1.ImageIndex = empty.Index
	for _, img := range imgs {
		cf, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{
			Add:        img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: cf.OS, Architecture: cf.Architecture, Variant: cf.Variant}},
		})
	}
	r, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.WriteIndex(r, idx); err != nil {
		t.Fatal(err)
	}
}
