// Catalogs: which bundle a ClusterExtension resolves to, and which
// bundles of each package and channel OLM v1 can install.

package olmv1

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/render"
)

// maxCatalogSize bounds what is read from a catalog's HTTP API.
const maxCatalogSize = 4 << 30

// fetchCatalog reads a catalog from a catalogd HTTP API.
func fetchCatalog(ctx context.Context, r render.Renderer, ref string) (*declcfg.DeclarativeConfig, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("catalog URL %q: %w", ref, err)
	}
	if !strings.HasSuffix(u.Path, "/api/v1/all") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/api/v1/all"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	transport := r.Images.Transport
	if transport == nil {
		transport = image.DefaultTransport(r.Images.Insecure)
	}
	client := &http.Client{Transport: transport}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reading catalog: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("reading catalog: GET %s: %s", u, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxCatalogSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading catalog: GET %s: %w", u, err)
	}
	if len(data) > maxCatalogSize {
		return nil, fmt.Errorf("reading catalog: GET %s: more than %d bytes", u, maxCatalogSize)
	}
	// The name stands for the stream in positions: no scheme, no "//".
	return r.RunBytes(ctx, u.Host+u.Path, data)
}

// Catalog is a loaded file-based catalog.
type Catalog struct {
	Ref   string
	model *model.Catalog
}

// LoadCatalog reads the catalog ref names, a directory or an image,
// with r (whose Allowed is set to catalogs), or a catalogd HTTP API: an
// http:// or https:// URL, whose /api/v1/all (added unless the URL ends
// with it) streams the whole catalog, as catalogd and opm serve
// --http-addr serve it.
func LoadCatalog(ctx context.Context, r render.Renderer, ref string) (*Catalog, error) {
	r.Allowed = render.CatalogDir | render.CatalogImage
	var cfg *declcfg.DeclarativeConfig
	var err error
	if strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://") {
		cfg, err = fetchCatalog(ctx, r, ref)
	} else {
		cfg, err = r.Run(ctx, ref)
	}
	if err != nil {
		return nil, err
	}
	m, errs := model.New(cfg, model.Options{})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %w", ref, errs)
	}
	return &Catalog{Ref: ref, model: m}, nil
}

// Selection is what a ClusterExtension's spec.source.catalog asks for.
type Selection struct {
	Package  string
	Version  string   // a version range; "" for any
	Channels []string // none for any
}

// Resolve picks the bundle a ClusterExtension selecting sel installs, as
// operator-controller's catalog resolver picks it: among the package's
// bundles in any of the channels (all, if none are named) whose version
// is in the range, the highest version, bundles that are not deprecated
// first.
func (c *Catalog) Resolve(sel Selection) (*model.Bundle, error) {
	p, ok := c.model.Packages[sel.Package]
	if !ok {
		return nil, model.NotFound("no package %q found in catalog %s (it has %s)", sel.Package, c.Ref, strings.Join(c.model.PackageNames(), ", "))
	}
	rng, err := parseVersionRange(sel.Version)
	if err != nil {
		return nil, err
	}
	for _, ch := range sel.Channels {
		if _, ok := p.Channels[ch]; !ok {
			return nil, model.NotFound("package %q has no channel %q (it has %s)", sel.Package, ch, strings.Join(p.ChannelNames(), ", "))
		}
	}
	var best *model.Bundle
	var bestVer model.Version
	for _, name := range p.BundleNames() {
		b := p.Bundles[name]
		v, err := b.Version()
		if err != nil || !inChannels(b, sel.Channels) || !rng.contains(v.Version) {
			continue
		}
		if best == nil || better(b, v, best, bestVer) {
			best, bestVer = b, v
		}
	}
	if best == nil {
		return nil, model.NotFound("no bundle of package %q matches%s", sel.Package, describeSelection(sel))
	}
	return best, nil
}

// better reports whether bundle a (version va) is preferred to b.
func better(a *model.Bundle, va model.Version, b *model.Bundle, vb model.Version) bool {
	_, da := a.Package.Deprecated(declcfg.SchemaBundle, a.Name)
	_, db := b.Package.Deprecated(declcfg.SchemaBundle, b.Name)
	if da != db {
		return !da
	}
	return va.Compare(vb) > 0
}

