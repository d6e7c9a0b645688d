package render

import "fmt"

// NotABundle refuses a directory given for a file-based catalog that is
// (or looks like) a registry+v1 bundle directory, which would otherwise
// fail on every manifest.
func NotABundle(dir string) error {
	if IsBundleDir(dir) {
		return fmt.Errorf("%s is a registry+v1 bundle directory (manifests/ and metadata/), not a file-based catalog: opm render %s reads it (and writes its olm.bundle blob for a catalog)", dir, dir)
	}
	return BundleWithoutMetadata(dir)
}
