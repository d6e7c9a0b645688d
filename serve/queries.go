package serve

import (
	"cmp"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// entry is one bundle in one channel: what most registry answers are
// made of.
type entry struct {
	ch *model.Channel
	b  *model.Bundle
	e  *declcfg.ChannelEntry
}

func (e entry) pkg() string { return e.ch.Package.Name }

// queries holds the indexes the registry's queries need beyond the model,
// each built on first use so that startup does not wait for them.
type queries struct {
	cat *model.Catalog
	// fsys is the catalog directory, from which bundle objects are read
	// again when an answer needs them.
	fsys fs.FS

	entriesOnce sync.Once
	// listed is every entry, ordered as ListBundles streams them: by
	// channel, package and bundle name.
	listed []entry
	// byEdge maps a bundle name to the entries that replace or skip it,
	// ordered by package, channel and bundle name. As upstream's, "" maps
	// to the entries that replace nothing.
	byEdge map[string][]entry

	providersOnce sync.Once
	// providers maps an API to the entries whose bundle provides it,
	// ordered by package, channel and bundle name.
	providers map[model.GVK][]entry

	bundlesOnce sync.Once
	bundles     map[*model.Bundle]*bundleInfo

	// listed is every entry's ListBundles answer, encoded on first
	// demand: the answers never change, and encoding them for every call
	// cost more than anything else the call does.
	listMu      sync.Mutex
	listEncoded []encoded
}

// eachEntry calls f for every entry of the catalog, by package, channel
// and bundle name.
func (q *queries) eachEntry(f func(entry)) {
	for _, pn := range q.cat.PackageNames() {
		p := q.cat.Packages[pn]
		for _, cn := range p.ChannelNames() {
			ch := p.Channels[cn]
			names := make([]string, 0, len(ch.Decl.Entries))
			for _, e := range ch.Decl.Entries {
				names = append(names, e.Name)
			}
			slices.Sort(names)
			for _, name := range slices.Compact(names) {
				if b := p.Bundles[name]; b != nil {
					f(entry{ch: ch, b: b, e: ch.Entry(name)})
				}
			}
		}
	}
}

func (q *queries) buildEntries() {
	q.entriesOnce.Do(func() {
		q.byEdge = map[string][]entry{}
		q.eachEntry(func(e entry) {
			q.listed = append(q.listed, e)
			edges := append([]string{e.e.Replaces}, e.e.Skips...)
			slices.Sort(edges)
			for _, name := range slices.Compact(edges) {
				q.byEdge[name] = append(q.byEdge[name], e)
			}
		})
		slices.SortStableFunc(q.listed, func(a, b entry) int {
			return cmp.Or(strings.Compare(a.ch.Name, b.ch.Name), strings.Compare(a.pkg(), b.pkg()), strings.Compare(a.b.Name, b.b.Name))
		})
	})
}

// listOrder is every entry in ListBundles order.
func (q *queries) listOrder() []entry {
	q.buildEntries()
	return q.listed
}

// listAnswers returns every entry's ListBundles answer, encoded, in
// ListBundles order. A failure (a bundle that cannot be read again) is not
// kept: the next call tries again.
func (q *queries) listAnswers() ([]encoded, error) {
	q.listMu.Lock()
	defer q.listMu.Unlock()
	if q.listEncoded != nil {
		return q.listEncoded, nil
	}
	entries := q.listOrder()
	out := make([]encoded, len(entries))
	for i, e := range entries {
		b, err := q.bundle(e, listView)
		if err != nil {
			return nil, err
		}
		if out[i], err = proto.Marshal(b); err != nil {
			return nil, err
		}
	}
	q.listEncoded = out
	return out, nil
}

// replacing lists the entries that replace or skip a bundle name.
func (q *queries) replacing(name string) []entry {
	q.buildEntries()
	return q.byEdge[name]
}

// providing lists the entries whose bundle provides an API.
func (q *queries) providing(gvk model.GVK) []entry {
	q.providersOnce.Do(func() {
		q.providers = map[model.GVK][]entry{}
		q.eachEntry(func(e entry) {
			for _, api := range q.info(e.b).provided {
				q.providers[api] = append(q.providers[api], e)
			}
		})
	})
	return q.providers[gvk]
}

// info returns what the answers about a bundle share whatever the
// channel, computed once.
func (q *queries) info(b *model.Bundle) *bundleInfo {
	q.bundlesOnce.Do(func() {
		q.bundles = map[*model.Bundle]*bundleInfo{}
		for _, p := range q.cat.Packages {
			for _, b := range p.Bundles {
				q.bundles[b] = &bundleInfo{b: b}
			}
		}
	})
	bi := q.bundles[b]
	bi.once.Do(bi.compute)
	return bi
}