// inChannels reports whether a bundle is in any of the channels (any
// bundle is, for none).
func inChannels(b *model.Bundle, channels []string) bool {
	if len(channels) == 0 {
		return true
	}
	return slices.ContainsFunc(b.Channels, func(ch *model.Channel) bool { return slices.Contains(channels, ch.Name) })
}

func describeSelection(sel Selection) string {
	var parts []string
	if sel.Version != "" {
		parts = append(parts, fmt.Sprintf(" version %q", sel.Version))
	}
	if len(sel.Channels) > 0 {
		parts = append(parts, fmt.Sprintf(" in channels %s", strings.Join(sel.Channels, ", ")))
	}
	return strings.Join(parts, " and")
}

// Listing is one package's bundles, channel by channel, with verdicts.
type Listing struct {
	Package        string         `json:"package"`
	DefaultChannel string         `json:"defaultChannel,omitempty"`
	Channels       []ChannelEntry `json:"channels"`
}

// ChannelEntry is one channel's bundles, highest version first.
type ChannelEntry struct {
	Name    string        `json:"name"`
	Bundles []BundleEntry `json:"bundles"`
}

// BundleEntry is a bundle and whether OLM v1 can install it.
type BundleEntry struct {
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Installable bool     `json:"installable"`
	Reasons     []Reason `json:"reasons,omitempty"`
	// Unreadable says why the bundle could not be judged at all (it
	// carries neither its objects nor its CSV metadata, or they do not
	// read), naming its file and line; Installable is then false.
	Unreadable string `json:"unreadable,omitempty"`
	// ManifestsChecked is false for a bundle the catalog knows only by
	// its olm.csv.metadata: its manifests, in its image, were not checked.
	ManifestsChecked bool   `json:"manifestsChecked"`
	Image            string `json:"image,omitempty"`
	ver              model.Version
}

// List gives, for each package (or only pkg), each channel's bundles
// and the verdict on each. A bundle that cannot be read is listed as
// Unreadable, and the others are still judged.
func (c *Catalog) List(pkg string, opts CheckOptions) ([]Listing, error) {
	names := c.model.PackageNames()
	if pkg != "" {
		if _, ok := c.model.Packages[pkg]; !ok {
			return nil, model.NotFound("no package %q found in catalog %s", pkg, c.Ref)
		}
		names = []string{pkg}
	}
	verdicts := map[*model.Bundle]BundleEntry{}
	var out []Listing
	for _, name := range names {
		p := c.model.Packages[name]
		l := Listing{Package: name}
		if p.Decl != nil {
			l.DefaultChannel = p.Decl.DefaultChannel
		}
		for _, chName := range p.ChannelNames() {
			entry := ChannelEntry{Name: chName}
			for _, b := range p.Bundles {
				if !slices.ContainsFunc(b.Channels, func(ch *model.Channel) bool { return ch.Name == chName }) {
					continue
				}
				e, ok := verdicts[b]
				if !ok {
					e = verdict(b, opts)
					verdicts[b] = e
				}
				entry.Bundles = append(entry.Bundles, e)
			}
			slices.SortFunc(entry.Bundles, func(a, b BundleEntry) int {
				return cmp.Or(-a.ver.Compare(b.ver), cmp.Compare(a.Name, b.Name))
			})
			l.Channels = append(l.Channels, entry)
		}
		out = append(out, l)
	}
	return out, nil
}

// verdict checks one catalog bundle; one that cannot be read is
// Unreadable, so that the rest of the catalog is still listed.
func verdict(b *model.Bundle, opts CheckOptions) BundleEntry {
	e := BundleEntry{Name: b.Name, Image: b.Decl.Image}
	if v, err := b.Version(); err == nil {
		e.Version, e.ver = v.String(), v
	}
	bundle, err := BundleFromDeclcfg(b.Decl)
	if err != nil {
		e.Unreadable = err.Error()
		return e
	}
	e.ManifestsChecked = bundle.HasManifests()
	e.Reasons = Unsupported(bundle, opts)
	e.Installable = len(e.Reasons) == 0
	return e
}

// Unjudged counts the bundles of a listing that could not be judged
// (Unreadable), each once however many channels list it.
func Unjudged(listing []Listing) int {
	seen := map[string]bool{}
	for _, l := range listing {
		for _, ch := range l.Channels {
			for _, b := range ch.Bundles {
				if b.Unreadable != "" {
					seen[l.Package+"/"+b.Name] = true
				}
			}
		}
	}
	return len(seen)
}
