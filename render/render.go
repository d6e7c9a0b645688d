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
	"sort"
	"strings"
	"text/template"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/registryv1"
)

// Kind is a kind of reference.
type Kind int

// The kinds of reference render understands.
const (
	CatalogDir Kind = 1 << iota
	BundleDir
	CatalogImage
	BundleImage
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
	// ImageRefTemplate makes the image references of bundle directories
	// (whose image is otherwise empty) from the bundle's package, name and
	// version.
	ImageRefTemplate *template.Template
	// Images says how image references are pulled and where they are
	// extracted.
	Images image.Options
}

// Run renders every reference and concatenates the results in the order
// of the references.
func (r *Renderer) Run(ctx context.Context, refs ...string) (*declcfg.DeclarativeConfig, error) {
	cfgs := make([]*declcfg.DeclarativeConfig, len(refs))
	err := forEachRef(ctx, refs, func(i int, ref string) error {
		cfg, err := r.renderRef(ctx, ref, nil)
		if err != nil {
			return err
		}
		for j := range cfg.Bundles {
			if err := r.finishBundle(&cfg.Bundles[j]); err != nil {
				return err
			}
		}
		cfgs[i] = cfg
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := &declcfg.DeclarativeConfig{}
	for _, cfg := range cfgs {
		out.Append(cfg)
	}
	return out, nil
}

// RenderTo renders every reference into w, which orders the output as
// upstream does. Catalogs are streamed: their objects are encoded as they
// are decoded and never held in memory all at once.
func (r *Renderer) RenderTo(ctx context.Context, w *declcfg.OrderedWriter, refs ...string) error {
	return forEachRef(ctx, refs, func(source int, ref string) error {
		add := func(it declcfg.Item) error {
			order := declcfg.Order{Source: source, Seq: it.Seq}
			switch {
			case it.Package != nil:
				return w.Add(it.Package, order)
			case it.Channel != nil:
				return w.Add(it.Channel, order)
			case it.Bundle != nil:
				if err := r.finishBundle(it.Bundle); err != nil {
					return err
				}
				return w.Add(it.Bundle, order)
			case it.Deprecation != nil:
				return w.Add(it.Deprecation, order)
			case it.Meta != nil:
				return w.Add(it.Meta, order)
			}
			return nil
		}
		cfg, err := r.renderRef(ctx, ref, add)
		if err != nil || cfg == nil {
			return err
		}
		for i := range cfg.Bundles {
			if err := r.finishBundle(&cfg.Bundles[i]); err != nil {
				return err
			}
		}
		return w.AddAll(cfg, source)
	})
}

// refConcurrency bounds how many references are rendered at once: images
// spend most of their time waiting for registries, bundle directories are
// small, and catalogs use every CPU on their own.
const refConcurrency = 4

// forEachRef calls render for every reference, a few at once. The error
// returned is that of the first failing reference in argument order, so
// it does not depend on timing; no reference starts after one fails.
func forEachRef(ctx context.Context, refs []string, render func(i int, ref string) error) error {
	return parallel.Do(ctx, len(refs), refConcurrency, func(i int) error {
		if err := render(i, refs[i]); err != nil {
			return fmt.Errorf("render reference %q: %w", refs[i], err)
		}
		return nil
	})
}

// finishBundle applies what upstream does to every rendered bundle:
// bundle object and CSV metadata properties move to the end of the
// properties, related images are sorted by image, and the migrations run.
func (r *Renderer) finishBundle(b *declcfg.Bundle) error {
	slices.SortStableFunc(b.Properties, func(x, y declcfg.Property) int {
		return cmp.Compare(bulkRank(x.Type), bulkRank(y.Type))
	})
	// sort.Slice, not a stable sort: with equal images, upstream's order is
	// whatever this algorithm makes of the input.
	sort.Slice(b.RelatedImages, func(i, j int) bool { return b.RelatedImages[i].Image < b.RelatedImages[j].Image })
	return r.Migrations.Run(b)
}

func (r *Renderer) allowed(k Kind) bool { return r.Allowed == 0 || r.Allowed&k != 0 }

// renderRef renders one reference. Catalog directories and images are
// streamed object by object into stream when it is set (and nil is
// returned); everything else comes back as a catalog.
func (r *Renderer) renderRef(ctx context.Context, ref string, stream func(declcfg.Item) error) (*declcfg.DeclarativeConfig, error) {
	kind, err := classify(ref)
	switch {
	case err != nil:
		return nil, err
	case kind == RefBundleDir:
		if !r.allowed(BundleDir) {
			return nil, fmt.Errorf("cannot render bundle directory %q: %w", ref, ErrNotAllowed)
		}
		return r.renderBundleDir(ref)
	case kind == RefCatalogDir:
		if !r.allowed(CatalogDir) {
			return nil, fmt.Errorf("cannot render catalog directory %q: %w", ref, ErrNotAllowed)
		}
		return r.renderCatalogFS(ctx, os.DirFS(ref), ref, stream)
	}
	return r.renderImage(ctx, ref, stream)
}

// classify is what ref names for render: a catalog directory, a bundle
// directory, or an image (RefImage); anything else is an error in
// render's words.
func classify(ref string) (RefKind, error) {
	what := Classify(ref)
	switch what.Kind {
	case RefMissing:
		return 0, what.Err()
	case RefFile:
		return 0, fmt.Errorf("%q is a file; render takes catalog or bundle directories and image references", ref)
	case RefCatalogDir:
		if err := BundleWithoutMetadata(ref); err != nil {
			return 0, err
		}
	}
	return what.Kind, nil
}

// renderBundleDir renders a registry+v1 bundle directory. Its image is
// empty unless an image reference template is set.
func (r *Renderer) renderBundleDir(dir string) (*declcfg.DeclarativeConfig, error) {
	b, err := parseBundleDir(dir)
	if err != nil {
		return nil, err
	}
	image := ""
	if r.ImageRefTemplate != nil {
		var buf strings.Builder
		if err := r.ImageRefTemplate.Execute(&buf, b.TemplateData()); err != nil {
			return nil, fmt.Errorf("failed templating image reference from bundle for %q: %w", dir, err)
		}
		image = buf.String()
	}
	fbc, err := b.FBC(image)
	if err != nil {
		return nil, fmt.Errorf("bundle directory %s: %w", declcfg.QuoteFileName(dir), err)
	}
	return &declcfg.DeclarativeConfig{Bundles: []declcfg.Bundle{fbc}}, nil
}

// parseBundleDir reads a registry+v1 bundle directory.
func parseBundleDir(dir string) (*registryv1.Bundle, error) {
	b, err := registryv1.Parse(os.DirFS(dir))
	if errors.Is(err, registryv1.ErrNoAnnotations) {
		return nil, &MissingMetadataError{Dir: dir, Missing: noAnnotationsFile}
	}
	if err != nil {
		return nil, fmt.Errorf("bundle directory %s: %w", declcfg.QuoteFileName(dir), err)
	}
	return b, nil
}

// BundleFromDir renders a registry+v1 bundle directory with the given image,
// exactly as `opm render DIR --alpha-image-ref-template IMAGE` does
// (without migrations).
func BundleFromDir(dir, image string) (*declcfg.Bundle, error) {
	r := Renderer{}
	b, err := parseBundleDir(dir)
	if err != nil {
		return nil, err
	}
	fbc, err := b.FBC(image)
	if err != nil {
		return nil, fmt.Errorf("bundle directory %s: %w", declcfg.QuoteFileName(dir), err)
	}
	if err := r.finishBundle(&fbc); err != nil {
		return nil, err
	}
	return &fbc, nil
}

// renderCatalogFS loads a file-based catalog, streaming it if stream is
// set; stream must keep nothing of an item once it returns (RenderTo's
// encodes it).
func (r *Renderer) renderCatalogFS(ctx context.Context, fsys fs.FS, name string, stream func(declcfg.Item) error) (*declcfg.DeclarativeConfig, error) {
	opts := append([]declcfg.LoadOption{declcfg.WithRootName(name)}, r.LoadOptions...)
	if stream == nil {
		return declcfg.LoadFS(ctx, fsys, opts...)
	}
	problems, err := declcfg.WalkFS(ctx, fsys, stream, append(opts, declcfg.WithTransientItems())...)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return nil, nil
}

func bulkRank(t string) int {
	if t == declcfg.PropertyBundleObject || t == declcfg.PropertyCSVMetadata {
		return 1
	}
	return 0
}

// StdinName names, in positions and errors, a catalog read from standard
// input.
const StdinName = "<stdin>"

// streamFileName makes name usable as the one file of an fs.FS: a name
// that is not a valid fs path (a URL such as http://host/catalog, an
// absolute path) is cleaned of empty, "." and ".." elements, and an
// empty result becomes "stream". Positions and errors show this name.
func streamFileName(name string) string {
	if fs.ValidPath(name) && name != "." {
		return name
	}
	var parts []string
	for _, p := range strings.Split(name, "/") {
		if p != "" && p != "." && p != ".." {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "stream"
	}
	return strings.Join(parts, "/")
}

// RunBytes renders a catalog stream (the JSON or YAML documents of one
// file, as opm render writes them) as Run renders a catalog directory;
// name stands for the stream in positions and errors (StdinName for
// standard input).
func (r *Renderer) RunBytes(ctx context.Context, name string, data []byte) (*declcfg.DeclarativeConfig, error) {
	if !r.allowed(CatalogDir) {
		return nil, fmt.Errorf("cannot render catalog stream %s: %w", name, ErrNotAllowed)
	}
	fsys, err := declcfg.NewMemFS(map[string][]byte{streamFileName(name): data})
	if err != nil {
		return nil, err
	}
	cfg, err := r.renderCatalogFS(ctx, fsys, "", nil)
	if err != nil {
		return nil, err
	}
	for i := range cfg.Bundles {
		if err := r.finishBundle(&cfg.Bundles[i]); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}
