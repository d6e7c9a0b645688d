// Package diff compares two file-based catalogs object by object. An
// object is identified by its schema, package and name (missing ones read
// as empty); objects are added, removed or changed (same identity,
// different content, with the top-level fields that differ). For people,
// the differences are also summed up by package: default channels and
// channel heads that moved, bundles added to or removed from channels,
// deprecations.
package diff

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"hash/maphash"
	"slices"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/parallel"
)

// Object names an object of a catalog. Fields, for changed objects only,
// lists the top-level fields whose values differ, sorted.
type Object struct {
	Schema  string   `json:"schema"`
	Package string   `json:"package"`
	Name    string   `json:"name"`
	Fields  []string `json:"fields,omitempty"`
}

// group is the package an object belongs to: its package, or its name
// for an olm.package blob.
func (o Object) group() string {
	if o.Schema == declcfg.SchemaPackage && o.Package == "" {
		return o.Name
	}
	return o.Package
}

func (o Object) compare(p Object) int {
	return cmp.Or(cmp.Compare(o.group(), p.group()), cmp.Compare(schemaRank(o.Schema), schemaRank(p.Schema)),
		cmp.Compare(o.Schema, p.Schema), cmp.Compare(o.Name, p.Name))
}

// schemaRank orders schemas as render does within a package.
func schemaRank(s string) int {
	switch s {
	case declcfg.SchemaPackage:
		return 0
	case declcfg.SchemaChannel:
		return 1
	case declcfg.SchemaBundle:
		return 2
	case declcfg.SchemaDeprecations:
		return 4
	}
	return 3
}

// Result is the difference between two catalogs. The lists are never nil,
// and are sorted by package, schema (in render's order) and name.
type Result struct {
	Added   []Object `json:"added"`
	Removed []Object `json:"removed"`
	Changed []Object `json:"changed"`

	old, new *declcfg.DeclarativeConfig
}

// Empty reports whether the catalogs hold the same objects.
func (r *Result) Empty() bool {
	return len(r.Added) == 0 && len(r.Removed) == 0 && len(r.Changed) == 0
}

// key is an object's identity.
type key struct{ schema, pkg, name string }

func (k key) object() Object { return Object{Schema: k.schema, Package: k.pkg, Name: k.name} }

// entry is one object of a catalog: its hash, from its encoding; the
// encoding itself is made again only for objects that changed, to name
// the fields that differ.
type entry struct {
	id   key
	enc  func() []byte // the object as render writes it (JSON)
	hash uint64
}

// Compare compares two catalogs.
func Compare(old, new *declcfg.DeclarativeConfig) *Result {
	seed := maphash.MakeSeed()
	a, b := entries(old, seed), entries(new, seed)
	byID := map[key][]*entry{}
	for i := range a {
		byID[a[i].id] = append(byID[a[i].id], &a[i])
	}
	r := &Result{Added: []Object{}, Removed: []Object{}, Changed: []Object{}, old: old, new: new}
	newByID := map[key][]*entry{}
	var ids []key
	for i := range b {
		id := b[i].id
		if _, ok := newByID[id]; !ok {
			ids = append(ids, id)
		}
		newByID[id] = append(newByID[id], &b[i])
	}
	for id, olds := range byID {
		if _, ok := newByID[id]; !ok {
			for range olds {
				r.Removed = append(r.Removed, id.object())
			}
		}
	}
	for _, id := range ids {
		olds, news := byID[id], newByID[id]
		// Objects sharing an identity (blobs of a schema without names):
		// equal ones pair up first, the rest in order.
		olds, news = dropEqual(olds, news)
		n := min(len(olds), len(news))
		for i := range n {
			c := id.object()
			c.Fields = changedFields(olds[i].enc(), news[i].enc())
			r.Changed = append(r.Changed, c)
		}
		for range news[n:] {
			r.Added = append(r.Added, id.object())
		}
		for range olds[n:] {
			r.Removed = append(r.Removed, id.object())
		}
	}
	for _, list := range [][]Object{r.Added, r.Removed, r.Changed} {
		slices.SortStableFunc(list, Object.compare)
	}
	return r
}

// dropEqual removes the pairs of objects with the same content.
func dropEqual(olds, news []*entry) ([]*entry, []*entry) {
	if len(olds) == 1 && len(news) == 1 {
		if olds[0].hash == news[0].hash {
			return nil, nil
		}
		return olds, news
	}
	var restOld []*entry
	used := make([]bool, len(news))
	for _, o := range olds {
		matched := false
		for j, n := range news {
			if !used[j] && n.hash == o.hash {
				used[j], matched = true, true
				break
			}
		}
		if !matched {
			restOld = append(restOld, o)
		}
	}
	var restNew []*entry
	for j, n := range news {
		if !used[j] {
			restNew = append(restNew, n)
		}
	}
	return restOld, restNew
}

// entries lists and hashes the objects of a catalog, on every CPU.
func entries(cfg *declcfg.DeclarativeConfig, seed maphash.Seed) []entry {
	var out []entry
	add := func(id key, enc func() []byte) { out = append(out, entry{id: id, enc: enc}) }
	for i := range cfg.Packages {
		p := &cfg.Packages[i]
		add(key{declcfg.SchemaPackage, "", p.Name}, func() []byte { return p.AppendJSON(nil) })
	}
	for i := range cfg.Channels {
		c := &cfg.Channels[i]
		add(key{declcfg.SchemaChannel, c.Package, c.Name}, func() []byte { return c.AppendJSON(nil) })
	}
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		add(key{declcfg.SchemaBundle, b.Package, b.Name}, func() []byte { return b.AppendJSON(nil) })
	}
	for i := range cfg.Others {
		m := &cfg.Others[i]
		add(key{m.Schema, m.Package, m.Name}, func() []byte { return m.Blob })
	}
	for i := range cfg.Deprecations {
		d := &cfg.Deprecations[i]
		add(key{declcfg.SchemaDeprecations, d.Package, ""}, func() []byte { return d.AppendJSON(nil) })
	}
	_ = parallel.Do(context.Background(), len(out), 0, func(i int) error {
		out[i].hash = maphash.Bytes(seed, out[i].enc())
		return nil
	}) // hashing cannot fail
	return out
}

// changedFields lists the top-level fields whose values differ between
// two encodings of an object.
func changedFields(a, b []byte) []string {
	var ma, mb map[string]json.RawMessage
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		return []string{}
	}
	var out []string
	for k, va := range ma {
		if vb, ok := mb[k]; !ok || !bytes.Equal(va, vb) {
			out = append(out, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
