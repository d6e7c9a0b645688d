package serve

import (
	"fmt"
	"sync"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/serve/api"
)

// bundleInfo is what every answer about a bundle shares, whatever the
// channel: computed on first use from the loaded bundle, kept small (no
// bundle objects; those are decoded per answer).
type bundleInfo struct {
	b    *model.Bundle
	once sync.Once

	provided     []model.GVK
	providedAPIs []*api.GroupVersionKind
	requiredAPIs []*api.GroupVersionKind
	dependencies []*api.Dependency
	properties   []*api.Property
	version      string
	deprecation  *api.Deprecation
}

func (bi *bundleInfo) compute() {
	b := bi.b
	bi.provided = b.ProvidedAPIs()
	bi.providedAPIs = apiGVKs(bi.provided)
	bi.requiredAPIs = apiGVKs(b.RequiredAPIs())
	if v, ok := b.PackageProperty(); ok {
		bi.version = v.Version
	}
	if msg, ok := b.Package.Deprecated(declcfg.SchemaBundle, b.Name); ok {
		bi.deprecation = &api.Deprecation{Message: msg}
	}
	for _, p := range b.Decl.Properties {
		switch p.Type {
		case declcfg.PropertyBundleObject, declcfg.PropertyCSVMetadata:
			continue
		case declcfg.PropertyGVKRequired:
			bi.dependencies = append(bi.dependencies, &api.Dependency{Type: declcfg.PropertyGVK, Value: string(p.Value)})
		case declcfg.PropertyPackageRequired:
			if v, err := declcfg.ParsePropertyValue[declcfg.PackageRequiredProperty](p.Value); err == nil {
				dep, _ := value.Marshal(struct {
					PackageName string `json:"packageName"`
					Version     string `json:"version"`
				}{v.PackageName, v.VersionRange})
				bi.dependencies = append(bi.dependencies, &api.Dependency{Type: "olm.package", Value: string(dep)})
			}
		}
		bi.properties = append(bi.properties, &api.Property{Type: p.Type, Value: string(p.Value)})
	}
}

func apiGVKs(gvks []model.GVK) []*api.GroupVersionKind {
	out := make([]*api.GroupVersionKind, len(gvks))
	for i, g := range gvks {
		out[i] = &api.GroupVersionKind{Group: g.Group, Version: g.Version, Kind: g.Kind}
	}
	return out
}

// view says how much of a bundle an answer carries.
type view int

const (
	// listView is ListBundles': channel edges, and the bundle's objects
	// only when it has no image to pull them from.
	listView view = iota
	// getView is GetBundle's: no channel edges (skipRange stays), the
	// objects always.
	getView
)

// bundle builds the answer about one entry.
func (q *queries) bundle(e entry, v view) (*api.Bundle, error) {
	bi := q.info(e.b)
	out := &api.Bundle{
		CsvName:      e.b.Name,
		PackageName:  e.pkg(),
		ChannelName:  e.ch.Name,
		BundlePath:   e.b.Decl.Image,
		ProvidedApis: bi.providedAPIs,
		RequiredApis: bi.requiredAPIs,
		Version:      bi.version,
		SkipRange:    e.e.SkipRange,
		Dependencies: bi.dependencies,
		Properties:   bi.properties,
		Deprecation:  bi.deprecation,
	}
	if v == listView {
		out.Replaces = e.e.Replaces
		out.Skips = e.e.Skips
	}
	if v == getView || out.BundlePath == "" {
		objects, csv, err := q.bundleObjects(e.b)
		if err != nil {
			return nil, err
		}
		out.Object, out.CsvJson = objects, csv
	}
	return out, nil
}

// bundleObjects reads the bundle's objects from the catalog and finds its
// CSV, which is synthesized from olm.csv.metadata when no object is one.
func (q *queries) bundleObjects(b *model.Bundle) (objects []string, csv string, err error) {
	full, err := declcfg.ReloadBundle(q.fsys, b.Decl)
	if err != nil {
		return nil, "", err
	}
	raw, err := full.Objects()
	if err != nil {
		return nil, "", fmt.Errorf("bundle %q: %w", b.Name, err)
	}
	objects = make([]string, len(raw))
	for i, o := range raw {
		objects[i] = string(o)
	}
	if i := declcfg.CSVIndex(raw); i >= 0 {
		return objects, objects[i], nil
	}
	var meta *declcfg.Property
	for i, p := range full.Properties {
		if p.Type == declcfg.PropertyCSVMetadata {
			meta = &full.Properties[i]
		}
	}
	if meta == nil {
		return objects, "", nil
	}
	in := csvInput{Name: b.Name, Metadata: meta.Value, RelatedImages: full.RelatedImages}
	if v, ok := b.PackageProperty(); ok {
		in.Version = v.Version
	}
	if p := b.Package.Decl; p != nil {
		in.PackageDescription, in.Icon = p.Description, p.Icon
	}
	synth, err := csvFromMetadata(in)
	if err != nil {
		return nil, "", fmt.Errorf("bundle %q: %w", b.Name, err)
	}
	if len(objects) == 0 {
		objects = []string{string(synth)}
	}
	return objects, string(synth), nil
}
