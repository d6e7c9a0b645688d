package catalogimage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
)

var errManifest = errors.New("manifest unavailable")

// imageIndex names the embedded index without hiding its ImageIndex
// method behind a field of that name.
type imageIndex = v1.ImageIndex

// flakyIndex is an index whose RawManifest fails at its failAt-th call.
type flakyIndex struct {
	imageIndex
	calls, failAt int
	failed        bool
}

func (f *flakyIndex) RawManifest() ([]byte, error) {
	f.calls++
	if f.calls == f.failAt {
		f.failed = true
		return nil, errManifest
	}
	return f.imageIndex.RawManifest()
}

// TestWriteIndexKeepsManifestErrors: whichever use of the index manifest
// fails, the size or the write, writeIndex returns the error; when the
// size cannot be had, nothing is written.
func TestWriteIndexKeepsManifestErrors(t *testing.T) {
	var imgs []image.PlatformImage
	for _, arch := range []string{"amd64", "arm64"} {
		p := v1.Platform{OS: "linux", Architecture: arch}
		l := imagetest.Layer(t, imagetest.Entry{Name: "etc/arch", Body: arch})
		imgs = append(imgs, image.PlatformImage{Platform: p, Image: imagetest.Image(t, nil, &p, l)})
	}
	idx, err := image.NewIndex(imgs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := idx.RawManifest()
	if err != nil {
		t.Fatal(err)
	}
	for failAt := 1; failAt <= 6; failAt++ {
		dir := filepath.Join(t.TempDir(), "layout")
		f := &flakyIndex{imageIndex: idx, failAt: failAt}
		_, size, err := writeIndex(context.Background(), f, Options{Tag: "oci:" + dir})
		switch {
		case f.failed && err == nil:
			t.Errorf("RawManifest failed at call %d of %d, and writeIndex returned no error", failAt, f.calls)
		case !f.failed && err != nil:
			t.Errorf("call %d: %v", failAt, err)
		case !f.failed && size != int64(len(want)):
			t.Errorf("size %d, want %d", size, len(want))
		}
		if failAt == 1 {
			if !errors.Is(err, errManifest) {
				t.Errorf("the size's error: got %v", err)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the layout was written although the manifest could not be had: %v", err)
			}
		}
	}
}
