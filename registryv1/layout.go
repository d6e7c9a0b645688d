package registryv1

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// ErrNoAnnotations is the problem of a bundle whose metadata/ directory
// holds no annotations file.
//
//lint:ignore ST1005 upstream's message, which users search for
var ErrNoAnnotations = errors.New("Could not find annotations file")

// HasCSV reports whether the manifests/ directory of fsys holds a
// ClusterServiceVersion (the first document of one of its files, as Parse
// reads them): such a directory is a registry+v1 bundle, whether or not
// it has its metadata.
func HasCSV(fsys fs.FS) bool {
	entries, err := fs.ReadDir(fsys, "manifests")
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join("manifests", e.Name()))
		if err != nil {
			continue
		}
		if obj, ok := firstObject(data, 30); ok && obj.StringAt("kind") == "ClusterServiceVersion" {
			return true
		}
	}
	return false
}
