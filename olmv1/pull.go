// Opening bundles by reference: a bundle directory or a bundle image.

package olmv1

import (
	"context"
	"fmt"
	"os"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/render"
)

// OpenBundle reads the bundle ref names: a registry+v1 bundle directory
// if a directory exists there, else a bundle image, pulled with opts.
func OpenBundle(ctx context.Context, ref string, opts image.Options) (*Bundle, error) {
	what := render.Classify(ref)
	switch what.Kind {
	case render.RefBundleDir, render.RefCatalogDir:
		return BundleFromDir(ref)
	case render.RefFile:
		return nil, fmt.Errorf("%s is not a directory nor an image reference: name a bundle directory or image", ref)
	case render.RefMissing:
		return nil, fmt.Errorf("no bundle directory or image %s: %w", ref, what.PathErr)
	}
	return PullBundle(ctx, ref, opts)
}

// PullBundle pulls a bundle image and reads its manifests/ and metadata/
// as operator-controller does, from a private directory removed after.
func PullBundle(ctx context.Context, ref string, opts image.Options) (*Bundle, error) {
	img, err := image.Pull(ctx, ref, opts)
	if err != nil {
		return nil, err
	}
	kind, _, err := img.Kind()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	if kind != image.BundleImage {
		return nil, fmt.Errorf("%s is not a bundle image (it has no operators.operatorframework.io.bundle.package.v1 label): name a bundle image or directory", ref)
	}
	dir, err := os.MkdirTemp("", "opm-olmv1-bundle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := img.Extract(ctx, dir, "manifests", "metadata"); err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	b, err := BundleFromFS(os.DirFS(dir), ref)
	if err != nil {
		return nil, err
	}
	b.Image, b.Source = ref, ref
	return b, nil
}
