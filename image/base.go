package image

import (
	"context"
	"fmt"
	"sort"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// Base is an image that others are built on, with the platforms it has:
// the images of a multi-platform index, or the one platform of an image.
type Base struct {
	Ref string
	// platforms are the base's, in its order; images[i] is platforms[i]'s
	// image, read on demand from index when nil.
	platforms []v1.Platform
	images    []v1.Image
	index     v1.ImageIndex
	digests   []v1.Hash
	// local opens the image of a platform from a layout or an archive.
	local func(v1.Platform) (v1.Image, error)
}

// OpenBase reads the manifest (or index) of a base image. A registry
// reference is read through the registry rules of o; an image outside a
// registry (oci:, oci-archive:, docker-archive:) lists the platform
// o.Platform selects (linux/amd64 by default) and gives any other it
// has when asked for it.
func OpenBase(ctx context.Context, ref string, o Options) (*Base, error) {
	if IsLocalRef(ref) {
		img, err := Pull(ctx, ref, o)
		if err != nil {
			return nil, err
		}
		b, err := singleBase(ref, img.img)
		if err != nil {
			return nil, err
		}
		b.local = func(p v1.Platform) (v1.Image, error) {
			o.Platform = &p
			img, err := Pull(ctx, ref, o)
			if err != nil {
				return nil, err
			}
			return img.img, nil
		}
		return b, nil
	}
	o = o.withDefaults()
	desc, r, err := get(ctx, ref, o, nil)
	if err != nil {
		return nil, err
	}
	if !desc.MediaType.IsIndex() {
		img, err := desc.Image()
		if err != nil {
			return nil, pullError(ref, r, *o.Platform, err)
		}
		return singleBase(ref, img)
	}
	idx, err := desc.ImageIndex()
	if err != nil {
		return nil, pullError(ref, r, *o.Platform, err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return nil, pullError(ref, r, *o.Platform, err)
	}
	b := &Base{Ref: ref, index: idx}
	for _, m := range im.Manifests {
		// Attestation manifests carry the platform unknown/unknown.
		if m.Platform == nil || m.Platform.OS == "unknown" || !m.MediaType.IsImage() {
			continue
		}
		b.platforms = append(b.platforms, *m.Platform)
		b.digests = append(b.digests, m.Digest)
	}
	b.images = make([]v1.Image, len(b.platforms))
	if len(b.platforms) == 0 {
		return nil, fmt.Errorf("base image %q: its index lists no platform images", ref)
	}
	return b, nil
}

func singleBase(ref string, img v1.Image) (*Base, error) {
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("base image %q: %w", ref, err)
	}
	p := cf.Platform()
	if p == nil || p.OS == "" || p.Architecture == "" {
		return nil, fmt.Errorf("base image %q: its configuration names no platform (os and architecture)", ref)
	}
	return &Base{Ref: ref, platforms: []v1.Platform{*p}, images: []v1.Image{img}}, nil
}

// Platforms are the base's platforms, in its order.
func (b *Base) Platforms() []v1.Platform { return append([]v1.Platform(nil), b.platforms...) }

// Image is the base's image for a platform: the first of the base's
// platforms that has every field p sets (linux/arm64 is matched by
// linux/arm64/v8). The error lists the platforms the base has.
func (b *Base) Image(p v1.Platform) (v1.Image, error) {
	for i, have := range b.platforms {
		if !have.Satisfies(p) {
			continue
		}
		if b.images[i] == nil {
			img, err := b.index.Image(b.digests[i])
			if err != nil {
				return nil, fmt.Errorf("base image %q, platform %s: %w", b.Ref, p, err)
			}
			b.images[i] = img
		}
		return b.images[i], nil
	}
	if b.local != nil {
		return b.localImage(p)
	}
	return nil, platformError(fmt.Errorf("base image %q has no image for platform %s: it has %s; use one of them, or a base built for %s",
		b.Ref, p.String(), b.platformList(), p.String()))
}

func (b *Base) platformList() string {
	var names []string
	for _, p := range b.platforms {
		names = append(names, p.String())
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// localImage opens another platform of a local base and checks that it
// is that platform (a single image is whatever platform it is).
func (b *Base) localImage(p v1.Platform) (v1.Image, error) {
	img, err := b.local(p)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("base image %q: %w", b.Ref, err)
	}
	if have := cf.Platform(); have == nil || !have.Satisfies(p) {
		return nil, fmt.Errorf("base image %q has no image for platform %s: it has %s", b.Ref, p.String(), b.platformList())
	}
	return img, nil
}
