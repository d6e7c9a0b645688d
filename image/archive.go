package image

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/distribution/reference"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/partial"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// dockerArchiveEntry is one image of a docker archive's manifest.json.
type dockerArchiveEntry struct {
	Config   string   `json:"Config"`
	RepoTags []string `json:"RepoTags"`
	Layers   []string `json:"Layers"`
}

// openDockerArchive reads an image from a "docker save" or "podman save"
// file: the one it holds, the one whose tags include l.Name, or the one at
// l.Index.
func openDockerArchive(l LocalRef) (v1.Image, error) {
	t, err := indexTar(l.Path)
	if err != nil {
		return nil, err
	}
	data, err := readSmall(t, "manifest.json")
	if err != nil {
		return nil, fmt.Errorf("%s is not a docker archive: it has no manifest.json (docker save and podman save write one)", t)
	}
	var entries []dockerArchiveEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("%s: manifest.json: %w", t, err)
	}
	e, err := pickArchiveEntry(t, entries, l)
	if err != nil {
		return nil, err
	}
	config, err := readSmall(t, path.Clean(e.Config))
	if err != nil {
		return nil, err
	}
	cf, err := v1.ParseConfigFile(strings.NewReader(string(config)))
	if err != nil {
		return nil, fmt.Errorf("%s: configuration %s: %w", t, e.Config, err)
	}
	if len(cf.RootFS.DiffIDs) != len(e.Layers) {
		return nil, fmt.Errorf("%s: manifest.json lists %d layers but the configuration %d", t, len(e.Layers), len(cf.RootFS.DiffIDs))
	}
	layers := make([]*localLayer, len(e.Layers))
	for i, name := range e.Layers {
		layers[i] = &localLayer{src: t, name: path.Clean(name), diffID: cf.RootFS.DiffIDs[i], mediaType: types.DockerLayer}
	}
	return partial.UncompressedToImage(&localImage{config: config, mediaType: types.DockerManifestSchema2, layers: layers})
}

func pickArchiveEntry(t *tarIndex, entries []dockerArchiveEntry, l LocalRef) (dockerArchiveEntry, error) {
	var tags []string
	for _, e := range entries {
		tags = append(tags, e.RepoTags...)
	}
	sort.Strings(tags)
	available := "it has no tags"
	if len(tags) > 0 {
		available = "it has " + strings.Join(tags, ", ")
	}
	switch {
	case len(entries) == 0:
		return dockerArchiveEntry{}, fmt.Errorf("%s holds no images", t)
	case l.Index >= 0:
		if l.Index >= len(entries) {
			return dockerArchiveEntry{}, fmt.Errorf("%s holds %d images; @%d is not one of them (the first is @0)", t, len(entries), l.Index)
		}
		return entries[l.Index], nil
	case l.Name != "":
		want, err := normalizedTag(l.Name)
		if err != nil {
			return dockerArchiveEntry{}, fmt.Errorf("invalid image reference %q in docker-archive:%s:%s: %w", l.Name, l.Path, l.Name, err)
		}
		for _, e := range entries {
			for _, tag := range e.RepoTags {
				if got, err := normalizedTag(tag); err == nil && got == want {
					return e, nil
				}
			}
		}
		return dockerArchiveEntry{}, fmt.Errorf("%s has no image tagged %s (%s)", t, l.Name, available)
	case len(entries) > 1:
		return dockerArchiveEntry{}, fmt.Errorf("%s holds %d images: name one as docker-archive:%s:REFERENCE or docker-archive:%s:@INDEX (%s)", t, len(entries), l.Path, l.Path, available)
	}
	return entries[0], nil
}

// normalizedTag spells a reference as docker does in full
// ("busybox" is docker.io/library/busybox:latest).
func normalizedTag(s string) (string, error) {
	named, err := reference.ParseNormalizedNamed(s)
	if err != nil {
		return "", err
	}
	return reference.TagNameOnly(named).String(), nil
}
