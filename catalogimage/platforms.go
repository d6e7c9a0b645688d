package catalogimage

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/internal/parallel"
)

// builder builds the image of each platform; layers holds the catalog
// layer, one per cache directory mode (made once, shared by platforms).
type builder struct {
	opts   Options
	layers map[bool]*image.Layer
}

// platformImages builds an image per platform, each on the base's image
// of that platform, with the command its /bin/opm needs.
func (b *builder) platformImages(base *image.Base, platforms []v1.Platform) ([]image.PlatformImage, []string, error) {
	bases, actual, err := b.baseImages(base, platforms)
	if err != nil {
		return nil, nil, err
	}
	kinds, err := b.detectAll(bases, actual)
	if err != nil {
		return nil, nil, err
	}
	var imgs []image.PlatformImage
	var warnings []string
	seen := map[string]bool{}
	for i, kind := range kinds {
		if w := fmt.Sprintf("warning: base image %q: %s", b.opts.Base, kind.warning); kind.warning != "" && !seen[w] {
			seen[w] = true
			warnings = append(warnings, w)
		}
		img, err := b.extend(bases[i], kind)
		if err != nil {
			return nil, nil, err
		}
		imgs = append(imgs, image.PlatformImage{Platform: actual[i], Image: img})
	}
	return imgs, warnings, nil
}

// baseImages are the base's images of the platforms, and the platforms
// as the base names them.
func (b *builder) baseImages(base *image.Base, platforms []v1.Platform) ([]v1.Image, []v1.Platform, error) {
	var imgs []v1.Image
	var actual []v1.Platform
	seen := map[string]bool{}
	for _, p := range platforms {
		img, err := base.Image(p)
		if err != nil {
			return nil, nil, err
		}
		cf, err := img.ConfigFile()
		if err != nil {
			return nil, nil, fmt.Errorf("base image %q, platform %s: %w", b.opts.Base, p, err)
		}
		if bp := cf.Platform(); bp != nil {
			p = *bp
		}
		if seen[p.String()] {
			return nil, nil, fmt.Errorf("platform %s is asked for twice", p)
		}
		seen[p.String()] = true
		imgs, actual = append(imgs, img), append(actual, p)
	}
	return imgs, actual, nil
}

// detectAll identifies the /bin/opm of every base image, at once: each
// read downloads that platform's layers.
func (b *builder) detectAll(bases []v1.Image, platforms []v1.Platform) ([]opmKind, error) {
	kinds := make([]opmKind, len(bases))
	err := parallel.Do(context.Background(), len(bases), len(bases), func(i int) error {
		kind, err := detectOpm(bases[i])
		if err != nil {
			return fmt.Errorf("base image %q, platform %s: %w", b.opts.Base, platforms[i], err)
		}
		kinds[i] = kind
		return nil
	})
	if err != nil {
		return nil, err
	}
	return kinds, nil
}

// extend adds the catalog layer and configuration to one base image.
func (b *builder) extend(baseImg v1.Image, kind opmKind) (v1.Image, error) {
	layer := b.layers[kind.writableCache]
	if layer == nil {
		mode := fs.FileMode(0o755)
		if kind.writableCache {
			mode = 0o777
		}
		var err error
		layer, err = image.NewLayer(image.LayerSpec{
			Copies: []image.Copy{{Src: b.opts.Dir, Dst: configsDir}},
			Dirs:   []image.Dir{{Path: cacheDir, Mode: mode}},
			Time:   b.opts.Time,
		})
		if err != nil {
			return nil, err
		}
		b.layers[kind.writableCache] = layer
	}
	entrypoint := []string{"/bin/opm"}
	steps := []string{jsonStep("ENTRYPOINT", entrypoint), jsonStep("CMD", kind.cmd)}
	steps = append(steps, sortedLabels(b.opts.Labels)...)
	return image.Extend(baseImg, image.Addition{
		Layer:     layer,
		CreatedBy: "COPY catalog " + configsDir + " " + cacheDir + " # opm alpha catalog build",
		Steps:     steps,
		Time:      b.opts.Time,
		Config: func(cf *v1.ConfigFile) {
			cf.Config.Entrypoint = entrypoint
			cf.Config.Cmd = kind.cmd
			for k, v := range b.opts.Labels {
				cf.Config.Labels[k] = v
			}
			cf.Config.Labels[labels.Configs] = configsDir
		},
	})
}

func jsonStep(instruction string, args []string) string {
	data, _ := json.Marshal(args)
	return instruction + " " + string(data)
}

// describe lists the images built and adds their sizes to size.
func describe(imgs []image.PlatformImage, size *int64) ([]PlatformResult, error) {
	var out []PlatformResult
	seen := map[v1.Hash]bool{}
	for _, pi := range imgs {
		d, err := pi.Image.Digest()
		if err != nil {
			return nil, err
		}
		out = append(out, PlatformResult{Platform: pi.Platform.String(), Digest: d.String()})
		n, err := imageSize(pi.Image, seen)
		if err != nil {
			return nil, err
		}
		*size += n
	}
	return out, nil
}

// imageSize is the bytes of an image's manifest, configuration and the
// layers not in seen.
func imageSize(img v1.Image, seen map[v1.Hash]bool) (int64, error) {
	m, err := img.Manifest()
	if err != nil {
		return 0, err
	}
	raw, err := img.RawManifest()
	if err != nil {
		return 0, err
	}
	total := int64(len(raw))
	for _, d := range append([]v1.Descriptor{m.Config}, m.Layers...) {
		if !seen[d.Digest] {
			seen[d.Digest] = true
			total += d.Size
		}
	}
	return total, nil
}

// manifestSize is the bytes of an index's own manifest.
func manifestSize(idx v1.ImageIndex) (int64, error) {
	raw, err := idx.RawManifest()
	return int64(len(raw)), err
}
