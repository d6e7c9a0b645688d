// The Go shapes of the ClusterServiceVersion parts that make up an
// olm.csv.metadata property value (descriptors, CRD and APIService
// descriptions, install modes, links, ...).
//
// The shapes mirror operator-framework/api v1alpha1: field order and
// omitempty follow the originals, because upstream opm writes these values
// with encoding/json in struct order, both when render builds an
// olm.csv.metadata property from a CSV and when serve builds a CSV back
// from the property.

package registryv1

import "encoding/json"

// Descriptor describes a field of a custom resource's spec or status, or
// an action on it (upstream's SpecDescriptor, StatusDescriptor and
// ActionDescriptor all have this shape).
type Descriptor struct {
	Path         string          `json:"path"`
	DisplayName  string          `json:"displayName,omitempty"`
	Description  string          `json:"description,omitempty"`
	XDescriptors []string        `json:"x-descriptors,omitempty"`
	Value        json.RawMessage `json:"value,omitempty"`
}

// APIResourceReference is a Kubernetes resource type a custom resource
// uses.
type APIResourceReference struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
}

// CRDDescription describes a CustomResourceDefinition an operator owns or
// requires.
type CRDDescription struct {
	Name              string                 `json:"name"`
	Version           string                 `json:"version"`
	Kind              string                 `json:"kind"`
	DisplayName       string                 `json:"displayName,omitempty"`
	Description       string                 `json:"description,omitempty"`
	Resources         []APIResourceReference `json:"resources,omitempty"`
	StatusDescriptors []Descriptor           `json:"statusDescriptors,omitempty"`
	SpecDescriptors   []Descriptor           `json:"specDescriptors,omitempty"`
	ActionDescriptor  []Descriptor           `json:"actionDescriptors,omitempty"`
}

// APIServiceDescription describes an aggregated API an operator owns or
// requires.
type APIServiceDescription struct {
	Name              string                 `json:"name"`
	Group             string                 `json:"group"`
	Version           string                 `json:"version"`
	Kind              string                 `json:"kind"`
	DeploymentName    string                 `json:"deploymentName,omitempty"`
	ContainerPort     int32                  `json:"containerPort,omitempty"`
	DisplayName       string                 `json:"displayName,omitempty"`
	Description       string                 `json:"description,omitempty"`
	Resources         []APIResourceReference `json:"resources,omitempty"`
	StatusDescriptors []Descriptor           `json:"statusDescriptors,omitempty"`
	SpecDescriptors   []Descriptor           `json:"specDescriptors,omitempty"`
	ActionDescriptor  []Descriptor           `json:"actionDescriptors,omitempty"`
}

// CRDDefinitions lists the CRDs an operator owns and requires.
type CRDDefinitions struct {
	Owned    []CRDDescription `json:"owned,omitempty"`
	Required []CRDDescription `json:"required,omitempty"`
}

// APIServiceDefinitions lists the APIServices an operator owns and
// requires.
type APIServiceDefinitions struct {
	Owned    []APIServiceDescription `json:"owned,omitempty"`
	Required []APIServiceDescription `json:"required,omitempty"`
}

// InstallMode says whether an install mode is supported.
type InstallMode struct {
	Type      string `json:"type"`
	Supported bool   `json:"supported"`
}

// AppLink is a named URL (links, provider).
type AppLink struct {
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`
}

// Maintainer is a maintainer's name and email.
type Maintainer struct {
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
}

// GroupVersionKind names a Kubernetes API kind.
type GroupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// Metadata is the olm.csv.metadata property value. Its fields are in
// upstream's order, which is the order render writes them in.
type Metadata struct {
	Annotations           map[string]string     `json:"annotations,omitempty"`
	APIServiceDefinitions APIServiceDefinitions `json:"apiServiceDefinitions"`
	CRDDescriptions       CRDDefinitions        `json:"crdDescriptions"`
	Description           string                `json:"description,omitempty"`
	DisplayName           string                `json:"displayName,omitempty"`
	InstallModes          []InstallMode         `json:"installModes,omitempty"`
	Keywords              []string              `json:"keywords,omitempty"`
	Labels                map[string]string     `json:"labels,omitempty"`
	Links                 []AppLink             `json:"links,omitempty"`
	Maintainers           []Maintainer          `json:"maintainers,omitempty"`
	Maturity              string                `json:"maturity,omitempty"`
	MinKubeVersion        string                `json:"minKubeVersion,omitempty"`
	NativeAPIs            []GroupVersionKind    `json:"nativeAPIs,omitempty"`
	Provider              AppLink               `json:"provider"`
}
