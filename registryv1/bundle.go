package registryv1

import (
	"errors"
	"io/fs"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
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
	// derived ones (see deriveProperties); fileProperties and
	// dependencies the properties and dependencies files' lists, with
	// their files and lines.
	properties                   []declcfg.Property
	fileProperties, dependencies propertyList
	crds                         []*value.Value
	// nObjects counts the manifests' objects (Objects is empty for
	// ParseFiles).
	nObjects int
	// csvFile is the CSV's file, for errors.
	csvFile string
}

// Parse reads the bundle rooted at fsys (see Read) and makes it what
// upstream opm makes of it: one object for each regular, non-hidden file
// directly in manifests/ whose first document is a Kubernetes object (the
// first CSV only), the annotations, dependencies and properties of the
// metadata/ files that hold them.
func Parse(fsys fs.FS) (*Bundle, error) {
	f, err := Read(fsys)
	if err != nil {
		return nil, err
	}
	return parse(f, true)
}

// ParseFiles is Parse of files read already, for a caller that needs the
// bundle's identity and properties, not its encoded objects: Objects
// stays empty and FBC gives no olm.bundle.object properties (the others
// are Parse's, as are the errors). The trees of files are only read.
func ParseFiles(f *Files) (*Bundle, error) { return parse(f, false) }

// parse makes the bundle of files; with encode, its encoded objects too.
func parse(f *Files, encode bool) (*Bundle, error) {
	b := &Bundle{}
	if err := b.addManifests(f, encode); err != nil {
		return nil, b.inFile(err, b.csvFile)
	}
	if err := b.addMetadata(f); err != nil {
		return nil, err
	}
	if err := b.deriveProperties(); err != nil {
		return nil, b.inFile(err, b.csvFile)
	}
	return b, nil
}

// inFile attributes a problem that names no file to file.
func (b *Bundle) inFile(err error, file string) error {
	var e *position.Error
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
	return b.csvFile, b.dependencies.file, b.fileProperties.file
}
