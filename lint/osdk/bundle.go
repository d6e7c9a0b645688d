package osdk

import (
	"crypto/sha256"
	"io/fs"

	"github.com/fbcat/opm/encoding/value"
)

// Bundle is a bundle directory to validate, as lint read it.
type Bundle struct {
	// Dir names the directory in messages, as the user named it.
	Dir string
	// FS holds its files: manifests/ and metadata/.
	FS fs.FS
	// Manifests are the files of manifests/ that lint decoded, by file
	// name: those whose first document is an object with a kind.
	Manifests map[string]Manifest
	// AnnotationsFile is metadata's annotations file, as a path from the
	// bundle directory ("metadata/annotations.yaml"), and Annotations its
	// annotations.
	AnnotationsFile string
	Annotations     map[string]Annotation
	// KubernetesVersion is the Kubernetes version the suites are given
	// (k8s-version), such as "1.34".
	KubernetesVersion string
}

// Manifest is a file of manifests/: its first document and the sum of
// its content.
type Manifest struct {
	Tree *value.Value
	Sum  [sha256.Size]byte
}

// Annotation is an annotation of metadata's annotations file: its value
// as text, and its line.
type Annotation struct {
	Value string
	Line  int
}
