package image_test

import (
	"archive/tar"
	"bytes"
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
)

type entry = imagetest.Entry

// pullLayers pushes an image of the layers and pulls it back.
func pullLayers(t *testing.T, opts image.Options, layers ...v1.Layer) *image.Image {
	t.Helper()
	host := imagetest.Registry(t, "", "")
	ref := host + "/extract:1"
	imagetest.Push(t, ref, imagetest.Image(t, map[string]string{labels.Configs: "/configs"}, nil, layers...))
	img, err := image.Pull(context.Background(), ref, opts)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// tree lists the files under dir as "path" (files, with content),
// "path/" (directories) and "path -> target" (links).
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
		case d.IsDir():
			out = append(out, rel+"/")
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out = append(out, rel+" -> "+target)
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, rel+"="+string(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestExtract(t *testing.T) {
	imagetest.IsolateAuth(t)
	img := pullLayers(t, image.Options{},
		imagetest.Layer(t,
			entry{Name: "configs/", Type: tar.TypeDir},
			entry{Name: "configs/a/catalog.json", Body: "old"},
			entry{Name: "configs/gone.json", Body: "x"},
			entry{Name: "configs/dir/x.json", Body: "x"},
			entry{Name: "bin/opm", Body: "binary"},
			entry{Name: "etc/passwd", Body: "root"},
		),
		imagetest.Layer(t,
			entry{Name: "./configs/a/catalog.json", Body: "new"},
			entry{Name: "configs/.wh.gone.json"},
			entry{Name: "configs/dir/.wh..wh..opq"},
			entry{Name: "configs/dir/y.json", Body: "y"},
			entry{Name: "configs/link.json", Type: tar.TypeSymlink, Linkname: "a/catalog.json"},
			entry{Name: "configs/a/abs.json", Type: tar.TypeSymlink, Linkname: "/configs/dir/y.json"},
			entry{Name: "configs/hard.json", Type: tar.TypeLink, Linkname: "configs/a/catalog.json"},
		),
	)
	dst := t.TempDir()
	if err := img.Extract(context.Background(), dst, "configs"); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(tree(t, dst), "\n")
	want := strings.Join([]string{
		"configs/",
		"configs/a/",
		"configs/a/abs.json -> ../dir/y.json",
		"configs/a/catalog.json=new",
		"configs/dir/",
		"configs/dir/y.json=y",
		"configs/hard.json=new",
		"configs/link.json -> a/catalog.json",
	}, "\n")
	if got != want {
		t.Errorf("extracted:\n%s\nwant:\n%s", got, want)
	}
	st, err := os.Stat(filepath.Join(dst, "configs", "a", "catalog.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v (%v), want 0600", st.Mode(), err)
	}
}

func TestExtractHardLinkToLowerLayer(t *testing.T) {
	imagetest.IsolateAuth(t)
	img := pullLayers(t, image.Options{},
		imagetest.Layer(t, entry{Name: "configs/x.json", Body: "x"}),
		imagetest.Layer(t, entry{Name: "configs/h.json", Type: tar.TypeLink, Linkname: "configs/x.json"}),
	)
	dst := t.TempDir()
	if err := img.Extract(context.Background(), dst, "configs"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tree(t, dst), ","); got != "configs/,configs/h.json=x,configs/x.json=x" {
		t.Errorf("extracted %s", got)
	}
}

func TestExtractEverything(t *testing.T) {
	imagetest.IsolateAuth(t)
	img := pullLayers(t, image.Options{},
		imagetest.Layer(t, entry{Name: "a.json", Body: "a"}, entry{Name: "d/b.json", Body: "b"}))
	dst := t.TempDir()
	if err := img.Extract(context.Background(), dst); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tree(t, dst), ","); got != "a.json=a,d/,d/b.json=b" {
		t.Errorf("extracted %s", got)
	}
}

// TestExtractRefuses checks that every kind of hostile entry is refused
// with an error naming it, and that nothing lands outside the target.
func TestExtractRefuses(t *testing.T) {
	imagetest.IsolateAuth(t)
	tests := []struct {
		name    string
		entries []entry
		opts    image.Options
		want    string
	}{
		{"absolute path", []entry{{Name: "/configs/x.json", Body: "x"}}, image.Options{}, "leaves the image's root"},
		{"dot-dot path", []entry{{Name: "configs/../../x.json", Body: "x"}}, image.Options{}, "x.json"},
		{"symlink to an absolute path outside", []entry{{Name: "configs/l", Type: tar.TypeSymlink, Linkname: "/etc/passwd"}}, image.Options{}, "symbolic link to \"/etc/passwd\""},
		{"symlink out of the extracted dirs", []entry{{Name: "configs/l", Type: tar.TypeSymlink, Linkname: "../bin"}}, image.Options{}, "symbolic link to \"../bin\""},
		{"symlink to the root", []entry{{Name: "configs/l", Type: tar.TypeSymlink, Linkname: "/"}}, image.Options{}, "symbolic link"},
		{"hard link outside", []entry{{Name: "configs/h", Type: tar.TypeLink, Linkname: "etc/shadow"}}, image.Options{}, "hard link to \"etc/shadow\""},
		{"hard link climbing out", []entry{{Name: "configs/h", Type: tar.TypeLink, Linkname: "../../etc/shadow"}}, image.Options{}, "hard link"},
		{"hard link to a missing file", []entry{{Name: "configs/h", Type: tar.TypeLink, Linkname: "configs/nothing"}}, image.Options{}, "not a file the image has"},
		{"path through a symlink", []entry{{Name: "configs/sub/", Type: tar.TypeDir}, {Name: "configs/up", Type: tar.TypeSymlink, Linkname: "."}, {Name: "configs/up/up/l", Type: tar.TypeSymlink, Linkname: "../../sub"}}, image.Options{}, "goes through the symbolic link \"configs/up\""},
		{"character device", []entry{{Name: "configs/tty", Type: tar.TypeChar}}, image.Options{}, "device files"},
		{"block device", []entry{{Name: "configs/sda", Type: tar.TypeBlock}}, image.Options{}, "device files"},
		{"fifo", []entry{{Name: "configs/pipe", Type: tar.TypeFifo}}, image.Options{}, "pipes"},
		{"file too large", []entry{{Name: "configs/big.json", Size: 2048}}, image.Options{MaxFileSize: 1024}, "more than the 1024-byte limit"},
		{"too much in all", []entry{{Name: "configs/a.json", Size: 600}, {Name: "configs/b.json", Size: 600}}, image.Options{MaxTotalSize: 1000}, "exceeds the 1000-byte limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := pullLayers(t, tt.opts, imagetest.Layer(t, tt.entries...))
			parent := t.TempDir()
			dst := filepath.Join(parent, "dst")
			if err := os.Mkdir(dst, 0o700); err != nil {
				t.Fatal(err)
			}
			err := img.Extract(context.Background(), dst, "configs")
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), img.Ref) {
				t.Fatalf("error %v, want one naming the image and containing %q", err, tt.want)
			}
			entries, _ := os.ReadDir(parent)
			if len(entries) != 1 {
				t.Errorf("something was written next to the target: %v", entries)
			}
		})
	}
}

// slowBlobs delays every blob download, so that extraction lasts long
// enough for the progress line to be drawn.
type slowBlobs struct{ next http.RoundTripper }

func (s slowBlobs) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.Contains(req.URL.Path, "/blobs/") {
		time.Sleep(800 * time.Millisecond)
	}
	return s.next.RoundTrip(req)
}

func TestExtractProgress(t *testing.T) {
	imagetest.IsolateAuth(t)
	var progress bytes.Buffer
	img := pullLayers(t, image.Options{Progress: &progress, Transport: slowBlobs{http.DefaultTransport}},
		imagetest.Layer(t, entry{Name: "configs/a.json", Body: strings.Repeat("x", 4096)}))
	if err := img.Extract(context.Background(), t.TempDir(), "configs"); err != nil {
		t.Fatal(err)
	}
	out := progress.String()
	if !strings.Contains(out, "\r\x1b[Kpulling "+img.Ref+": ") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress output %q: want a pulling line, cleared at the end", out)
	}
}
