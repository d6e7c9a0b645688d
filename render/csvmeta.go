package render

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/fbcat/opm/declcfg"
)

// The shapes below mirror the ClusterServiceVersion fields (from
// operator-framework/api v1alpha1) that make up an olm.csv.metadata value.
// Field order and omitempty follow the originals, because the value is
// written in struct order.

type descriptor struct {
	Path         string          `json:"path"`
	DisplayName  string          `json:"displayName,omitempty"`
	Description  string          `json:"description,omitempty"`
	XDescriptors []string        `json:"x-descriptors,omitempty"`
	Value        json.RawMessage `json:"value,omitempty"`
}

type apiResourceReference struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
}

type crdDescription struct {
	Name              string                 `json:"name"`
	Version           string                 `json:"version"`
	Kind              string                 `json:"kind"`
	DisplayName       string                 `json:"displayName,omitempty"`
	Description       string                 `json:"description,omitempty"`
	Resources         []apiResourceReference `json:"resources,omitempty"`
	StatusDescriptors []descriptor           `json:"statusDescriptors,omitempty"`
	SpecDescriptors   []descriptor           `json:"specDescriptors,omitempty"`
	ActionDescriptor  []descriptor           `json:"actionDescriptors,omitempty"`
}

type apiServiceDescription struct {
	Name              string                 `json:"name"`
	Group             string                 `json:"group"`
	Version           string                 `json:"version"`
	Kind              string                 `json:"kind"`
	DeploymentName    string                 `json:"deploymentName,omitempty"`
	ContainerPort     int32                  `json:"containerPort,omitempty"`
	DisplayName       string                 `json:"displayName,omitempty"`
	Description       string                 `json:"description,omitempty"`
	Resources         []apiResourceReference `json:"resources,omitempty"`
	StatusDescriptors []descriptor           `json:"statusDescriptors,omitempty"`
	SpecDescriptors   []descriptor           `json:"specDescriptors,omitempty"`
	ActionDescriptor  []descriptor           `json:"actionDescriptors,omitempty"`
}

type crdDefinitions struct {
	Owned    []crdDescription `json:"owned,omitempty"`
	Required []crdDescription `json:"required,omitempty"`
}

type apiServiceDefinitions struct {
	Owned    []apiServiceDescription `json:"owned,omitempty"`
	Required []apiServiceDescription `json:"required,omitempty"`
}

type installMode struct {
	Type      string `json:"type"`
	Supported bool   `json:"supported"`
}

type appLink struct {
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`
}

type maintainer struct {
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
}

type groupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// csv is the part of a ClusterServiceVersion the metadata comes from.
type csv struct {
	Metadata struct {
		Labels      map[string]string `json:"labels,omitempty"`
		Annotations map[string]string `json:"annotations,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Maturity                  string                `json:"maturity,omitempty"`
		CustomResourceDefinitions crdDefinitions        `json:"customresourcedefinitions,omitempty"`
		APIServiceDefinitions     apiServiceDefinitions `json:"apiservicedefinitions,omitempty"`
		NativeAPIs                []groupVersionKind    `json:"nativeAPIs,omitempty"`
		MinKubeVersion            string                `json:"minKubeVersion,omitempty"`
		DisplayName               string                `json:"displayName"`
		Description               string                `json:"description,omitempty"`
		Keywords                  []string              `json:"keywords,omitempty"`
		Maintainers               []maintainer          `json:"maintainers,omitempty"`
		Provider                  appLink               `json:"provider,omitempty"`
		Links                     []appLink             `json:"links,omitempty"`
		InstallModes              []installMode         `json:"installModes,omitempty"`
	} `json:"spec"`
}

// csvMetadata is the olm.csv.metadata property value.
type csvMetadata struct {
	Annotations           map[string]string     `json:"annotations,omitempty"`
	APIServiceDefinitions apiServiceDefinitions `json:"apiServiceDefinitions"`
	CRDDescriptions       crdDefinitions        `json:"crdDescriptions"`
	Description           string                `json:"description,omitempty"`
	DisplayName           string                `json:"displayName,omitempty"`
	InstallModes          []installMode         `json:"installModes,omitempty"`
	Keywords              []string              `json:"keywords,omitempty"`
	Labels                map[string]string     `json:"labels,omitempty"`
	Links                 []appLink             `json:"links,omitempty"`
	Maintainers           []maintainer          `json:"maintainers,omitempty"`
	Maturity              string                `json:"maturity,omitempty"`
	MinKubeVersion        string                `json:"minKubeVersion,omitempty"`
	NativeAPIs            []groupVersionKind    `json:"nativeAPIs,omitempty"`
	Provider              appLink               `json:"provider"`
}

// CSVMetadataProperty builds the olm.csv.metadata property for the JSON of
// a ClusterServiceVersion.
func CSVMetadataProperty(csvJSON []byte) (declcfg.Property, error) {
	var c csv
	if err := json.Unmarshal(csvJSON, &c); err != nil {
		return declcfg.Property{}, fmt.Errorf("reading ClusterServiceVersion: %w", err)
	}
	m := csvMetadata{
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
	raw, err := marshalCompact(m)
	if err != nil {
		return declcfg.Property{}, err
	}
	return declcfg.Property{Type: declcfg.PropertyCSVMetadata, Value: raw}, nil
}

// marshalCompact encodes v as upstream builds property values: no HTML
// escaping, compact.
func marshalCompact(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Compact(&out, buf.Bytes()); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// bundleCSV returns the JSON of the first ClusterServiceVersion among a
// bundle's olm.bundle.object properties, or nil.
func bundleCSV(b *declcfg.Bundle) ([]byte, error) {
	for _, p := range b.Properties {
		if p.Type != declcfg.PropertyBundleObject {
			continue
		}
		data, err := declcfg.BundleObjectData(p.Value)
		if err != nil {
			return nil, fmt.Errorf("bundle %q: %w", b.Name, err)
		}
		var head struct {
			Kind any `json:"kind"`
		}
		if json.Unmarshal(data, &head) == nil && head.Kind == "ClusterServiceVersion" {
			return data, nil
		}
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
