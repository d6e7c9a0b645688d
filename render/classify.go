// Telling what a reference names: a catalog or bundle directory, a file,
// an image reference, or nothing at all.

package render

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/distribution/reference"

	"github.com/fbcat/opm/image"
)

// RefKind is what a reference names, as Classify reads it.
type RefKind int

// The kinds of reference Classify tells apart.
const (
	// RefMissing is a reference that is no path on disk (or one that
	// cannot be read) and no image reference either.
	RefMissing RefKind = iota
	// RefCatalogDir is a directory that is not a registry+v1 bundle:
	// a catalog, as upstream reads it (a bundle whose metadata/ is
	// missing included: see BundleWithoutMetadata).
	RefCatalogDir
	// RefBundleDir is a registry+v1 bundle directory (IsBundleDir).
	RefBundleDir
	// RefFile is a path on disk that is not a directory.
	RefFile
	// RefImage is no path on disk but an image reference: one that names
	// its registry, or one with an image transport (oci:, oci-archive:,
	// docker-archive:). Whether it is a catalog or a bundle is known only
	// once it is pulled.
	RefImage
)

// Ref is what a reference names.
type Ref struct {
	// Name is the reference as given.
	Name string
	// Kind is what it names.
	Kind RefKind
	// PathErr is why Name is no path on disk, for RefImage and
	// RefMissing: an error wrapping fs.ErrNotExist when nothing is
	// there, or another error of reading the path.
	PathErr error
	// ImageErr is why a RefMissing reference whose path does not exist
	// is no image reference either; nil when it is written as a path
	// (absolute, ., .., or starting with ./ or ../) or the path could not
	// be read for another reason than its absence.
	ImageErr error
}

// Classify tells what ref names. The path is read first (following
// links): a directory is a bundle directory or a catalog directory, and
// anything else on disk a file. Only a path that does not exist may be an
// image reference, so a directory is never pulled by mistake, and a
// reference written as a path (./catalog, /catalog) is never read as an
// image.
func Classify(ref string) Ref {
	st, err := os.Stat(ref)
	switch {
	case err == nil && st.IsDir():
		if IsBundleDir(ref) {
			return Ref{Name: ref, Kind: RefBundleDir}
		}
		return Ref{Name: ref, Kind: RefCatalogDir}
	case err == nil:
		return Ref{Name: ref, Kind: RefFile}
	case !errors.Is(err, fs.ErrNotExist) || writtenAsPath(ref):
		return Ref{Name: ref, Kind: RefMissing, PathErr: err}
	}
	if image.IsLocalRef(ref) {
		return Ref{Name: ref, Kind: RefImage, PathErr: err}
	}
	if _, perr := reference.ParseNamed(ref); perr != nil {
		return Ref{Name: ref, Kind: RefMissing, PathErr: err, ImageErr: perr}
	}
	return Ref{Name: ref, Kind: RefImage, PathErr: err}
}

// writtenAsPath reports whether ref is written as a path (absolute, .,
// .., or starting with ./ or ../), so that a mistyped directory is
// reported as one and never taken for an image reference.
func writtenAsPath(ref string) bool {
	return filepath.IsAbs(ref) || ref == "." || ref == ".." || strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../")
}

// Err is the error that a RefMissing reference names nothing, as render
// and lint word it; nil for every other kind.
func (r Ref) Err() error {
	switch {
	case r.Kind != RefMissing:
		return nil
	case r.ImageErr == nil:
		return r.PathErr
	}
	return fmt.Errorf("no such file or directory: %q (nor an image reference: %v; image references name their registry, e.g. quay.io/org/catalog:tag)", r.Name, r.ImageErr)
}

// IsBundleDir reports whether dir has both manifests/ and metadata/
// subdirectories (links do not count), which is how upstream tells a
// registry+v1 bundle from a catalog.
func IsBundleDir(dir string) bool {
	manifests, metadata := bundleDirs(dir)
	return manifests && metadata
}

// bundleDirs reports whether dir has manifests/ and metadata/
// subdirectories (links do not count).
func bundleDirs(dir string) (manifests, metadata bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, false
	}
	for _, e := range entries {
		switch {
		case e.Name() == "manifests" && e.IsDir():
			manifests = true
		case e.Name() == "metadata" && e.IsDir():
			metadata = true
		}
	}
	return manifests, metadata
}
