package image

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/partial"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// refNameAnnotation names an image of an OCI layout (oci:DIR:NAME).
const refNameAnnotation = "org.opencontainers.image.ref.name"

// openLayout reads the image l names from an OCI image layout (a
// directory, or the files of an OCI archive).
func openLayout(src blobSource, l LocalRef, platform v1.Platform) (v1.Image, error) {
	data, err := readSmall(src, "index.json")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "has no file") {
			return nil, fmt.Errorf("%s is not an OCI image layout: it has no index.json", src)
		}
		return nil, err
	}
	var index v1.IndexManifest
	if err := json.Unmarshal(data, &index); err != nil {
		return nil, fmt.Errorf("%s: index.json: %w", src, err)
	}
	desc, err := pickLayoutManifest(src, index.Manifests, l)
	if err != nil {
		return nil, err
	}
	return layoutImage(src, desc, platform, 0)
}

// pickLayoutManifest finds the manifest NAME names, or the only one.
func pickLayoutManifest(src blobSource, descs []v1.Descriptor, l LocalRef) (v1.Descriptor, error) {
	var names []string
	for _, d := range descs {
		if n := d.Annotations[refNameAnnotation]; n != "" {
			names = append(names, n)
		}
		if l.Name != "" && d.Annotations[refNameAnnotation] == l.Name {
			return d, nil
		}
	}
	sort.Strings(names)
	available := "it names none"
	if len(names) > 0 {
		available = "it has " + strings.Join(names, ", ")
	}
	switch {
	case l.Name != "":
		return v1.Descriptor{}, fmt.Errorf("%s has no image named %q (%s)", src, l.Name, available)
	case len(descs) == 1:
		return descs[0], nil
	case len(descs) == 0:
		return v1.Descriptor{}, fmt.Errorf("%s holds no images", src)
	}
	return v1.Descriptor{}, fmt.Errorf("%s holds %d images: name one as %s:%s:NAME (%s)", src, len(descs), l.Transport, l.Path, available)
}

// layoutImage reads the image a descriptor points at; for an image
// index, the image for the platform.
func layoutImage(src blobSource, desc v1.Descriptor, platform v1.Platform, depth int) (v1.Image, error) {
	data, err := readBlob(src, desc.Digest)
	if err != nil {
		return nil, err
	}
	mt := desc.MediaType
	if mt == "" {
		var probe struct {
			MediaType types.MediaType `json:"mediaType"`
			Manifests json.RawMessage `json:"manifests"`
		}
		_ = json.Unmarshal(data, &probe)
		if mt = probe.MediaType; mt == "" && probe.Manifests != nil {
			mt = types.OCIImageIndex
		}
	}
	if mt.IsIndex() {
		if depth > 4 {
			return nil, fmt.Errorf("%s: image indexes nested too deep", src)
		}
		var index v1.IndexManifest
		if err := json.Unmarshal(data, &index); err != nil {
			return nil, fmt.Errorf("%s: image index %s: %w", src, desc.Digest, err)
		}
		var found []string
		for _, child := range index.Manifests {
			if child.Platform == nil {
				continue
			}
			if child.Platform.Satisfies(platform) {
				return layoutImage(src, child, platform, depth+1)
			}
			found = append(found, child.Platform.String())
		}
		return nil, platformError(fmt.Errorf("%s: the image has no manifest for platform %s: it has %s", src, platform, strings.Join(found, ", ")))
	}
	var m v1.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: manifest %s: %w", src, desc.Digest, err)
	}
	config, err := readBlob(src, m.Config.Digest)
	if err != nil {
		return nil, err
	}
	cf, err := v1.ParseConfigFile(strings.NewReader(string(config)))
	if err != nil {
		return nil, fmt.Errorf("%s: configuration %s: %w", src, m.Config.Digest, err)
	}
	if len(cf.RootFS.DiffIDs) != len(m.Layers) {
		return nil, fmt.Errorf("%s: manifest %s has %d layers but its configuration %d", src, desc.Digest, len(m.Layers), len(cf.RootFS.DiffIDs))
	}
	layers := make([]*localLayer, len(m.Layers))
	for i, ld := range m.Layers {
		p, err := blobPath(ld.Digest)
		if err != nil {
			return nil, fmt.Errorf("%s: layer %d: %w", src, i+1, err)
		}
		d := ld.Digest
		layers[i] = &localLayer{src: src, name: p, digest: &d, diffID: cf.RootFS.DiffIDs[i], mediaType: ld.MediaType}
	}
	return newStoredImage(data, &m, config, cf, layers), nil
}

// localImage is an image whose layers are read from a layout or an
// archive; go-containerregistry's partial package completes it.
type localImage struct {
	config    []byte
	mediaType types.MediaType
	layers    []*localLayer
}

func (i *localImage) RawConfigFile() ([]byte, error)      { return i.config, nil }
func (i *localImage) MediaType() (types.MediaType, error) { return i.mediaType, nil }

func (i *localImage) LayerByDiffID(h v1.Hash) (partial.UncompressedLayer, error) {
	for _, l := range i.layers {
		if l.diffID == h {
			return l, nil
		}
	}
	return nil, fmt.Errorf("no layer with diff ID %s", h)
}
