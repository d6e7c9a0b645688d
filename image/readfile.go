package image

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// ReadFile reads one regular file of an image's file system, as a
// container of the image would see it: the topmost layer that has the
// path wins, whiteouts hide lower layers, and symbolic links (of the
// file or of a directory above it) are followed. A missing file gives
// an error wrapping fs.ErrNotExist; a file larger than max an error.
func ReadFile(img v1.Image, name string, max int64) ([]byte, error) {
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	want := path.Clean("/" + name)[1:]
	for hops := 0; hops < 16; hops++ {
		found, err := findInLayers(layers, want, max)
		if err != nil {
			return nil, fmt.Errorf("reading /%s from the image: %w", want, err)
		}
		if found.redirect == "" {
			if found.data == nil {
				return nil, fmt.Errorf("the image has no /%s: %w", name, fs.ErrNotExist)
			}
			return found.data, nil
		}
		want = found.redirect
	}
	return nil, fmt.Errorf("reading /%s from the image: too many symbolic links", name)
}

// layerFind is what the layers say of a path: its content, or another
// path to look at (a symbolic link), or neither (missing).
type layerFind struct {
	data     []byte
	redirect string
}

// findInLayers looks for want from the top layer down.
func findInLayers(layers []v1.Layer, want string, max int64) (layerFind, error) {
	for i := len(layers) - 1; i >= 0; i-- {
		found, stop, err := findInLayer(layers[i], want, max)
		if err != nil || stop {
			return found, err
		}
	}
	return layerFind{}, nil
}

// findInLayer reads one layer; stop says that lower layers do not matter.
func findInLayer(l v1.Layer, want string, max int64) (found layerFind, stop bool, err error) {
	rc, err := l.Uncompressed()
	if err != nil {
		return layerFind{}, false, err
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	dir, base := path.Split(want)
	hidden := false
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return layerFind{}, hidden, nil
		}
		if err != nil {
			return layerFind{}, false, err
		}
		n := strings.TrimSuffix(path.Clean("/" + h.Name)[1:], "/")
		switch {
		case n == dir+".wh."+base || n == dir+".wh..wh..opq":
			hidden = true
		case n == want && h.Typeflag == tar.TypeReg:
			if h.Size > max {
				return layerFind{}, true, fmt.Errorf("/%s is %d bytes, more than the %d read", want, h.Size, max)
			}
			data, err := io.ReadAll(tr)
			return layerFind{data: data}, true, err
		case h.Typeflag == tar.TypeSymlink && (n == want || strings.HasPrefix(want, n+"/")):
			target := h.Linkname
			if !path.IsAbs(target) {
				target = path.Join(path.Dir("/"+n), target)
			}
			rest := strings.TrimPrefix(want, n)
			return layerFind{redirect: path.Clean("/" + target + rest)[1:]}, true, nil
		case n == want:
			return layerFind{}, true, fmt.Errorf("/%s is not a regular file", want)
		}
	}
}
