// Resolving the bundle a catalog installs for a selection: the use case
// of `opm alpha olmv1 install`.

package olmv1

import (
	"context"
	"fmt"

	"github.com/fbcat/opm/render"
)

// ResolveBundle loads the catalog at ref (a directory, a catalog image
// or a catalogd HTTP API URL, read with r), resolves opts.Selection in
// it and reads the bundle: from the catalog when it keeps the bundle's
// manifests (olm.bundle.object), else from the bundle's image, pulled
// with r.Images. A bundle OLM v1 cannot install under opts is refused
// with an *UnsupportedError before anything is pulled.
func ResolveBundle(ctx context.Context, r render.Renderer, ref string, opts InstallOptions) (*Bundle, error) {
	c, err := LoadCatalog(ctx, r, ref)
	if err != nil {
		return nil, err
	}
	mb, err := c.Resolve(opts.Selection)
	if err != nil {
		return nil, err
	}
	b, err := BundleFromDeclcfg(mb.Decl)
	if err != nil {
		return nil, err
	}
	if reasons := Unsupported(b, opts.ManifestOptions().Checks()); len(reasons) > 0 {
		return nil, &UnsupportedError{Bundle: b.Name, Reasons: reasons}
	}
	if b.HasManifests() {
		return b, nil
	}
	pulled, err := PullBundle(ctx, mb.Decl.Image, r.Images)
	if err != nil {
		return nil, fmt.Errorf("bundle %q: the catalog carries only its olm.csv.metadata, so its manifests must be read from its image %s, which could not be pulled: %w", b.Name, mb.Decl.Image, err)
	}
	return pulled, nil
}
