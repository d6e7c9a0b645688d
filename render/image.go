package render

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/registryv1"
)

// pull fetches an image's manifest and configuration and tells its kind.
func (r *Renderer) pull(ctx context.Context, ref string) (img *image.Image, kind image.Kind, configs string, err error) {
	if img, err = image.Pull(ctx, ref, r.Images); err != nil {
		return nil, 0, "", err
	}
	kind, configs, err = img.Kind()
	return img, kind, configs, err
}

// renderImage pulls an image and renders it as a catalog or a bundle,
// according to its labels. Only the directories needed are extracted.
func (r *Renderer) renderImage(ctx context.Context, ref string, stream func(declcfg.Item) error) (*declcfg.DeclarativeConfig, error) {
	img, kind, configs, err := r.pull(ctx, ref)
	if err != nil {
		return nil, err
	}
	if kind == image.CatalogImage {
		if !r.allowed(CatalogImage) {
			return nil, fmt.Errorf("cannot render catalog image: %w", ErrNotAllowed)
		}
		var cfg *declcfg.DeclarativeConfig
		err := r.withCatalogImage(ctx, img, configs, func(fsys fs.FS, name string) (err error) {
			cfg, err = r.renderCatalogFS(ctx, fsys, name, stream)
			return err
		})
		return cfg, err
	}
	if !r.allowed(BundleImage) {
		return nil, fmt.Errorf("cannot render bundle image: %w", ErrNotAllowed)
	}
	var fbc declcfg.Bundle
	err = withExtracted(ctx, img, r.Images.TempDir, []string{"manifests", "metadata"}, func(root string) error {
		b, err := registryv1.Parse(os.DirFS(root))
		if err != nil {
			return fmt.Errorf("bundle image %q: %w", ref, err)
		}
		if fbc, err = b.FBC(ref); err != nil {
			return fmt.Errorf("bundle image %q: %w", ref, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &declcfg.DeclarativeConfig{Bundles: []declcfg.Bundle{fbc}}, nil
}

// OpenCatalog gives use the file-based catalog that ref names, a catalog
// directory or a catalog image (extracted into a private directory that
// is removed when use returns), with the name positions in it start with.
// Bundles are refused with ErrNotAllowed.
func (r *Renderer) OpenCatalog(ctx context.Context, ref string, use func(fsys fs.FS, name string) error) error {
	kind, err := classify(ref)
	switch {
	case err != nil:
		return err
	case kind == RefBundleDir:
		return fmt.Errorf("cannot render bundle directory %q: %w", ref, ErrNotAllowed)
	case kind == RefCatalogDir:
		return use(os.DirFS(ref), ref)
	}
	img, ikind, configs, err := r.pull(ctx, ref)
	if err != nil {
		return err
	}
	if ikind != image.CatalogImage {
		return fmt.Errorf("cannot render bundle image: %w", ErrNotAllowed)
	}
	return r.withCatalogImage(ctx, img, configs, use)
}

// OpenBundle gives use the registry+v1 bundle that ref names: a bundle
// directory, or a bundle image (its manifests/ and metadata/ extracted
// into a private directory that is removed when use returns). Catalogs
// are refused with ErrNotAllowed.
func (r *Renderer) OpenBundle(ctx context.Context, ref string, use func(dir string) error) error {
	kind, err := classify(ref)
	switch {
	case err != nil:
		return err
	case kind == RefBundleDir:
		return use(ref)
	case kind == RefCatalogDir:
		return fmt.Errorf("cannot open catalog directory %q as a bundle: %w", ref, ErrNotAllowed)
	}
	img, ikind, _, err := r.pull(ctx, ref)
	if err != nil {
		return err
	}
	if ikind == image.CatalogImage {
		return fmt.Errorf("cannot open catalog image %q as a bundle: %w", ref, ErrNotAllowed)
	}
	return withExtracted(ctx, img, r.Images.TempDir, []string{"manifests", "metadata"}, use)
}

// withCatalogImage extracts the catalog directory its configs label names
// and gives it to use.
func (r *Renderer) withCatalogImage(ctx context.Context, img *image.Image, configs string, use func(fsys fs.FS, name string) error) error {
	dir := labelDir(configs)
	var dirs []string // none: the whole image
	if dir != "" {
		dirs = []string{dir}
	}
	return withExtracted(ctx, img, r.Images.TempDir, dirs, func(root string) error {
		catalog := filepath.Join(root, filepath.FromSlash(dir))
		if st, err := os.Stat(catalog); err != nil || !st.IsDir() {
			return fmt.Errorf("catalog image %q: its label %s=%q names a directory the image does not have", img.Ref, labels.Configs, configs)
		}
		return use(os.DirFS(catalog), path.Join(img.Ref, dir))
	})
}

// withExtracted extracts dirs of img (all of it for none) into a new
// private directory, calls use with it, and removes it whatever happens.
func withExtracted(ctx context.Context, img *image.Image, tempDir string, dirs []string, use func(root string) error) error {
	root, err := os.MkdirTemp(tempDir, "opm-render-")
	if err != nil {
		return fmt.Errorf("image %q: %w", img.Ref, err)
	}
	defer os.RemoveAll(root)
	if err := img.Extract(ctx, root, dirs...); err != nil {
		return err
	}
	return use(root)
}

// labelDir turns the configs label's value (usually "/configs") into a
// slash path relative to the image root, "" for the root itself. The
// value is read as rooted in the image, so ".." cannot leave it.
func labelDir(label string) string {
	return strings.TrimPrefix(path.Clean("/"+label), "/")
}
