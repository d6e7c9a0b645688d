package image_test

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
)

// layerEntries lists a layer's tar entries as "name mode uid:gid mtime
// [body]".
func layerEntries(t *testing.T, l v1.Layer) []string {
	t.Helper()
	rc, err := l.Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var out []string
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		out = append(out, fmt.Sprintf("%s %o %d:%d %d %s", h.Name, h.Mode, h.Uid, h.Gid, h.ModTime.Unix(), body))
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBuildFromScratch: one layer per copy, under its destination,
// files owned by root with their modes and the build time; the labels;
// the history of COPY lines; the same input makes the same image.
func TestBuildFromScratch(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"m/csv.yaml": "csv", "m/sub/run.sh": "#!/bin/sh", "meta/annotations.yaml": "a"})
	if err := os.Chmod(filepath.Join(dir, "m/sub/run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	when := time.Unix(1700000000, 0)
	spec := image.BuildSpec{
		Labels: map[string]string{"a": "1"},
		Copies: []image.Copy{{Src: filepath.Join(dir, "m"), Dst: "/manifests/"}, {Src: filepath.Join(dir, "meta"), Dst: "/"}},
		Time:   when,
	}
	img, err := image.Build(context.Background(), spec, image.Options{})
	if err != nil {
		t.Fatal(err)
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 2 {
		t.Fatalf("%d layers, %v", len(layers), err)
	}
	want := []string{"manifests/ 755 0:0 1700000000 ", "manifests/csv.yaml 644 0:0 1700000000 csv", "manifests/sub/ 755 0:0 1700000000 ", "manifests/sub/run.sh 755 0:0 1700000000 #!/bin/sh"}
	if runtime.GOOS == "windows" {
		want[3] = strings.Replace(want[3], " 755 ", " 666 ", 1)
	}
	if got := layerEntries(t, layers[0]); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("first layer:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := layerEntries(t, layers[1]); len(got) != 1 || got[0] != "annotations.yaml 644 0:0 1700000000 a" {
		t.Errorf("a copy to / has no directory entry: %v", got)
	}
	if mt, _ := layers[0].MediaType(); mt != types.OCILayer {
		t.Errorf("layer media type %s, want OCI on scratch", mt)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cf.Config.Labels["a"] != "1" || cf.OS != "linux" || !cf.Created.Time.Equal(when) || len(cf.History) != 2 ||
		cf.History[0].CreatedBy != "COPY m /manifests/" || cf.History[1].CreatedBy != "COPY meta /" {
		t.Errorf("config %+v", cf)
	}
	again, err := image.Build(context.Background(), spec, image.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := img.Digest()
	d2, _ := again.Digest()
	if d1 != d2 {
		t.Errorf("same input, digests %s and %s", d1, d2)
	}
}

// TestBuildOnBase: a base image keeps its labels and layers, and a
// Docker base gets Docker layers.
func TestBuildOnBase(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	base := host + "/base:1"
	imagetest.Push(t, base, imagetest.Image(t, map[string]string{"base": "yes", "a": "old"}, nil, imagetest.Layer(t, imagetest.Entry{Name: "bin/tool", Body: "x"})))
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"f": "y"})
	img, err := image.Build(context.Background(), image.BuildSpec{Base: base, Labels: map[string]string{"a": "new"}, Copies: []image.Copy{{Src: dir, Dst: "/configs"}}}, image.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cf.Config.Labels["base"] != "yes" || cf.Config.Labels["a"] != "new" || cf.Architecture != "amd64" {
		t.Errorf("labels %v, arch %s", cf.Config.Labels, cf.Architecture)
	}
	layers, _ := img.Layers()
	if len(layers) != 2 {
		t.Fatalf("%d layers, want the base's and the copy's", len(layers))
	}
	if mt, _ := layers[1].MediaType(); mt != types.DockerLayer {
		t.Errorf("layer on a Docker base: %s", mt)
	}
	if got := layerEntries(t, layers[1]); len(got) != 2 || !strings.HasPrefix(got[1], "configs/f 644 0:0 ") {
		t.Errorf("copy layer %v", got)
	}
	_, err = image.Build(context.Background(), image.BuildSpec{Base: host + "/nothing:1"}, image.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "base image: ") || !strings.Contains(err.Error(), "image not found") {
		t.Errorf("missing base: %v", err)
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ok/f": "x"})
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "loop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "loop"), filepath.Join(dir, "loop", "self")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "deep", strings.Repeat("d/", 66)), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct{ src, want string }{
		"missing":  {filepath.Join(dir, "missing"), "no such file or directory"},
		"dangling": {dir, "dangling: no such file or directory"},
		// the OS's own limit may come first: either way it is an error
		"link loop": {filepath.Join(dir, "loop"), "symbolic link"},
		"too deep":  {filepath.Join(dir, "deep"), "directories nested too deep (a symbolic link loop?)"},
	} {
		_, err := image.Build(context.Background(), image.BuildSpec{Copies: []image.Copy{{Src: tc.src, Dst: "/x"}}}, image.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "building the layer of "+tc.src+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
}
