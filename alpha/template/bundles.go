package template

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/parallel"
	"github.com/fbcat/opm/render"
)

// BundleRenderer renders a bundle image reference. It must be safe for
// concurrent use.
type BundleRenderer interface {
	RenderBundle(ctx context.Context, ref string) (*Bundle, error)
}

// Bundle is a bundle rendered for a template: its olm.bundle blob, with
// the migrations applied, and its ClusterServiceVersion as JSON (nil if
// it has none), which a migrated blob no longer carries but the semver
// template reads the package's description and icon from.
type Bundle struct {
	declcfg.Bundle
	CSV []byte
	// LoadCSV, if set, finds the CSV when CSV is nil and it is needed
	// (for a renderer that would rather not decode every bundle's).
	LoadCSV func() []byte
}

// csv is the bundle's ClusterServiceVersion, nil if it has none.
func (b *Bundle) csv() []byte {
	if b.CSV == nil && b.LoadCSV != nil {
		b.CSV = b.LoadCSV()
	}
	return b.CSV
}

// ImageBundles renders bundle references with r (its migrations and image
// options apply) and refuses everything but bundle images, as upstream's
// templates do.
func ImageBundles(r render.Renderer) BundleRenderer {
	r.Allowed = render.BundleImage
	migrations := r.Migrations
	r.Migrations = nil
	return imageBundles{r: r, migrations: migrations}
}

type imageBundles struct {
	r          render.Renderer // without migrations
	migrations render.Migrations
}

func (ib imageBundles) RenderBundle(ctx context.Context, ref string) (*Bundle, error) {
	cfg, err := ib.r.Run(ctx, ref)
	if err != nil {
		// Run says "render reference %q: cause"; the caller names the
		// reference its own way.
		if cause := errors.Unwrap(err); cause != nil {
			err = cause
		}
		if errors.Is(err, render.ErrNotAllowed) {
			return nil, fmt.Errorf("%w: templates can reference bundle images only", err)
		}
		return nil, err
	}
	if len(cfg.Bundles) != 1 {
		return nil, fmt.Errorf("reference %q resulted in %d bundles, expected 1", ref, len(cfg.Bundles))
	}
	b := &Bundle{Bundle: cfg.Bundles[0]}
	if objects, err := b.Objects(); err == nil {
		if i := declcfg.CSVIndex(objects); i >= 0 {
			b.CSV = objects[i]
		}
	}
	if err := ib.migrations.Run(&b.Bundle); err != nil {
		return nil, err
	}
	return b, nil
}

// imageConcurrency bounds how many bundle images a template renders at
// once.
const imageConcurrency = 4

// renderImages renders every distinct reference of refs once, a few at a
// time. It returns the bundles by reference and, for each reference that
// failed (or that ctx's end left out), its error (naming the reference).
func renderImages(ctx context.Context, br BundleRenderer, refs []string) (map[string]*Bundle, map[string]error) {
	var distinct []string
	seen := map[string]bool{}
	for _, ref := range refs {
		if !seen[ref] {
			seen[ref] = true
			distinct = append(distinct, ref)
		}
	}
	rendered := make([]*Bundle, len(distinct))
	failed := make([]error, len(distinct))
	ran := make([]bool, len(distinct))
	// Every failure is reported, by reference: the calls go on after one.
	stopped := parallel.Do(ctx, len(distinct), imageConcurrency, func(i int) error {
		rendered[i], failed[i] = br.RenderBundle(ctx, distinct[i])
		ran[i] = true
		return nil
	})
	bundles := map[string]*Bundle{}
	errs := map[string]error{}
	for i, ref := range distinct {
		switch {
		case !ran[i]:
			errs[ref] = imageError(ref, stopped)
		case failed[i] != nil:
			errs[ref] = imageError(ref, failed[i])
		default:
			bundles[ref] = rendered[i]
		}
	}
	return bundles, errs
}

// imageError names the image in err unless err already does.
func imageError(ref string, err error) error {
	if strings.Contains(err.Error(), strconv.Quote(ref)) {
		return err
	}
	return fmt.Errorf("bundle image %q: %w", ref, err)
}
