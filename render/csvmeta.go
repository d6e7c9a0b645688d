package render

import (
	"encoding/json"
	"fmt"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// csv is the part of a ClusterServiceVersion the metadata comes from.
type csv struct {
	Metadata struct {
		Labels      map[string]string `json:"labels,omitempty"`
		Annotations map[string]string `json:"annotations,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Maturity                  string                           `json:"maturity,omitempty"`
		CustomResourceDefinitions registryv1.CRDDefinitions        `json:"customresourcedefinitions,omitempty"`
		APIServiceDefinitions     registryv1.APIServiceDefinitions `json:"apiservicedefinitions,omitempty"`
		NativeAPIs                []registryv1.GroupVersionKind    `json:"nativeAPIs,omitempty"`
		MinKubeVersion            string                           `json:"minKubeVersion,omitempty"`
		DisplayName               string                           `json:"displayName"`
		Description               string                           `json:"description,omitempty"`
		Keywords                  []string                         `json:"keywords,omitempty"`
		Maintainers               []registryv1.Maintainer          `json:"maintainers,omitempty"`
		Provider                  registryv1.AppLink               `json:"provider,omitempty"`
		Links                     []registryv1.AppLink             `json:"links,omitempty"`
		InstallModes              []registryv1.InstallMode         `json:"installModes,omitempty"`
	} `json:"spec"`
}

// CSVMetadataProperty builds the olm.csv.metadata property for the JSON of
// a ClusterServiceVersion.
func CSVMetadataProperty(csvJSON []byte) (declcfg.Property, error) {
	var c csv
	if err := json.Unmarshal(csvJSON, &c); err != nil {
		return declcfg.Property{}, fmt.Errorf("reading ClusterServiceVersion: %w", err)
	}
	m := registryv1.Metadata{
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
