package image

import (
	"encoding/json"
	"fmt"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/partial"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Addition is what Extend puts on a base image: one layer, history
// entries and changes to the configuration.
type Addition struct {
	// Layer is added on top of the base's layers, as an OCI or a Docker
	// layer to match the base's manifest.
	Layer *Layer
	// CreatedBy is the history entry of the layer.
	CreatedBy string
	// Steps are history entries without a layer (ENTRYPOINT, CMD, LABEL
	// lines), after the layer's.
	Steps []string
	// Time is the image's creation time and that of its history entries.
	Time time.Time
	// Config edits a copy of the base's configuration.
	Config func(*v1.ConfigFile)
}

// Extend makes an image of base plus an addition. The base's layers
// stay what they are (blobs of the base's registry, which a push to the
// same registry mounts instead of uploading).
func Extend(base v1.Image, add Addition) (v1.Image, error) {
	layerType := types.OCILayer
	if mt, err := base.MediaType(); err == nil && mt == types.DockerManifestSchema2 {
		layerType = types.DockerLayer
	}
	l, err := add.Layer.As(layerType)
	if err != nil {
		return nil, err
	}
	created := v1.Time{Time: add.Time.UTC()}
	img, err := mutate.Append(base, mutate.Addendum{Layer: l, History: v1.History{Created: created, CreatedBy: add.CreatedBy}})
	if err != nil {
		return nil, err
	}
	return withConfig(img, created, func(cf *v1.ConfigFile) {
		for _, s := range add.Steps {
			cf.History = append(cf.History, v1.History{Created: created, CreatedBy: s, EmptyLayer: true})
		}
		if add.Config != nil {
			add.Config(cf)
		}
	})
}

// withConfig is img with a copy of its configuration edited (its labels
// map present) and its creation time set.
func withConfig(img v1.Image, created v1.Time, edit func(*v1.ConfigFile)) (v1.Image, error) {
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	if cf.Config.Labels == nil {
		cf.Config.Labels = map[string]string{}
	}
	edit(cf)
	cf.Created = created
	return mutate.ConfigFile(img, cf)
}

// PlatformImage is an image and the platform an index lists it under.
type PlatformImage struct {
	Platform v1.Platform
	Image    v1.Image
}

// NewIndex makes a multi-platform index of images, in order: a Docker
// manifest list when the images are Docker manifests, else an OCI index.
// Each entry has the image's media type, size, digest and platform, and
// nothing else (no artifactType: these are images, not artifacts).
func NewIndex(images []PlatformImage) (v1.ImageIndex, error) {
	if len(images) == 0 {
		return nil, fmt.Errorf("an image index needs at least one image")
	}
	m := &v1.IndexManifest{SchemaVersion: 2, MediaType: types.OCIImageIndex}
	if mt, err := images[0].Image.MediaType(); err == nil && mt == types.DockerManifestSchema2 {
		m.MediaType = types.DockerManifestList
	}
	idx := &index{manifest: m, images: map[v1.Hash]v1.Image{}}
	for _, pi := range images {
		mt, err := pi.Image.MediaType()
		if err != nil {
			return nil, err
		}
		digest, err := pi.Image.Digest()
		if err != nil {
			return nil, err
		}
		size, err := pi.Image.Size()
		if err != nil {
			return nil, err
		}
		p := pi.Platform
		m.Manifests = append(m.Manifests, v1.Descriptor{MediaType: mt, Size: size, Digest: digest, Platform: &p})
		idx.images[digest] = pi.Image
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	idx.raw = raw
	return idx, nil
}

// index is an image index of images held in memory.
type index struct {
	manifest *v1.IndexManifest
	raw      []byte
	images   map[v1.Hash]v1.Image
}

func (i *index) MediaType() (types.MediaType, error)       { return i.manifest.MediaType, nil }
func (i *index) Digest() (v1.Hash, error)                  { return partial.Digest(i) }
func (i *index) Size() (int64, error)                      { return partial.Size(i) }
func (i *index) IndexManifest() (*v1.IndexManifest, error) { return i.manifest.DeepCopy(), nil }
func (i *index) RawManifest() ([]byte, error)              { return i.raw, nil }

func (i *index) Image(h v1.Hash) (v1.Image, error) {
	if img, ok := i.images[h]; ok {
		return img, nil
	}
	return nil, fmt.Errorf("the index has no image %s", h)
}

func (i *index) ImageIndex(h v1.Hash) (v1.ImageIndex, error) {
	return nil, fmt.Errorf("the index has no index %s", h)
}
