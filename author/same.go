// What makes two bundles, or the other objects of two catalogs, the same.

package author

import (
	"bytes"
	"slices"

	"github.com/fbcat/opm/declcfg"
)

// bundlesByName indexes a catalog's bundles (the first of each name).
func bundlesByName(cfg *declcfg.DeclarativeConfig) map[string]*declcfg.Bundle {
	out := make(map[string]*declcfg.Bundle, len(cfg.Bundles))
	for i := range cfg.Bundles {
		if _, dup := out[cfg.Bundles[i].Name]; !dup {
			out[cfg.Bundles[i].Name] = &cfg.Bundles[i]
		}
	}
	return out
}

// sameBundle reports whether two bundles are equal. Expanding offline
// shares the big property values with the committed catalog, so those
// compare at once.
func sameBundle(a, b *declcfg.Bundle) bool {
	if a == nil || b == nil || a.Schema != b.Schema || a.Name != b.Name || a.Package != b.Package || a.Image != b.Image ||
		len(a.Properties) != len(b.Properties) || !slices.Equal(a.RelatedImages, b.RelatedImages) {
		return false
	}
	for i := range a.Properties {
		if a.Properties[i].Type != b.Properties[i].Type || !bytes.Equal(a.Properties[i].Value, b.Properties[i].Value) {
			return false
		}
	}
	return true
}

// objectKeys are the JSON of the objects of cfg but its bundles, sorted:
// equal lists mean equal objects.
func objectKeys(cfg *declcfg.DeclarativeConfig) []string {
	var keys []string
	add := func(b []byte) { keys = append(keys, string(b)) }
	for i := range cfg.Packages {
		add(cfg.Packages[i].AppendJSON(nil))
	}
	for i := range cfg.Channels {
		add(cfg.Channels[i].AppendJSON(nil))
	}
	for i := range cfg.Others {
		add(cfg.Others[i].AppendJSON(nil))
	}
	for i := range cfg.Deprecations {
		add(cfg.Deprecations[i].AppendJSON(nil))
	}
	slices.Sort(keys)
	return keys
}

func hasProperty(b *declcfg.Bundle, typ string) bool {
	for _, p := range b.Properties {
		if p.Type == typ {
			return true
		}
	}
	return false
}

// withoutBulk is a bundle without the properties the csv-metadata
// migration replaces.
func withoutBulk(b *declcfg.Bundle) *declcfg.Bundle {
	out := *b
	out.Properties = nil
	for _, prop := range b.Properties {
		if prop.Type != declcfg.PropertyBundleObject && prop.Type != declcfg.PropertyCSVMetadata {
			out.Properties = append(out.Properties, prop)
		}
	}
	return &out
}
