// Package render turns references (catalog directories, registry+v1 bundle
// directories, bundle images and catalog images) into file-based catalog
// objects, as upstream's `opm render` does.
package render

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/fbcat/opm/declcfg"
)

// Kind is a kind of reference.
type Kind int

// The kinds of reference render understands.
const (
	CatalogDir Kind = 1 << iota
	BundleDir
	CatalogImage
	BundleImage

	AllKinds = CatalogDir | BundleDir | CatalogImage | BundleImage
)

func (k Kind) String() string {
	switch k {
	case CatalogDir:
		return "catalog directory"
	case BundleDir:
		return "bundle directory"
	case CatalogImage:
		return "catalog image"
	case BundleImage:
		return "bundle image"
	}
	return "reference"
}

// ErrNotAllowed is returned for a reference of a kind the caller excluded.
var ErrNotAllowed = errors.New("not allowed")

// Renderer renders references.
type Renderer struct {
	// Allowed is the set of reference kinds accepted; zero means all.
	Allowed Kind
	// Migrations to run on each reference's result.
	Migrations Migrations
	// LoadOptions are passed to declcfg.LoadFS for catalog directories.
	LoadOptions []declcfg.LoadOption
}

// Run renders every reference, in order, and concatenates the results.
func (r *Renderer) Run(ctx context.Context, refs ...string) (*declcfg.DeclarativeConfig, error) {
	out := &declcfg.DeclarativeConfig{}
	for _, ref := range refs {
		cfg, err := r.renderRef(ctx, ref)
		if err != nil {
			return nil, fmt.Errorf("render reference %q: %w", ref, err)
		}
		normalize(cfg)
		if err := r.Migrations.Run(cfg); err != nil {
			return nil, fmt.Errorf("render reference %q: %w", ref, err)
		}
		out.Packages = append(out.Packages, cfg.Packages...)
		out.Channels = append(out.Channels, cfg.Channels...)
		out.Bundles = append(out.Bundles, cfg.Bundles...)
		out.Deprecations = append(out.Deprecations, cfg.Deprecations...)
		out.Others = append(out.Others, cfg.Others...)
	}
	return out, nil
}

func (r *Renderer) allowed(k Kind) bool { return r.Allowed == 0 || r.Allowed&k != 0 }

func (r *Renderer) renderRef(ctx context.Context, ref string) (*declcfg.DeclarativeConfig, error) {
	st, err := os.Stat(ref)
	switch {
	case err == nil && st.IsDir():
		if isBundleDir(ref) {
			if !r.allowed(BundleDir) {
				return nil, fmt.Errorf("cannot render bundle directory %q: %w", ref, ErrNotAllowed)
			}
			return nil, fmt.Errorf("%q is a registry+v1 bundle directory; rendering bundle directories is not supported yet", ref)
		}
		if !r.allowed(CatalogDir) {
			return nil, fmt.Errorf("cannot render catalog directory %q: %w", ref, ErrNotAllowed)
		}
		opts := append([]declcfg.LoadOption{declcfg.WithRootName(ref)}, r.LoadOptions...)
		return declcfg.LoadFS(ctx, os.DirFS(ref), opts...)
	case err == nil:
		return nil, fmt.Errorf("%q is a file; render takes catalog or bundle directories and image references", ref)
	case errors.Is(err, fs.ErrNotExist):
		if looksLikeImage(ref) {
			return nil, fmt.Errorf("%q looks like an image reference; rendering images is not supported yet", ref)
		}
		return nil, fmt.Errorf("no such file or directory: %q (not an image reference either: image references start with a registry host, e.g. quay.io/org/catalog:tag)", ref)
	default:
		return nil, err
	}
}

// isBundleDir reports whether dir has both manifests/ and metadata/
// subdirectories (links do not count), which is how upstream tells a
// registry+v1 bundle from a catalog.
func isBundleDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	var manifests, metadata bool
	for _, e := range entries {
		switch {
		case e.Name() == "manifests" && e.IsDir():
			manifests = true
		case e.Name() == "metadata" && e.IsDir():
			metadata = true
		}
	}
	return manifests && metadata
}

// looksLikeImage reports whether ref names an image in a registry: its
// first path element is a host (has a dot or a port, or is localhost).
func looksLikeImage(ref string) bool {
	host, _, found := cut(ref, '/')
	if !found {
		return false
	}
	return host == "localhost" || containsAny(host, ".:")
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func containsAny(s, chars string) bool {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return true
			}
		}
	}
	return false
}

// normalize applies what upstream does to every reference's result: bundle
// object and CSV metadata properties move to the end of each bundle's
// properties, and related images are sorted by image.
func normalize(cfg *declcfg.DeclarativeConfig) {
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		slices.SortStableFunc(b.Properties, func(x, y declcfg.Property) int {
			return cmp.Compare(bulkRank(x.Type), bulkRank(y.Type))
		})
		slices.SortStableFunc(b.RelatedImages, func(x, y declcfg.RelatedImage) int {
			return cmp.Compare(x.Image, y.Image)
		})
	}
}

func bulkRank(t string) int {
	if t == declcfg.PropertyBundleObject || t == declcfg.PropertyCSVMetadata {
		return 1
	}
	return 0
}
