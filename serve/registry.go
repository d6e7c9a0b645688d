package serve

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/grpc"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/serve/api"
)

// registry implements the api.Registry service with upstream's answers
// and error texts. Errors are plain errors, which clients see with status
// code Unknown, as upstream sends them. Where upstream's order or choice
// depends on Go map order, answers here are sorted: by package, channel
// and bundle name.
type registry struct {
	api.UnimplementedRegistryServer
	q *queries
}

func (r *registry) ListPackages(_ *api.ListPackageRequest, stream grpc.ServerStreamingServer[api.PackageName]) error {
	for _, name := range r.q.cat.PackageNames() {
		if r.q.cat.Packages[name].Decl == nil {
			continue
		}
		if err := stream.Send(&api.PackageName{Name: name}); err != nil {
			return err
		}
	}
	return nil
}

func (r *registry) GetPackage(_ context.Context, req *api.GetPackageRequest) (*api.Package, error) {
	p := r.q.cat.Packages[req.GetName()]
	if p == nil {
		return nil, fmt.Errorf("package %q not found", req.GetName())
	}
	out := &api.Package{Name: p.Name, DefaultChannelName: p.Decl.DefaultChannel, Deprecation: deprecation(p, declcfg.SchemaPackage, "")}
	for _, name := range p.ChannelNames() {
		head, _ := p.Channels[name].Head()
		out.Channels = append(out.Channels, &api.Channel{Name: name, CsvName: head, Deprecation: deprecation(p, declcfg.SchemaChannel, name)})
	}
	return out, nil
}

func deprecation(p *model.Package, schema, name string) *api.Deprecation {
	if msg, ok := p.Deprecated(schema, name); ok {
		return &api.Deprecation{Message: msg}
	}
	return nil
}

// channel finds a channel as GetBundle and GetBundleForChannel do.
func (r *registry) channel(pkg, ch string) (*model.Channel, error) {
	p := r.q.cat.Packages[pkg]
	if p == nil {
		return nil, fmt.Errorf("package %q not found", pkg)
	}
	c := p.Channels[ch]
	if c == nil {
		return nil, fmt.Errorf("package %q, channel %q not found", pkg, ch)
	}
	return c, nil
}

func (r *registry) GetBundle(_ context.Context, req *api.GetBundleRequest) (*api.Bundle, error) {
	ch, err := r.channel(req.GetPkgName(), req.GetChannelName())
	if err != nil {
		return nil, err
	}
	e, b := ch.Entry(req.GetCsvName()), ch.Package.Bundles[req.GetCsvName()]
	if e == nil || b == nil {
		return nil, fmt.Errorf("package %q, channel %q, bundle %q not found", req.GetPkgName(), req.GetChannelName(), req.GetCsvName())
	}
	return r.q.bundle(entry{ch: ch, b: b, e: e}, getView)
}

func (r *registry) GetBundleForChannel(ctx context.Context, req *api.GetBundleInChannelRequest) (*api.Bundle, error) {
	ch, err := r.channel(req.GetPkgName(), req.GetChannelName())
	if err != nil {
		return nil, err
	}
	head, err := ch.Head()
	if err != nil {
		return nil, err
	}
	return r.GetBundle(ctx, &api.GetBundleRequest{PkgName: req.GetPkgName(), ChannelName: req.GetChannelName(), CsvName: head})
}

func (r *registry) GetChannelEntriesThatReplace(req *api.GetAllReplacementsRequest, stream grpc.ServerStreamingServer[api.ChannelEntry]) error {
	entries := r.q.replacing(req.GetCsvName())
	if len(entries) == 0 {
		return fmt.Errorf("no channel entries found that replace %s", req.GetCsvName())
	}
	for _, e := range entries {
		if err := stream.Send(channelEntry(e, e.e.Replaces)); err != nil {
			return err
		}
	}
	return nil
}

func channelEntry(e entry, replaces string) *api.ChannelEntry {
	return &api.ChannelEntry{PackageName: e.pkg(), ChannelName: e.ch.Name, BundleName: e.b.Name, Replaces: replaces}
}

