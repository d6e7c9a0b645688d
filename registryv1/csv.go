package registryv1

import (
	"encoding/json"
	"fmt"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
)

// ClusterServiceVersion is the one Go shape of a ClusterServiceVersion in
// this module: render reads the olm.csv.metadata parts from it, serve
// writes the CSV it synthesizes from that property with it, and what
// reads permissions, deployments or webhooks decodes its install
// strategy.
//
// Field order and omitempty follow operator-framework/api v1alpha1,
// because upstream writes CSVs with encoding/json in struct order. Fields
// upstream never fills when it synthesizes a CSV are left out; the
// install strategy's details stay raw, so a CSV is read as leniently as
// render needs (a malformed part is an error only for whoever decodes it).
type ClusterServiceVersion struct {
	Kind       string      `json:"kind"`
	APIVersion string      `json:"apiVersion"`
	Metadata   CSVMetadata `json:"metadata"`
	Spec       CSVSpec     `json:"spec"`
	Status     struct {
		Cleanup struct{} `json:"cleanup"`
	} `json:"status"`
}

// CSVMetadata is the part of a CSV's object metadata this module uses.
type CSVMetadata struct {
	Name        string            `json:"name,omitempty"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// CSVSpec is a CSV's spec, in upstream's field order.
type CSVSpec struct {
	Install                   InstallStrategy       `json:"install"`
	Version                   string                `json:"version"`
	Maturity                  string                `json:"maturity,omitempty"`
	CustomResourceDefinitions CRDDefinitions        `json:"customresourcedefinitions"`
	APIServiceDefinitions     APIServiceDefinitions `json:"apiservicedefinitions"`
	WebhookDefinitions        json.RawMessage       `json:"webhookdefinitions,omitempty"`
	NativeAPIs                []GroupVersionKind    `json:"nativeAPIs,omitempty"`
	MinKubeVersion            string                `json:"minKubeVersion,omitempty"`
	DisplayName               string                `json:"displayName"`
	Description               string                `json:"description,omitempty"`
	Keywords                  []string              `json:"keywords,omitempty"`
	Maintainers               []Maintainer          `json:"maintainers,omitempty"`
	Provider                  AppLink               `json:"provider"`
	Links                     []AppLink             `json:"links,omitempty"`
	Icon                      []Icon                `json:"icon,omitempty"`
	InstallModes              []InstallMode         `json:"installModes,omitempty"`
	Replaces                  string                `json:"replaces,omitempty"`
	Cleanup                   struct {
		Enabled bool `json:"enabled"`
	} `json:"cleanup"`
	Skips         []string       `json:"skips,omitempty"`
	RelatedImages []RelatedImage `json:"relatedImages,omitempty"`
}

// InstallStrategy names the install strategy ("deployment") and keeps
// its details as written.
type InstallStrategy struct {
	Strategy string          `json:"strategy"`
	Spec     json.RawMessage `json:"spec,omitempty"`
}

// Icon is one of a CSV's icons.
type Icon struct {
	Data      string `json:"base64data"`
	MediaType string `json:"mediatype"`
}

// RelatedImage is an image a CSV lists as related.
type RelatedImage struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// ParseCSV reads the JSON of a ClusterServiceVersion.
func ParseCSV(csvJSON []byte) (*ClusterServiceVersion, error) {
	var c ClusterServiceVersion
	if err := json.Unmarshal(csvJSON, &c); err != nil {
		return nil, fmt.Errorf("reading ClusterServiceVersion: %w", err)
	}
	return &c, nil
}

// CSVMetadataOf is the olm.csv.metadata property value of a CSV.
func CSVMetadataOf(c *ClusterServiceVersion) Metadata {
	return Metadata{
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
}

// CSVMetadataProperty builds the olm.csv.metadata property for the JSON
// of a ClusterServiceVersion, as upstream's migration does.
func CSVMetadataProperty(csvJSON []byte) (declcfg.Property, error) {
	c, err := ParseCSV(csvJSON)
	if err != nil {
		return declcfg.Property{}, err
	}
	raw, err := value.Marshal(CSVMetadataOf(c))
	if err != nil {
		return declcfg.Property{}, err
	}
	return declcfg.Property{Type: declcfg.PropertyCSVMetadata, Value: raw}, nil
}
