package render

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/registryv1"
)

// MissingMetadataError is the error for a directory that looks like a
// registry+v1 bundle (its manifests/ holds a ClusterServiceVersion) but
// has no metadata/annotations.yaml, and so is neither a bundle nor a
// catalog that opm can read.
type MissingMetadataError struct {
	Dir     string
	Missing Missing
}

// Missing is what a bundle directory lacks.
type Missing int

// What MissingMetadataError says is missing.
const (
	noMetadataDir      Missing = iota + 1 // no metadata/ directory
	annotationsOutside                    // annotations.yaml beside manifests/, not in metadata/
	noAnnotationsFile                     // metadata/ without an annotations file
)

func (e *MissingMetadataError) Error() string {
	dir := declcfg.QuoteFileName(e.Dir)
	msg := dir + " looks like a registry+v1 bundle without metadata/annotations.yaml: "
	switch e.Missing {
	case annotationsOutside:
		return msg + "manifests/ holds a ClusterServiceVersion, and annotations.yaml is beside it rather than in metadata/; move it to " +
			declcfg.QuoteFileName(filepath.Join(e.Dir, "metadata", "annotations.yaml"))
	case noAnnotationsFile:
		msg += fmt.Sprintf("metadata/ holds no annotations file (%s: a YAML file with an annotations map naming the package, %s)", registryv1.ErrNoAnnotations, labels.Package)
	default:
		msg += "manifests/ holds a ClusterServiceVersion, but there is no metadata/ directory"
	}
	return msg + fmt.Sprintf("; write it with opm alpha bundle generate -d %s -p PACKAGE -c CHANNEL (which also writes bundle.Dockerfile in the current directory)",
		declcfg.QuoteFileName(filepath.Join(e.Dir, "manifests")))
}

// BundleWithoutMetadata returns a *MissingMetadataError for a directory
// that has a manifests/ directory holding a ClusterServiceVersion but no
// metadata/ directory, and nil for any other: what upstream would read as
// a catalog, and fail on every manifest.
func BundleWithoutMetadata(dir string) error {
	manifests, metadata := bundleDirs(dir)
	if !manifests || metadata || !registryv1.HasCSV(os.DirFS(dir)) {
		return nil
	}
	missing := noMetadataDir
	if st, err := os.Stat(filepath.Join(dir, "annotations.yaml")); err == nil && st.Mode().IsRegular() {
		missing = annotationsOutside
	}
	return &MissingMetadataError{Dir: dir, Missing: missing}
}
