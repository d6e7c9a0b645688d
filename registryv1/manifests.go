// Reading manifests/: the bundle's Kubernetes objects, and its CSV.

package registryv1

import (
	"errors"
	"fmt"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// addManifests takes the Kubernetes objects of manifests/ (encoded, when
// encode is set) and, from the CSV among them, the bundle's name, version
// and release; it checks that the CRDs the CSV owns are there. Only the
// first CSV counts, as upstream's.
func (b *Bundle) addManifests(f *Files, encode bool) error {
	for _, m := range f.Objects() {
		obj := m.Object()
		if obj == nil {
			return &position.Error{File: m.File, Err: errors.New("cannot read it again: it changed or went away while the bundle was read")}
		}
		switch m.Kind {
		case "ClusterServiceVersion":
			if b.CSV != nil {
				continue // only the first CSV counts
			}
			b.CSV = obj
			b.csvFile = m.File
		case "CustomResourceDefinition":
			b.crds = append(b.crds, obj)
		}
		b.nObjects++
		if encode {
			b.Objects = append(b.Objects, value.AppendKubernetesJSON(nil, obj))
		}
	}
	if b.nObjects == 0 {
		return &position.Error{File: "manifests", Err: errors.New("no bundle objects found: manifests/ holds no Kubernetes objects")}
	}
	if b.CSV == nil {
		return &position.Error{File: "manifests", Err: errors.New("no csv in bundle: manifests/ holds no ClusterServiceVersion")}
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

// csvVersion reads spec.version, which must be a string if set.
func csvVersion(csv *value.Value) (string, error) {
	v := csv.At("spec", "version")
	switch {
	case v == nil || v.Kind == value.Null:
		return "", nil
	case v.Kind == value.String:
		return v.Str, nil
	}
	return "", &position.Error{Line: int(v.Line), Err: fmt.Errorf("ClusterServiceVersion spec.version must be a string, not %s; quote it", v.Kind)}
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
	return "", &position.Error{Line: int(v.Line), Err: errors.New("ClusterServiceVersion spec.release field must be a string or number")}
}