// GetBundleThatReplaces answers with the newest bundle of the channel
// that replaces or skips the named one (upstream picks any).
func (r *registry) GetBundleThatReplaces(_ context.Context, req *api.GetReplacementRequest) (*api.Bundle, error) {
	p := r.q.cat.Packages[req.GetPkgName()]
	if p == nil {
		return nil, fmt.Errorf("package %s not found", req.GetPkgName())
	}
	ch := p.Channels[req.GetChannelName()]
	if ch == nil {
		return nil, fmt.Errorf("package %q, channel %q not found", req.GetPkgName(), req.GetChannelName())
	}
	var best *entry
	var bestVersion model.Version
	for _, e := range r.q.replacing(req.GetCsvName()) {
		if e.ch != ch {
			continue
		}
		v, _ := e.b.Version()
		if best == nil || v.Compare(bestVersion) > 0 {
			best, bestVersion = &e, v
		}
	}
	if best == nil {
		return nil, fmt.Errorf("no entry found for package %q, channel %q", req.GetPkgName(), req.GetChannelName())
	}
	return r.q.bundle(*best, getView)
}

// providerEntries lists the entries that provide an API, each followed by
// one per bundle it skips (but does not replace) with that bundle as its
// replaces. With latest, only channel heads count and only skips of
// bundles in the same channel.
func (r *registry) providerEntries(gvk model.GVK, latest bool) []*api.ChannelEntry {
	var out []*api.ChannelEntry
	for _, e := range r.q.providing(gvk) {
		if latest {
			if head, err := e.ch.Head(); err != nil || head != e.b.Name {
				continue
			}
		}
		out = append(out, channelEntry(e, e.e.Replaces))
		for _, s := range e.e.Skips {
			if s == e.e.Replaces || latest && e.ch.Entry(s) == nil {
				continue
			}
			out = append(out, channelEntry(e, s))
		}
	}
	return out
}

type gvkRequest interface {
	GetGroup() string
	GetVersion() string
	GetKind() string
}

func gvkOf(req gvkRequest) model.GVK {
	return model.GVK{Group: req.GetGroup(), Version: req.GetVersion(), Kind: req.GetKind()}
}

func (r *registry) GetChannelEntriesThatProvide(req *api.GetAllProvidersRequest, stream grpc.ServerStreamingServer[api.ChannelEntry]) error {
	return r.sendProviders(gvkOf(req), false, stream)
}

func (r *registry) GetLatestChannelEntriesThatProvide(req *api.GetLatestProvidersRequest, stream grpc.ServerStreamingServer[api.ChannelEntry]) error {
	return r.sendProviders(gvkOf(req), true, stream)
}

func (r *registry) sendProviders(gvk model.GVK, latest bool, stream grpc.ServerStreamingServer[api.ChannelEntry]) error {
	entries := r.providerEntries(gvk, latest)
	if len(entries) == 0 {
		return fmt.Errorf("no channel entries found that provide %s", gvk)
	}
	for _, e := range entries {
		if err := stream.Send(e); err != nil {
			return err
		}
	}
	return nil
}

func (r *registry) GetDefaultBundleThatProvides(ctx context.Context, req *api.GetDefaultProviderRequest) (*api.Bundle, error) {
	gvk := gvkOf(req)
	entries := r.providerEntries(gvk, true)
	if len(entries) == 0 {
		return nil, fmt.Errorf("no channel entries found that provide %s", gvk)
	}
	slices.SortStableFunc(entries, func(a, b *api.ChannelEntry) int { return strings.Compare(a.PackageName, b.PackageName) })
	for _, e := range entries {
		p := r.q.cat.Packages[e.PackageName]
		if p.Decl != nil && p.Decl.DefaultChannel == e.ChannelName {
			return r.GetBundle(ctx, &api.GetBundleRequest{PkgName: e.PackageName, ChannelName: e.ChannelName, CsvName: e.BundleName})
		}
	}
	return nil, fmt.Errorf("no entry found that provides %s", gvk)
}

func (r *registry) ListBundles(_ *api.ListBundlesRequest, stream grpc.ServerStreamingServer[api.Bundle]) error {
	answers, err := r.q.listAnswers()
	if err != nil {
		return err
	}
	for _, a := range answers {
		if err := stream.SendMsg(a); err != nil {
			return err
		}
	}
	return nil
}
