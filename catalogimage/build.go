// Package catalogimage builds catalog images without a container engine:
// the catalog directory, checked as `opm serve --cache-only` checks it,
// is added as one reproducible layer (/configs and /tmp/cache) to each
// requested platform of an opm base image, with the labels, entrypoint
// and command of the Dockerfile `opm generate dockerfile` writes, and
// the result (an image, or an index for several platforms) is pushed to
// a registry or written to an OCI layout or archive.
package catalogimage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/serve"
)

// Options describe a catalog image build.
type Options struct {
	// Dir is the catalog directory.
	Dir string
	// Base is the base image: it must hold /bin/opm.
	Base string
	// Tag is where the image goes: a registry reference, oci:PATH[:NAME]
	// or oci-archive:FILE[:NAME].
	Tag string
	// Platforms to build; none means every platform of the base.
	Platforms []v1.Platform
	// Labels are added to the base's and the catalog label.
	Labels map[string]string
	// Time is the creation time of the image and of every file in its
	// layer; zero means the Unix epoch, so builds are reproducible.
	Time time.Time
	// Image is how registries are reached, for the base and the push.
	Image image.Options
}

// Result is what was built.
type Result struct {
	// Digest is the image's (one platform) or the index's.
	Digest string `json:"digest"`
	// Platforms are the images built, in order, under the platforms the
	// base lists them.
	Platforms []PlatformResult `json:"platforms"`
	// Size is the bytes of every distinct manifest, configuration and
	// layer the result references (the base's layers included).
	Size int64 `json:"size"`
	// Warnings are things the user should know (an upstream opm in the
	// base), one line each.
	Warnings []string `json:"-"`
}

// PlatformResult is one image of the result.
type PlatformResult struct {
	Platform string `json:"platform"`
	Digest   string `json:"digest"`
}

// The paths of the generated Dockerfile.
const (
	configsDir = "/configs"
	cacheDir   = "/tmp/cache"
)

// Build checks the catalog, builds the image on every platform asked
// for and writes it to o.Tag. Nothing is written when anything fails
// before the write.
func Build(ctx context.Context, o Options) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if err := checkCatalog(ctx, o.Dir); err != nil {
		return nil, err
	}
	if o.Time.IsZero() {
		o.Time = time.Unix(0, 0)
	}
	base, err := image.OpenBase(ctx, o.Base, o.Image)
	if err != nil {
		return nil, baseMissing(err)
	}
	platforms := o.Platforms
	if len(platforms) == 0 {
		platforms = base.Platforms()
	}
	b := &builder{opts: o, layers: map[bool]*image.Layer{}}
	imgs, warnings, err := b.platformImages(base, platforms)
	if err != nil {
		return nil, err
	}
	res := &Result{Warnings: warnings}
	var digest v1.Hash
	if len(imgs) == 1 {
		digest, err = image.Write(ctx, imgs[0].Image, o.Tag, o.Image)
	} else {
		var idx v1.ImageIndex
		if idx, err = image.NewIndex(imgs); err == nil {
			digest, res.Size, err = writeIndex(ctx, idx, o)
		}
	}
	if err != nil {
		return nil, err
	}
	res.Digest = digest.String()
	if res.Platforms, err = describe(imgs, &res.Size); err != nil {
		return nil, err
	}
	return res, nil
}

// writeIndex writes an image index to o.Tag and returns its digest and
// the bytes of its own manifest, measured first so that nothing is
// written when the manifest cannot be had.
func writeIndex(ctx context.Context, idx v1.ImageIndex, o Options) (v1.Hash, int64, error) {
	size, err := manifestSize(idx)
	if err != nil {
		return v1.Hash{}, 0, fmt.Errorf("image index manifest: %w", err)
	}
	digest, err := image.WriteIndex(ctx, idx, o.Tag, o.Image)
	return digest, size, err
}

// checkTarget refuses a tag that cannot be written before any work.
func checkTarget(tag string) error {
	l, local, err := image.ParseLocalRef(tag)
	if err != nil {
		return err
	}
	if local {
		if l.Transport != image.OCITransport && l.Transport != image.OCIArchiveTransport {
			return fmt.Errorf("cannot write image %q: %s: is read-only here; write to oci:PATH[:NAME], oci-archive:FILE or a registry", tag, l.Transport)
		}
		return nil
	}
	_, err = image.ParseReference(tag, false)
	return err
}

// Validate checks the options before anything is read: Tag must say
// where the image goes.
func (o Options) Validate() error {
	if o.Tag == "" {
		return option.Required("catalogimage.Options.Tag", "where the image goes: a registry reference, oci:PATH[:NAME] or oci-archive:FILE[:NAME]")
	}
	return checkTarget(o.Tag)
}

// baseMissing adds to the error of an opm base image that is not there
// where make base-image writes one.
func baseMissing(err error) error {
	var me *image.MissingError
	if errors.As(err, &me) && strings.Contains(me.Ref, "opm-base") {
		return option.Errorf(option.Lifts, "%w (make base-image writes its base image to bin/opm-base.oci.tar: use %s)",
			err, option.With{Name: "catalogimage.Options.Base", Value: "oci-archive:bin/opm-base.oci.tar"})
	}
	return err
}

// checkCatalog loads the catalog as `opm serve /configs --cache-only`
// does in the generated Dockerfile; its errors name the files.
func checkCatalog(ctx context.Context, dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("catalog directory: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("catalog directory %s is not a directory", dir)
	}
	cat, err := serve.Load(ctx, os.DirFS(dir), serve.LoadOptions{Name: dir})
	if err != nil {
		return fmt.Errorf("the catalog in %s cannot be served: %w", dir, err)
	}
	cat.Close()
	return nil
}

// sortedLabels are the user's labels in key order, as LABEL lines.
func sortedLabels(l map[string]string) []string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	lines := []string{fmt.Sprintf("LABEL %s=%s", labels.Configs, configsDir)}
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("LABEL %q=%q", k, l[k]))
	}
	return lines
}
