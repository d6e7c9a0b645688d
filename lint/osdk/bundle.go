package osdk

import (
	"github.com/fbcat/opm/registryv1"
)

// Bundle is a bundle directory to validate, as registryv1 read it.
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

// annotationsFile is the path of the annotations file from the bundle
// directory ("metadata/annotations.yaml"); "" when there is none.
func (b *Bundle) annotationsFile() string {
	if a := b.Files.Annotations; a != nil {
		return a.File
	}
	return ""
}
