// Reading bundles: directories (and so extracted images) as
// operator-controller reads them, and catalog bundles.

package olmv1

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/registryv1"
)

// BundleFromFS reads the registry+v1 bundle rooted at fsys; name (a
// directory or an image reference) prefixes the files named in messages.
//
// The manifests are read as operator-controller reads them, which is not
// how opm render reads them: every document of every file in manifests/
// counts (v1 Lists are flattened), a subdirectory is an error, and the
// last ClusterServiceVersion wins. The package, version and properties are
// those opm render gives the bundle, which is what a catalog carries.
func BundleFromFS(fsys fs.FS, name string) (*Bundle, error) {
	f, err := registryv1.Read(fsys)
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", name, err)
	}
	return BundleFromFiles(f, name)
}

// BundleFromFiles is BundleFromFS for a bundle directory read already
// (registryv1.Read or ReadSkimmed): its trees are read, not changed, and
// a file is read again only for what the first document does not tell
// (a JSON file, more documents, a hidden file). The bundle never needs
// registryv1's encoded objects (it keeps no olm.bundle.object
// properties), so they are not made.
func BundleFromFiles(f *registryv1.Files, name string) (*Bundle, error) {
	rb, err := registryv1.ParseFiles(f)
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", name, err)
	}
	fbc, err := rb.FBC("")
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", name, err)
	}
	objs, csvAt, err := readManifests(f, name)
	if err != nil {
		return nil, err
	}
	if csvAt < 0 {
		return nil, fmt.Errorf("bundle %s: no ClusterServiceVersion found in %q: add the operator's CSV to manifests/", name, "manifests")
	}
	csvObj := objs[csvAt]
	b := &Bundle{Name: rb.Name, Package: rb.Package, Source: name, objects: objs}
	if err := b.setCSV(csvObj.obj, csvObj.file); err != nil {
		return nil, err
	}
	b.pos.csvTree, b.pos.csvLine = csvObj.obj, csvObj.line
	b.setProperties(fbc.Properties)
	_, deps, props := rb.Files()
	b.locateProperties(f, name, deps, props)
	return b, nil
}

// setCSV decodes the CSV object and takes the bundle's identity from it.
func (b *Bundle) setCSV(obj *value.Value, file string) error {
	csv, err := registryv1.ParseCSV(value.AppendKubernetesJSON(nil, obj))
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	b.csv, b.meta = csv, registryv1.CSVMetadataOf(csv)
	b.pos.csvFile = file
	if b.Name == "" {
		b.Name = csv.Metadata.Name
	}
	if b.Version == "" {
		b.Version = csv.Spec.Version
	}
	return nil
}

// setProperties keeps the properties a catalog carries, without the
// bundle's objects, and the version of its olm.package property.
func (b *Bundle) setProperties(props []declcfg.Property) {
	for _, p := range props {
		if p.Type == declcfg.PropertyBundleObject {
			continue
		}
		b.properties = append(b.properties, p)
		if p.Type == declcfg.PropertyPackage {
			if v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value); err == nil && v.Version != "" {
				b.Version = v.Version
			}
		}
	}
}

// readManifests reads every document of every file of manifests/, in
// file name order, and returns the objects and the index of the last
// ClusterServiceVersion among them (-1 for none).
func readManifests(f *registryv1.Files, name string) ([]manifest, int, error) {
	var objs []manifest
	csv := -1
	for _, m := range f.Manifests {
		file := joinPath(name, m.File)
		if m.Entry.IsDir() {
			return nil, -1, fmt.Errorf("%s: subdirectories are not allowed within the %q directory of a bundle (operator-controller refuses the bundle): move its files up or remove it", file, "manifests")
		}
		docs, err := documents(f.FS, m)
		if err != nil {
			return nil, -1, fmt.Errorf("%s: %w", file, err)
		}
		for _, d := range docs {
			if d.StringAt("kind") == "ClusterServiceVersion" {
				csv = len(objs)
			}
			objs = append(objs, manifest{obj: d, file: file, line: int(d.Line)})
		}
	}
	return objs, csv, nil
}

// documents are the objects of a manifest file (see decodeStream): its
// first document's tree when that is all the file holds, else what
// decoding the file gives.
func documents(fsys fs.FS, m *registryv1.Manifest) ([]*value.Value, error) {
	if m.Single && !m.Skipped() {
		if v := m.Object(); v != nil && v.Line != 0 {
			return flatten(v)
		}
	}
	data, err := fs.ReadFile(fsys, m.File)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %w", fserr.Cause(err))
	}
	return decodeStream(data)
}

