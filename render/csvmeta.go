package render

import (
	"encoding/json"
	"fmt"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/csvmeta"
	"github.com/fbcat/opm/internal/value"
)

// csv is the part of a ClusterServiceVersion the metadata comes from.
type csv struct {
	Metadata struct {
		Labels      map[string]string `json:"labels,omitempty"`
		Annotations map[string]string `json:"annotations,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Maturity                  string                        `json:"maturity,omitempty"`
		CustomResourceDefinitions csvmeta.CRDDefinitions        `json:"customresourcedefinitions,omitempty"`
		APIServiceDefinitions     csvmeta.APIServiceDefinitions `json:"apiservicedefinitions,omitempty"`
		NativeAPIs                []csvmeta.GroupVersionKind    `json:"nativeAPIs,omitempty"`
		MinKubeVersion            string                        `json:"minKubeVersion,omitempty"`
		DisplayName               string                        `json:"displayName"`
		Description               string                        `json:"description,omitempty"`
		Keywords                  []string                      `json:"keywords,omitempty"`
		Maintainers               []csvmeta.Maintainer          `json:"maintainers,omitempty"`
		Provider                  csvmeta.AppLink               `json:"provider,omitempty"`
		Links                     []csvmeta.AppLink             `json:"links,omitempty"`
		InstallModes              []csvmeta.InstallMode         `json:"installModes,omitempty"`
	} `json:"spec"`
}

// CSVMetadataProperty builds the olm.csv.metadata property for the JSON of
// a ClusterServiceVersion.
func CSVMetadataProperty(csvJSON []byte) (declcfg.Property, error) {
	var c csv
	if err := json.Unmarshal(csvJSON, &c); err != nil {
		return declcfg.Property{}, fmt.Errorf("reading ClusterServiceVersion: %w", err)
	}
	m := csvmeta.Metadata{
		Annotations:           c.Metadata.Annotations,
		APIServiceDefinitions: c.Spec.APIServiceDefinitions,
		CRDDescriptions:       c.Spec.CustomResourceDefinitions,
		Description:           c.Spec.Description,
		DisplayName:           c.Spec.DisplayName,
		InstallModes:          c.Spec.InstallModes,
		Keywords:              c.Spec.Keywords,
		Labels:                c.Metadata.Labels,
		Links:                 c.Spec.Links,
		Maintainers:           c.Spec.Maintainers,
		Maturity:              c.Spec.Maturity,
		MinKubeVersion:        c.Spec.MinKubeVersion,
		NativeAPIs:            c.Spec.NativeAPIs,
		Provider:              c.Spec.Provider,
	}
	raw, err := value.Marshal(m)
	if err != nil {
		return declcfg.Property{}, err
	}
	return declcfg.Property{Type: declcfg.PropertyCSVMetadata, Value: raw}, nil
}

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
	prop, err := CSVMetadataProperty(csvJSON)
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
