package serve

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/registryv1"
)

// csvInput is what the synthesized CSV is built from.
type csvInput struct {
	Name               string                 // the bundle's name
	Version            string                 // the version of the bundle's olm.package property, as written
	Metadata           json.RawMessage        // the olm.csv.metadata property value (compact JSON)
	PackageDescription string                 // the olm.package blob's description
	Icon               *declcfg.Icon          // the olm.package blob's icon, nil if none
	RelatedImages      []declcfg.RelatedImage // the bundle's relatedImages
}

// syntheticCSV has the shape, field order and omitempty rules of
// operator-framework/api's v1alpha1 ClusterServiceVersion for the fields
// upstream fills from olm.csv.metadata; the fields it never fills and that
// encoding/json omits when empty are left out. Everything written
// unconditionally by upstream (install strategy, cleanup, status) is
// written here too.
type syntheticCSV struct {
	Kind       string `json:"kind"`
	APIVersion string `json:"apiVersion"`
	Metadata   struct {
		Name        string            `json:"name,omitempty"`
		Labels      map[string]string `json:"labels,omitempty"`
		Annotations map[string]string `json:"annotations,omitempty"`
	} `json:"metadata"`
	Spec   syntheticSpec `json:"spec"`
	Status struct {
		Cleanup struct{} `json:"cleanup"`
	} `json:"status"`
}

type syntheticSpec struct {
	Install struct {
		Strategy string `json:"strategy"`
		Spec     struct {
			Deployments []struct{} `json:"deployments"` // always null
		} `json:"spec"`
	} `json:"install"`
	Version                   string                           `json:"version"`
	Maturity                  string                           `json:"maturity,omitempty"`
	CustomResourceDefinitions registryv1.CRDDefinitions        `json:"customresourcedefinitions"`
	APIServiceDefinitions     registryv1.APIServiceDefinitions `json:"apiservicedefinitions"`
	NativeAPIs                []registryv1.GroupVersionKind    `json:"nativeAPIs,omitempty"`
	MinKubeVersion            string                           `json:"minKubeVersion,omitempty"`
	DisplayName               string                           `json:"displayName"`
	Description               string                           `json:"description,omitempty"`
	Keywords                  []string                         `json:"keywords,omitempty"`
	Maintainers               []registryv1.Maintainer          `json:"maintainers,omitempty"`
	Provider                  registryv1.AppLink               `json:"provider"`
	Links                     []registryv1.AppLink             `json:"links,omitempty"`
	Icon                      []csvIcon                        `json:"icon,omitempty"`
	InstallModes              []registryv1.InstallMode         `json:"installModes,omitempty"`
	Cleanup                   struct {
		Enabled bool `json:"enabled"`
	} `json:"cleanup"`
	RelatedImages []csvRelatedImage `json:"relatedImages,omitempty"`
}

type csvIcon struct {
	Data      string `json:"base64data"`
	MediaType string `json:"mediatype"`
}

type csvRelatedImage struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// csvFromMetadata returns the ClusterServiceVersion JSON upstream
// synthesizes for a bundle that has an olm.csv.metadata property and no
// ClusterServiceVersion among its objects. As upstream, it is compact and
// written by encoding/json.Marshal, so <, > and & in strings (and in
// descriptor values) are escaped as \u003c, \u003e and \u0026.
//
// The metadata is decoded as upstream decodes it: unknown fields are
// dropped, field names match case-insensitively, and of two keys naming
// the same field the later one wins.
func csvFromMetadata(in csvInput) ([]byte, error) {
	var m registryv1.Metadata
	if err := json.Unmarshal(in.Metadata, &m); err != nil {
		return nil, fmt.Errorf("parse %s property: %w", declcfg.PropertyCSVMetadata, err)
	}
	// spec.version is a semver value in upstream's CSV, written with its
	// String method; a release in the olm.package property is not used.
	v, err := semver.Parse(in.Version)
	if err != nil {
		return nil, fmt.Errorf("parse version %q: %w", in.Version, err)
	}

	var c syntheticCSV
	c.Kind = "ClusterServiceVersion"
	c.APIVersion = "operators.coreos.com/v1alpha1"
	c.Metadata.Name = in.Name
	c.Metadata.Labels = m.Labels
	c.Metadata.Annotations = m.Annotations

	s := &c.Spec
	s.Install.Strategy = "deployment"
	s.Version = v.String()
	s.Maturity = m.Maturity
	s.CustomResourceDefinitions = m.CRDDescriptions
	s.APIServiceDefinitions = m.APIServiceDefinitions
	s.NativeAPIs = m.NativeAPIs
	s.MinKubeVersion = m.MinKubeVersion
	s.DisplayName = m.DisplayName
	s.Description = m.Description
	if s.Description == "" {
		s.Description = in.PackageDescription
	}
	s.Keywords = m.Keywords
	s.Maintainers = m.Maintainers
	s.Provider = m.Provider
	s.Links = m.Links
	if in.Icon != nil {
		s.Icon = []csvIcon{{Data: base64.StdEncoding.EncodeToString(in.Icon.Data), MediaType: in.Icon.MediaType}}
	}
	s.InstallModes = m.InstallModes
	for _, ri := range in.RelatedImages {
		s.RelatedImages = append(s.RelatedImages, csvRelatedImage(ri))
	}
	return json.Marshal(&c)
}
