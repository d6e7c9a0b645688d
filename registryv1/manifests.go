// Reading manifests/: the bundle's Kubernetes objects, and its CSV.

package registryv1

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/fserr"
)

// addManifests reads the Kubernetes objects of manifests/ and, from the
// CSV among them, the bundle's name, version and release; it checks
// that the CRDs the CSV owns are there.
func (b *Bundle) addManifests(fsys fs.FS, decoded Decoded) error {
	entries, err := fs.ReadDir(fsys, "manifests")
	if err != nil {
		return &Error{File: "manifests", Err: fmt.Errorf("cannot read the manifests directory: %w", fserr.Cause(err))}
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		name := path.Join("manifests", e.Name())
		obj, ok, err := readFirstObject(fsys, name, decoded)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		kind := obj.StringAt("kind")
		if kind == "" {
			continue // not a Kubernetes object
		}
		switch kind {
		case "ClusterServiceVersion":
			if b.CSV != nil {
				continue // only the first CSV counts
			}
			b.CSV = obj
			b.csvFile = name
		case "CustomResourceDefinition":
			b.crds = append(b.crds, obj)
		}
		b.nObjects++
		if decoded == nil {
			b.Objects = append(b.Objects, value.AppendKubernetesJSON(nil, obj))
		}
	}
	if b.nObjects == 0 {
		return &Error{File: "manifests", Err: errors.New("no bundle objects found: manifests/ holds no Kubernetes objects")}
	}
	if b.CSV == nil {
		return &Error{File: "manifests", Err: errors.New("no csv in bundle: manifests/ holds no ClusterServiceVersion")}
	}
	b.Name = b.CSV.At("metadata").StringAt("name")
	version, err := csvVersion(b.CSV)
	if err != nil {
		return err
	}
	b.Version = version
	release, err := csvRelease(b.CSV)
	if err != nil {
		return err
	}
	b.Release = release
	return b.checkOwnedCRDs()
}

// readFirstObject is the first object of the manifest file name (see
// firstObject): the one decoded gives when it knows it, else read from
// fsys.
func readFirstObject(fsys fs.FS, name string, decoded Decoded) (*value.Value, bool, error) {
	if decoded != nil {
		if obj, ok := decoded(name); ok {
			return obj, true, nil
		}
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		// Upstream skips what it cannot decode; what cannot be read at
		// all is reported, not taken for a missing CSV.
		return nil, false, &Error{File: name, Err: fmt.Errorf("cannot read: %w", fserr.Cause(err))}
	}
	obj, ok := firstObject(data, 30)
	return obj, ok, nil
}

// csvVersion reads spec.version, which must be a string if set.
func csvVersion(csv *value.Value) (string, error) {
	v := csv.At("spec", "version")
	switch {
	case v == nil || v.Kind == value.Null:
		return "", nil
	case v.Kind == value.String:
		return v.Str, nil
	}
	return "", &Error{Err: fmt.Errorf("ClusterServiceVersion spec.version must be a string, not %s; quote it", v.Kind)}
}

// csvRelease reads spec.release: a string, or a number written as an
// integer or in %g form.
func csvRelease(csv *value.Value) (string, error) {
	v := csv.At("spec", "release")
	switch {
	case v == nil || v.Kind == value.Null:
		return "", nil
	case v.Kind == value.String:
		return v.Str, nil
	case v.Kind == value.Number:
		if v.Num == float64(int64(v.Num)) {
			return fmt.Sprintf("%d", int64(v.Num)), nil
		}
		return fmt.Sprintf("%g", v.Num), nil
	}
	return "", &Error{Err: errors.New("ClusterServiceVersion spec.release field must be a string or number")}
}
