package image

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/partial"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// layerCache keeps compressed layers by digest in a directory, so that
// pulling an image again downloads only the layers it has not seen (the
// manifest and configuration are always fetched). A layer is filed only
// once it was read to the end and its digest checked; files are written
// to a temporary name and renamed, so concurrent and interrupted pulls
// never leave a partial layer behind.
type layerCache struct{ dir string }

// cached returns l, served from the cache when it is there and filed into
// it as it is read otherwise.
func (c layerCache) cached(l v1.Layer) (v1.Layer, error) {
	digest, err := l.Digest()
	if err != nil {
		return nil, err
	}
	if digest.Algorithm != "sha256" {
		return l, nil
	}
	path := filepath.Join(c.dir, digest.Algorithm, digest.Hex)
	cl := &cacheLayer{src: l, path: path, digest: digest}
	if _, err := os.Stat(path); err == nil {
		cl.hit = true
	}
	return partial.CompressedToLayer(cl)
}

// cacheLayer is a compressed layer read from the cache file (hit) or from
// the registry through a tee into it.
type cacheLayer struct {
	src    v1.Layer
	path   string
	digest v1.Hash
	hit    bool
}

func (l *cacheLayer) Digest() (v1.Hash, error)            { return l.digest, nil }
func (l *cacheLayer) Size() (int64, error)                { return l.src.Size() }
func (l *cacheLayer) MediaType() (types.MediaType, error) { return l.src.MediaType() }

func (l *cacheLayer) Compressed() (io.ReadCloser, error) {
	if l.hit {
		if f, err := os.Open(l.path); err == nil {
			return &verifying{f: f, h: sha256.New(), want: l.digest.Hex, path: l.path}, nil
		}
	}
	rc, err := l.src.Compressed()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return rc, nil // no cache, still a pull
	}
	tmp, err := os.CreateTemp(filepath.Dir(l.path), ".partial-*")
	if err != nil {
		return rc, nil
	}
	return &teeToCache{src: rc, tmp: tmp, path: l.path}, nil
}

// teeToCache copies what is read into a temporary file, which becomes the
// cache entry when the source ends cleanly (the registry layer checks the
// digest as it reaches its end).
type teeToCache struct {
	src      io.ReadCloser
	tmp      *os.File
	path     string
	complete bool
	failed   bool
}

func (t *teeToCache) Read(p []byte) (int, error) {
	n, err := t.src.Read(p)
	if n > 0 && !t.failed {
		if _, werr := t.tmp.Write(p[:n]); werr != nil {
			t.failed = true
		}
	}
	switch {
	case errors.Is(err, io.EOF):
		t.complete = true
	case err != nil:
		t.failed = true
	}
	return n, err
}

func (t *teeToCache) Close() error {
	err := t.src.Close()
	cerr := t.tmp.Close()
	if t.complete && !t.failed && cerr == nil && os.Rename(t.tmp.Name(), t.path) == nil {
		return err
	}
	os.Remove(t.tmp.Name())
	return err
}

// verifying checks a cached layer against its digest as it is read: a
// file damaged on disk is an error (and is removed), not a wrong catalog.
type verifying struct {
	f    *os.File
	h    hash.Hash
	want string
	path string
}

func (v *verifying) Read(p []byte) (int, error) {
	n, err := v.f.Read(p)
	v.h.Write(p[:n])
	if errors.Is(err, io.EOF) && hex.EncodeToString(v.h.Sum(nil)) != v.want {
		os.Remove(v.path)
		return n, fmt.Errorf("cached layer %s is damaged (removed; run again to download it)", v.path)
	}
	return n, err
}

func (v *verifying) Close() error { return v.f.Close() }
