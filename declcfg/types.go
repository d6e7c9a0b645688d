// Package declcfg reads and writes OLM file-based catalogs (FBC): the
// olm.package, olm.channel, olm.bundle and olm.deprecations blobs and any
// other schema, from JSON or YAML files in a directory tree.
//
// Loading follows upstream opm's rules exactly (which files are read, how a
// file is split into documents, YAML 1.1 scalars, number and key
// normalisation) and writing reproduces upstream's JSON and YAML output byte
// for byte. Unlike upstream, loading is deterministic, keeps going after a
// bad document, and every object and error carries its file and line.
package declcfg

import "encoding/json"

// The schemas OLM defines.
const (
	SchemaPackage      = "olm.package"
	SchemaChannel      = "olm.channel"
	SchemaBundle       = "olm.bundle"
	SchemaDeprecations = "olm.deprecations"
)

// The property types OLM defines.
const (
	PropertyPackage         = "olm.package"
	PropertyPackageRequired = "olm.package.required"
	PropertyGVK             = "olm.gvk"
	PropertyGVKRequired     = "olm.gvk.required"
	PropertyBundleObject    = "olm.bundle.object"
	PropertyCSVMetadata     = "olm.csv.metadata"
	PropertyChannel         = "olm.channel"
	PropertyConstraint      = "olm.constraint"
)

// DeclarativeConfig is a whole catalog, or any part of one.
type DeclarativeConfig struct {
	Packages     []Package
	Channels     []Channel
	Bundles      []Bundle
	Deprecations []Deprecation
	Others       []Meta
}

// Pos is where an object starts: a file (slash-separated, relative to the
// loaded root) and a 1-based line.
type Pos struct {
	File string
	Line int
}

// Package is an olm.package blob.
type Package struct {
	Schema         string     `json:"schema"`
	Name           string     `json:"name"`
	DefaultChannel string     `json:"defaultChannel"`
	Icon           *Icon      `json:"icon,omitempty"`
	Description    string     `json:"description,omitempty"`
	Properties     []Property `json:"properties,omitempty"`
	Pos            Pos        `json:"-"`
}

// Icon is a package icon.
type Icon struct {
	Data      []byte `json:"base64data"` // nil is written as null
	MediaType string `json:"mediatype"`
}

// Channel is an olm.channel blob.
type Channel struct {
	Schema     string         `json:"schema"`
	Name       string         `json:"name"`
	Package    string         `json:"package"`
	Entries    []ChannelEntry `json:"entries"` // nil is written as null
	Properties []Property     `json:"properties,omitempty"`
	Pos        Pos            `json:"-"`
}

// ChannelEntry is one bundle of a channel and its upgrade edges.
type ChannelEntry struct {
	Name      string   `json:"name"`
	Replaces  string   `json:"replaces,omitempty"`
	Skips     []string `json:"skips,omitempty"`
	SkipRange string   `json:"skipRange,omitempty"`
	Line      int      `json:"-"` // line of the entry in Pos.File of its channel
}

// Bundle is an olm.bundle blob.
type Bundle struct {
	Schema        string         `json:"schema"`
	Name          string         `json:"name,omitempty"`
	Package       string         `json:"package,omitempty"`
	Image         string         `json:"image"`
	Properties    []Property     `json:"properties,omitempty"`
	RelatedImages []RelatedImage `json:"relatedImages,omitempty"`
	Pos           Pos            `json:"-"`
	NameLine      int            `json:"-"` // line of the name field in Pos.File, 0 if unknown
	Src           Source         `json:"-"`
}

// Source locates an object's document in the file system it was loaded
// from, so that it can be read again (see ReloadBundle).
type Source struct {
	Path     string // the file, as named in the loaded fs.FS
	Off, End int    // the document's bytes in the file
	Line     int32  // the line of Off
	YAML     bool   // the document is YAML, else JSON
}

// RelatedImage is an image a bundle uses.
type RelatedImage struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// Property is a typed bundle, package or channel property. Value holds
// compact JSON with keys sorted, as upstream normalises it; a nil Value is
// written as null.
type Property struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
	Line  int             `json:"-"` // line of the property in its object's file, 0 if unknown
}

// Deprecation is an olm.deprecations blob.
type Deprecation struct {
	Schema  string             `json:"schema"`
	Package string             `json:"package"`
	Entries []DeprecationEntry `json:"entries"`
	Pos     Pos                `json:"-"`
}

// DeprecationEntry deprecates the package, a channel or a bundle.
type DeprecationEntry struct {
	Reference PackageScopedReference `json:"reference"`
	Message   string                 `json:"message"`
	Line      int                    `json:"-"`
}

// PackageScopedReference names an object of the deprecation's package.
type PackageScopedReference struct {
	Schema string `json:"schema"`
	Name   string `json:"name,omitempty"`
}

// Meta is a blob of any other schema, kept as compact JSON with sorted
// keys (upstream's normalised form).
type Meta struct {
	Schema  string
	Package string
	Name    string
	Blob    json.RawMessage
	Pos     Pos
}

// MarshalJSON writes the blob as it is: a Meta stands for any object of
// the file format.
func (m Meta) MarshalJSON() ([]byte, error) {
	if len(m.Blob) == 0 {
		return []byte("null"), nil
	}
	return m.Blob, nil
}
