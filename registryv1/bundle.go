// Package registryv1 reads registry+v1 operator bundles (a manifests/ and a
// metadata/ directory) and turns them into olm.bundle blobs exactly as
// upstream opm renders them: the same properties in the same order, the
// same related images, the Kubernetes objects as olm.bundle.object
// properties.
package registryv1

import (
	"errors"
	"io/fs"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
)

// Bundle is a parsed registry+v1 bundle.
type Bundle struct {
	// Name is the CSV's metadata.name.
	Name string
	// Package is the package annotation.
	Package string
	// Channels and DefaultChannel are the channel annotations.
	Channels       []string
	DefaultChannel string
	// Version and Release come from the CSV's spec.
	Version, Release string
	// Objects are the manifests' Kubernetes objects as JSON, in file order.
	Objects [][]byte
	// CSV is the ClusterServiceVersion.
	CSV *value.Value

	// properties are the properties file's entries followed by the
	// derived ones (see deriveProperties); dependencies the dependencies
	// file's entries.
	properties   []declcfg.Property
	dependencies []declcfg.Property
	crds         []*value.Value
	// nObjects counts the manifests' objects (Objects is empty for
	// ParseDecoded).
	nObjects int
	// The files things came from, for errors; nFileProperties counts the
	// properties from the properties file.
	csvFile, propertiesFile, dependenciesFile string
	nFileProperties                           int
}

// Error is a problem with a bundle's files.
type Error struct {
	File string // relative to the bundle root, if the problem is in one file
	Err  error
}

func (e *Error) Error() string {
	if e.File == "" {
		return e.Err.Error()
	}
	return e.File + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Parse reads the bundle rooted at fsys. As upstream does, it reads every
// regular, non-hidden file directly in manifests/ (one object per file:
// the first document; files that are not Kubernetes objects are skipped,
// and so are CSVs after the first) and identifies the annotations,
// dependencies and properties files in metadata/ by their content.
func Parse(fsys fs.FS) (*Bundle, error) { return parse(fsys, nil) }

// Decoded gives the first object of a bundle's manifest file (named
// relative to the bundle root, as manifests/NAME) that its caller has
// decoded already, as FirstObject with a sniff of 30 decodes it; ok is
// false for a file it does not know, which is then read and decoded. The
// trees are only read, never changed.
type Decoded func(name string) (obj *value.Value, ok bool)

// ParseDecoded is Parse for a caller that has decoded the manifests
// already and needs the bundle's identity and properties, not its
// encoded objects: decoded gives the trees it knows, Objects stays empty
// and FBC gives no olm.bundle.object properties (the others are Parse's,
// as are the errors).
func ParseDecoded(fsys fs.FS, decoded Decoded) (*Bundle, error) {
	if decoded == nil {
		decoded = func(string) (*value.Value, bool) { return nil, false }
	}
	return parse(fsys, decoded)
}

// parse reads the bundle; with decoded, without encoding its objects.
func parse(fsys fs.FS, decoded Decoded) (*Bundle, error) {
	b := &Bundle{}
	if err := b.addManifests(fsys, decoded); err != nil {
		return nil, b.inFile(err, b.csvFile)
	}
	if err := b.addMetadata(fsys); err != nil {
		return nil, err
	}
	if err := b.deriveProperties(); err != nil {
		return nil, b.inFile(err, b.csvFile)
	}
	return b, nil
}

// inFile attributes a problem that names no file to file.
func (b *Bundle) inFile(err error, file string) error {
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		e.File = file
	}
	return err
}

// FBC returns the olm.bundle blob for the bundle, with image as its image
// (empty for a bundle directory without an image reference template).
func (b *Bundle) FBC(image string) (declcfg.Bundle, error) {
	props, err := b.fbcProperties()
	if err != nil {
		return declcfg.Bundle{}, b.inFile(err, b.csvFile)
	}
	related, err := b.relatedImages(image)
	if err != nil {
		return declcfg.Bundle{}, b.inFile(err, b.csvFile)
	}
	return declcfg.Bundle{
		Schema:        declcfg.SchemaBundle,
		Name:          b.Name,
		Package:       b.Package,
		Image:         image,
		Properties:    props,
		RelatedImages: related,
	}, nil
}

// ImageTemplateData is what an image reference template
// (--alpha-image-ref-template) can use.
type ImageTemplateData struct {
	Package string
	Name    string
	Version string
}

// TemplateData returns the template data for the bundle: its package, its
// CSV name, and the version of its first olm.package property.
func (b *Bundle) TemplateData() ImageTemplateData {
	d := ImageTemplateData{Package: b.Package, Name: b.Name}
	for _, p := range b.properties {
		if p.Type == declcfg.PropertyPackage {
			if v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value); err == nil {
				d.Version = v.Version
			}
			break
		}
	}
	return d
}

// Files names the bundle's files, relative to its root: the CSV's, and
// the metadata files holding the dependencies and properties ("" for
// none).
func (b *Bundle) Files() (csv, dependencies, properties string) {
	return b.csvFile, b.dependenciesFile, b.propertiesFile
}
