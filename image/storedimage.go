package image

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// storedImage is an image of an OCI layout or archive as it is stored:
// its manifest, configuration and compressed layers are the stored blobs,
// so that an image built on it (a catalog image on a local base) keeps
// the base's layers byte for byte instead of compressing them again.
type storedImage struct {
	rawManifest []byte
	manifest    *v1.Manifest
	rawConfig   []byte
	config      *v1.ConfigFile
	layers      []v1.Layer
}

func newStoredImage(rawManifest []byte, m *v1.Manifest, rawConfig []byte, cf *v1.ConfigFile, layers []*localLayer) *storedImage {
	img := &storedImage{rawManifest: rawManifest, manifest: m, rawConfig: rawConfig, config: cf}
	for i, l := range layers {
		img.layers = append(img.layers, &storedLayer{localLayer: l, size: m.Layers[i].Size})
	}
	return img
}

func (i *storedImage) Layers() ([]v1.Layer, error) { return i.layers, nil }
func (i *storedImage) MediaType() (types.MediaType, error) {
	if i.manifest.MediaType == "" {
		return types.OCIManifestSchema1, nil
	}
	return i.manifest.MediaType, nil
}
func (i *storedImage) Size() (int64, error)                { return int64(len(i.rawManifest)), nil }
func (i *storedImage) ConfigName() (v1.Hash, error)        { return i.manifest.Config.Digest, nil }
func (i *storedImage) ConfigFile() (*v1.ConfigFile, error) { return i.config.DeepCopy(), nil }
func (i *storedImage) RawConfigFile() ([]byte, error)      { return i.rawConfig, nil }
func (i *storedImage) Manifest() (*v1.Manifest, error)     { return i.manifest.DeepCopy(), nil }
func (i *storedImage) RawManifest() ([]byte, error)        { return i.rawManifest, nil }
func (i *storedImage) Digest() (v1.Hash, error) {
	sum := sha256.Sum256(i.rawManifest)
	return v1.Hash{Algorithm: "sha256", Hex: hex.EncodeToString(sum[:])}, nil
}

func (i *storedImage) LayerByDigest(h v1.Hash) (v1.Layer, error) {
	if h == i.manifest.Config.Digest {
		return &configLayer{data: i.rawConfig, digest: h}, nil
	}
	for _, l := range i.layers {
		if d, _ := l.Digest(); d == h {
			return l, nil
		}
	}
	return nil, fmt.Errorf("no layer with digest %s", h)
}

func (i *storedImage) LayerByDiffID(h v1.Hash) (v1.Layer, error) {
	for _, l := range i.layers {
		if d, _ := l.DiffID(); d == h {
			return l, nil
		}
	}
	return nil, fmt.Errorf("no layer with diff ID %s", h)
}

// storedLayer is a layer blob stored under its digest: read as stored
// (checked against the digest) or uncompressed (checked against both).
type storedLayer struct {
	*localLayer
	size int64
}

func (l *storedLayer) Digest() (v1.Hash, error) { return *l.digest, nil }
func (l *storedLayer) Size() (int64, error)     { return l.size, nil }

func (l *storedLayer) Compressed() (io.ReadCloser, error) {
	rc, err := l.src.open(l.name)
	if err != nil {
		return nil, err
	}
	return &multiCloser{
		Reader:  &verifier{r: rc, h: sha256.New(), want: *l.digest, what: "layer blob " + l.name},
		closers: []io.Closer{rc},
	}, nil
}

// configLayer is the configuration blob, which LayerByDigest also serves
// (as go-containerregistry's images do) so that writers can copy it.
type configLayer struct {
	data   []byte
	digest v1.Hash
}

func (c *configLayer) Digest() (v1.Hash, error) { return c.digest, nil }
func (c *configLayer) DiffID() (v1.Hash, error) { return c.digest, nil }
func (c *configLayer) Compressed() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(c.data)), nil
}
func (c *configLayer) Uncompressed() (io.ReadCloser, error) { return c.Compressed() }
func (c *configLayer) Size() (int64, error)                 { return int64(len(c.data)), nil }
func (c *configLayer) MediaType() (types.MediaType, error)  { return types.OCIConfigJSON, nil }
