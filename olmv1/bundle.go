// Package olmv1 tells what OLM v1 (operator-controller) does with a
// registry+v1 bundle: whether it can install it at all (Unsupported), the
// plain Kubernetes objects it applies (Manifests), the least-privilege RBAC
// of the service account that installs it (InstallerRBAC), and a ready
// ClusterExtension for a package of a catalog (Install).
//
// The rules are operator-controller's: its registry+v1 renderer and
// validators, its manifest provider's refusals, its catalog resolver.
// The package is silent: problems come back as errors or Reasons.
package olmv1

import (
	"fmt"
	"os"
	"path"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/registryv1"
)

// Bundle is what the checks and renderers read of a bundle: its identity,
// its ClusterServiceVersion, its manifests and the properties a catalog
// carries for it. Make one with BundleFromDir, BundleFromFS or
// BundleFromDeclcfg.
type Bundle struct {
	Name    string // the bundle's (CSV's) name
	Package string
	Version string // the olm.package version
	Image   string // the bundle image, when known
	// Source says where the bundle was read from, for messages: a
	// directory, an image reference, or a catalog file and line.
	Source string

	// csv is the bundle's ClusterServiceVersion; nil when only its
	// olm.csv.metadata is known (meta holds that).
	csv  *registryv1.ClusterServiceVersion
	meta registryv1.Metadata
	// objects are the manifests, the CSV among them, in file order.
	objects []manifest
	// properties are the bundle's properties as a catalog carries them,
	// olm.bundle.object left out.
	properties []declcfg.Property
	// where things are, for Reasons
	pos positions
}

// manifest is one Kubernetes object of the bundle and where it is.
type manifest struct {
	obj  *value.Value
	file string
	line int
}

// positions locate the parts of a bundle that Reasons point at.
type positions struct {
	csvFile string
	csvLine int
	// csvTree is the CSV as decoded from its file, with the line of every
	// node; nil when the CSV has no lines of its own (read from a
	// catalog), and then csvLine is the line of the property holding it.
	csvTree *value.Value
	// propFile is the catalog file of a catalog bundle's properties;
	// each property's Line is its line there.
	propFile string
	// propFiles, for a bundle directory, name the metadata file that
	// declares each property ("" for derived ones, such as those of the
	// CSV); each property's Line is its line there.
	propFiles []string
}

// HasManifests reports whether the bundle's manifests are known: false
// for a catalog bundle that carries only an olm.csv.metadata property,
// whose manifests are in its image.
func (b *Bundle) HasManifests() bool { return b.csv != nil }

// InstallModes are the install modes the bundle's CSV declares.
func (b *Bundle) InstallModes() []registryv1.InstallMode { return b.meta.InstallModes }

// BundleFromDir reads a registry+v1 bundle directory (manifests/ and
// metadata/).
func BundleFromDir(dir string) (*Bundle, error) {
	b, err := BundleFromFS(os.DirFS(dir), dir)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// csvAt returns the file and line of a member of the CSV (the CSV itself
// for no keys, or when lines are not known).
func (b *Bundle) csvAt(keys ...string) (string, int) {
	if v := b.pos.csvTree.At(keys...); v != nil && v.Line > 0 {
		return b.pos.csvFile, int(v.Line)
	}
	return b.pos.csvFile, b.pos.csvLine
}

// propAt returns the file and line of the bundle's i-th property.
func (b *Bundle) propAt(i int) (string, int) {
	if b.pos.propFiles != nil {
		return b.pos.propFiles[i], b.properties[i].Line
	}
	return b.pos.propFile, b.properties[i].Line
}

// joinPath names a file of a bundle directory for messages.
func joinPath(dir, rel string) string {
	if dir == "" {
		return rel
	}
	return path.Join(dir, rel)
}

// describe names the bundle in messages.
func (b *Bundle) describe() string {
	if b.Name != "" {
		return fmt.Sprintf("bundle %q", b.Name)
	}
	return "bundle " + b.Source
}

// declaredIn names, for a fix, the file that declares a property found in
// file: that file for a bundle directory, the bundle's metadata files for
// a catalog bundle (the catalog is rendered from them).
func (b *Bundle) declaredIn(file string) string {
	if b.pos.propFiles != nil && file != "" {
		return file
	}
	return "the bundle's metadata/dependencies.yaml or metadata/properties.yaml"
}
