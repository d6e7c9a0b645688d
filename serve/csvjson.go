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

// noDeployments is the install strategy detail upstream writes for a CSV
// it synthesizes: an empty deployment list, which encoding/json writes as
// null.
var noDeployments = json.RawMessage(`{"deployments":null}`)

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

	var c registryv1.ClusterServiceVersion
	c.Kind = "ClusterServiceVersion"
	c.APIVersion = "operators.coreos.com/v1alpha1"
	c.Metadata.Name = in.Name
	c.Metadata.Labels = m.Labels
	c.Metadata.Annotations = m.Annotations

	s := &c.Spec
	s.Install.Strategy = "deployment"
	s.Install.Spec = noDeployments
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
		s.Icon = []registryv1.Icon{{Data: base64.StdEncoding.EncodeToString(in.Icon.Data), MediaType: in.Icon.MediaType}}
	}
	s.InstallModes = m.InstallModes
	for _, ri := range in.RelatedImages {
		s.RelatedImages = append(s.RelatedImages, registryv1.RelatedImage(ri))
	}
	return json.Marshal(&c)
}