// decodeStream decodes the YAML or JSON documents of a manifest file, as
// Kubernetes' YAML-or-JSON decoder does, skipping empty documents and
// flattening lists. Every object must name its apiVersion and kind.
func decodeStream(data []byte) ([]*value.Value, error) {
	var vals []value.Value
	if value.LooksLikeJSON(data, 1024) {
		p := value.NewJSONParser(data, 1)
		for !p.AtEOF() {
			v, err := p.Next()
			if err != nil {
				return nil, fmt.Errorf("line %d: not JSON: %w", p.Line(), err)
			}
			vals = append(vals, v)
		}
	} else {
		docs, err := fbcyaml.SplitDocuments(data, 1)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			v, err := fbcyaml.Decode(d.Data, d.Line)
			if err != nil {
				return nil, err
			}
			if v.Line == 0 {
				v.SetPos(d.Line, 1)
			}
			vals = append(vals, v)
		}
	}
	var out []*value.Value
	for i := range vals {
		objs, err := flatten(&vals[i])
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

// flatten returns the objects of a document: none for an empty one, the
// items of a list, else the document, which must be a Kubernetes object.
func flatten(v *value.Value) ([]*value.Value, error) {
	if v.Kind == value.Null {
		return nil, nil
	}
	if v.Kind != value.Object {
		return nil, fmt.Errorf("line %d: a document is %s, not a Kubernetes object", v.Line, value.Describe(v))
	}
	kind := v.StringAt("kind")
	if items, ok := v.Get("items"); ok && strings.HasSuffix(kind, "List") && items.Kind == value.Array {
		var out []*value.Value
		for i := range items.Items {
			objs, err := flatten(&items.Items[i])
			if err != nil {
				return nil, err
			}
			out = append(out, objs...)
		}
		return out, nil
	}
	if kind == "" {
		return nil, fmt.Errorf("line %d: object has no kind: every manifest needs apiVersion and kind", v.Line)
	}
	return []*value.Value{v}, nil
}

// BundleFromDeclcfg reads a catalog's bundle: its manifests from its
// olm.bundle.object properties, or, for a bundle that carries only an
// olm.csv.metadata property, what that tells (install modes, API service
// definitions); its manifests are then in its image (see PullBundle).
func BundleFromDeclcfg(b *declcfg.Bundle) (*Bundle, error) {
	out := &Bundle{Name: b.Name, Package: b.Package, Image: b.Image, Source: fmt.Sprintf("%s:%d", b.Pos.File, b.Pos.Line)}
	out.pos.propFile = b.Pos.File
	out.setProperties(b.Properties)
	csvAt, metaAt := -1, -1
	for i, p := range b.Properties {
		line := p.Line
		if line == 0 {
			line = b.Pos.Line
		}
		switch p.Type {
		case declcfg.PropertyBundleObject:
			obj, err := bundleObject(p)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bundle %q: properties[%d] (%s): %w", b.Pos.File, line, b.Name, i, p.Type, err)
			}
			if obj.StringAt("kind") == "ClusterServiceVersion" && csvAt < 0 {
				csvAt = len(out.objects)
			}
			out.objects = append(out.objects, manifest{obj: obj, file: b.Pos.File, line: line})
		case declcfg.PropertyCSVMetadata:
			if metaAt < 0 {
				metaAt = i
			}
		}
	}
	switch {
	case csvAt >= 0:
		m := out.objects[csvAt]
		if err := out.setCSV(m.obj, m.file); err != nil {
			return nil, err
		}
		out.pos.csvLine = m.line
	case metaAt >= 0:
		p := b.Properties[metaAt]
		meta, err := parseVerdictMetadata(p.Value)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: bundle %q: %s property: %w", b.Pos.File, p.Line, b.Name, p.Type, err)
		}
		out.meta, out.objects = meta, nil
		out.pos.csvFile, out.pos.csvLine = b.Pos.File, max(p.Line, b.Pos.Line)
	default:
		return nil, fmt.Errorf("%s:%d: bundle %q %w: render its image (%s) to read its manifests", b.Pos.File, b.Pos.Line, b.Name, errNoObjects, b.Image)
	}
	return out, nil
}

// parseVerdictMetadata decodes what the verdict reads of a bundle known
// only by its olm.csv.metadata value: the install modes and the owned API
// services (its manifests are not known, so nothing else is checked).
// Only those members are decoded: most of the value is the description,
// the alm-examples and the CRD descriptors, which decoding the whole
// value with encoding/json would scan twice and copy.
func parseVerdictMetadata(raw []byte) (registryv1.Metadata, error) {
	var m registryv1.Metadata
	parts, err := value.RawFields(raw, "apiServiceDefinitions", "installModes")
	if err != nil {
		return m, err
	}
	for key, dst := range map[string]any{"apiServiceDefinitions": &m.APIServiceDefinitions, "installModes": &m.InstallModes} {
		if part, ok := parts[key]; ok {
			if err := json.Unmarshal(part, dst); err != nil {
				return m, fmt.Errorf("%s: %w", key, err)
			}
		}
	}
	return m, nil
}

// bundleObject decodes the object of an olm.bundle.object property.
func bundleObject(p declcfg.Property) (*value.Value, error) {
	if p.Value == nil {
		return nil, errors.New("the value was not loaded: load the catalog with its bundle objects")
	}
	data, err := declcfg.BundleObjectData(p.Value)
	if err != nil {
		return nil, err
	}
	v, err := value.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	if v.Kind != value.Object {
		return nil, fmt.Errorf("the object is %s, not a Kubernetes object", value.Describe(&v))
	}
	return &v, nil
}

// errNoObjects is the error for a catalog bundle that carries no
// manifests and no CSV metadata.
var errNoObjects = errors.New("carries neither olm.bundle.object nor olm.csv.metadata properties")
