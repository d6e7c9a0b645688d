// Package imagetest builds images and serves them from go-containerregistry's
// in-process registry on a loopback port, for tests.
package imagetest

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
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
	idx := index(t, imgs...)
	r, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.WriteIndex(r, idx); err != nil {
		t.Fatal(err)
	}
}

// index makes a multi-platform index of the images.
func index(t testing.TB, imgs ...v1.Image) v1.ImageIndex {
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
	return idx
}

// WriteLayout adds img to the OCI image layout dir (made if missing),
// named name (org.opencontainers.image.ref.name) unless name is empty.
func WriteLayout(t testing.TB, dir, name string, img v1.Image) {
	t.Helper()
	p := layoutPath(t, dir)
	var opts []layout.Option
	if name != "" {
		opts = append(opts, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": name}))
	}
	if err := p.AppendImage(img, opts...); err != nil {
		t.Fatal(err)
	}
}

// WriteLayoutIndex adds a multi-platform index of the images to the OCI
// image layout dir, named name.
func WriteLayoutIndex(t testing.TB, dir, name string, imgs ...v1.Image) {
	t.Helper()
	if err := layoutPath(t, dir).AppendIndex(index(t, imgs...), layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": name})); err != nil {
		t.Fatal(err)
	}
}

func layoutPath(t testing.TB, dir string) layout.Path {
	t.Helper()
	if p, err := layout.FromPath(dir); err == nil {
		return p
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TarDir writes the files under dir to a tar file (an OCI archive when
// dir is an OCI layout).
func TarDir(t testing.TB, dir, file string) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.AddFS(os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteDockerArchive writes the images to file as "docker save" does:
// manifest.json, each configuration as <hex>.json, each layer
// uncompressed as <diff ID hex>/layer.tar, tagged with tags[i] (none when
// empty).
func WriteDockerArchive(t testing.TB, file string, tags []string, imgs ...v1.Image) {
	t.Helper()
	type entry struct {
		Config   string
		RepoTags []string
		Layers   []string
	}
	var manifest []entry
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(name string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	for i, img := range imgs {
		cfg, err := img.RawConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		name, err := img.ConfigName()
		if err != nil {
			t.Fatal(err)
		}
		e := entry{Config: name.Hex + ".json"}
		if i < len(tags) && tags[i] != "" {
			e.RepoTags = []string{tags[i]}
		}
		add(e.Config, cfg)
		layers, err := img.Layers()
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range layers {
			diffID, err := l.DiffID()
			if err != nil {
				t.Fatal(err)
			}
			rc, err := l.Uncompressed()
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			e.Layers = append(e.Layers, diffID.Hex+"/layer.tar")
			add(diffID.Hex+"/layer.tar", data)
		}
		manifest = append(manifest, e)
	}
	data, err := json.Marshal(manifest)
	if err != nil {
		t.Fatal(err)
	}
	add("manifest.json", data)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// GoBinary builds a tiny Go program whose main module is module, for
// tests that read a binary's build information (debug/buildinfo). It
// needs the go command.
func GoBinary(t testing.TB, module string) []byte {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is needed to build a test binary: %v", err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module " + module + "\n\ngo 1.21\n",
		"main.go": "package main\n\nfunc main() {}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", "prog")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building a test binary: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "prog"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
