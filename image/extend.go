package image

import (
	"fmt"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
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
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	for _, s := range add.Steps {
		cf.History = append(cf.History, v1.History{Created: created, CreatedBy: s, EmptyLayer: true})
	}
	if cf.Config.Labels == nil {
		cf.Config.Labels = map[string]string{}
	}
	if add.Config != nil {
		add.Config(cf)
	}
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
func NewIndex(images []PlatformImage) (v1.ImageIndex, error) {
	if len(images) == 0 {
		return nil, fmt.Errorf("an image index needs at least one image")
	}
	indexType := types.OCIImageIndex
	if mt, err := images[0].Image.MediaType(); err == nil && mt == types.DockerManifestSchema2 {
		indexType = types.DockerManifestList
	}
	var adds []mutate.IndexAddendum
	for _, pi := range images {
		mt, err := pi.Image.MediaType()
		if err != nil {
			return nil, err
		}
		p := pi.Platform
		adds = append(adds, mutate.IndexAddendum{Add: pi.Image, Descriptor: v1.Descriptor{MediaType: mt, Platform: &p}})
	}
	return mutate.AppendManifests(mutate.IndexMediaType(empty.Index, indexType), adds...), nil
}
