package suites

import (
	"github.com/fbcat/opm/registryv1"
)

// Bundle is a bundle directory to validate, as registryv1 read it. What
// is sent of it to the helper is its name, the entries of manifests/ and
// metadata/ with their sizes and bytes, and the Kubernetes version (see
// wire.go); the helper reads those entries as registryv1 reads a
// directory.
type Bundle struct {
	// Dir names the directory in messages, as the user named it.
	Dir string
	// Files are its files: manifests/ and metadata/, with the trees of
	// the manifests and the annotations file.
	Files *registryv1.Files
	// KubernetesVersion is the Kubernetes version the suites are given
	// (k8s-version), such as "1.34".
	KubernetesVersion string
}
