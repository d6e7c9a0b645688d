package render

import (
	"fmt"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/registryv1"
)

// bundleCSV returns the JSON of the first ClusterServiceVersion among a
// bundle's olm.bundle.object properties, or nil.
func bundleCSV(b *declcfg.Bundle) ([]byte, error) {
	objects, err := b.Objects()
	if err != nil {
		return nil, fmt.Errorf("bundle %q: %w", b.Name, err)
	}
	if i := declcfg.CSVIndex(objects); i >= 0 {
		return objects[i], nil
	}
	return nil, nil
}

// bundleObjectToCSVMetadata replaces the bundle objects of a bundle that
// has an image and a CSV by an olm.csv.metadata property.
func bundleObjectToCSVMetadata(b *declcfg.Bundle) error {
	if b.Image == "" || hasProperty(b, declcfg.PropertyCSVMetadata) {
		return nil
	}
	csvJSON, err := bundleCSV(b)
	if err != nil || csvJSON == nil {
		return err
	}
	prop, err := registryv1.CSVMetadataProperty(csvJSON)
	if err != nil {
		return fmt.Errorf("bundle %q: %w", b.Name, err)
	}
	props := b.Properties[:0]
	for _, p := range b.Properties {
		if p.Type != declcfg.PropertyBundleObject {
			props = append(props, p)
		}
	}
	b.Properties = append(props, prop)
	return nil
}

func hasProperty(b *declcfg.Bundle, typ string) bool {
	for _, p := range b.Properties {
		if p.Type == typ {
			return true
		}
	}
	return false
}
