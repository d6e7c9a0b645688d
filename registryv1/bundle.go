// Package registryv1 reads registry+v1 operator bundles (a manifests/ and a
// metadata/ directory) and turns them into olm.bundle blobs exactly as
// upstream opm renders them: the same properties in the same order, the
// same related images, the Kubernetes objects as olm.bundle.object
// properties.
package registryv1

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/internal/labels"
)

// Bundle is a parsed registry+v1 bundle.
type Bundle struct {
	// Name is the CSV's metadata.name.
	Name string
	// Package is the package annotation.
	Package string
	// Channels and DefaultChannel are the channel annotations.
	Channels       []string
	DefaultChannel string
	// Version and Release come from the CSV's spec.
	Version, Release string
	// Objects are the manifests' Kubernetes objects as JSON, in file order.
	Objects [][]byte
	// CSV is the ClusterServiceVersion.
	CSV *value.Value

	// properties are the properties file's entries followed by the
	// derived ones (see deriveProperties); dependencies the dependencies
	// file's entries.
	properties   []declcfg.Property
	dependencies []declcfg.Property
	crds         []*value.Value
	// The files things came from, for errors; nFileProperties counts the
	// properties from the properties file.
	csvFile, propertiesFile, dependenciesFile string
	nFileProperties                           int
}

// Error is a problem with a bundle's files.
type Error struct {
	File string // relative to the bundle root, if the problem is in one file
	Err  error
}

func (e *Error) Error() string {
	if e.File == "" {
		return e.Err.Error()
	}
	return e.File + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Parse reads the bundle rooted at fsys. As upstream does, it reads every
// regular, non-hidden file directly in manifests/ (one object per file:
// the first document; files that are not Kubernetes objects are skipped,
// and so are CSVs after the first) and identifies the annotations,
// dependencies and properties files in metadata/ by their content.
func Parse(fsys fs.FS) (*Bundle, error) {
	b := &Bundle{}
	if err := b.addManifests(fsys); err != nil {
		return nil, b.inFile(err, b.csvFile)
	}
	if err := b.addMetadata(fsys); err != nil {
		return nil, err
	}
	if err := b.deriveProperties(); err != nil {
		return nil, b.inFile(err, b.csvFile)
	}
	return b, nil
}

// inFile attributes a problem that names no file to file.
func (b *Bundle) inFile(err error, file string) error {
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		e.File = file
	}
	return err
}

func (b *Bundle) addManifests(fsys fs.FS) error {
	entries, err := fs.ReadDir(fsys, "manifests")
	if err != nil {
		return &Error{File: "manifests", Err: fmt.Errorf("cannot read the manifests directory: %w", fserr.Cause(err))}
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		name := path.Join("manifests", e.Name())
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			// Upstream skips what it cannot decode; what cannot be read
			// at all is reported, not taken for a missing CSV.
			return &Error{File: name, Err: fmt.Errorf("cannot read: %w", fserr.Cause(err))}
		}
		obj, ok := firstObject(data, 30)
		if !ok {
			continue
		}
		kind := stringField(obj, "kind")
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
		b.Objects = append(b.Objects, value.AppendKubernetesJSON(nil, obj))
	}
	if len(b.Objects) == 0 {
		return &Error{File: "manifests", Err: errors.New("no bundle objects found: manifests/ holds no Kubernetes objects")}
	}
	if b.CSV == nil {
		return &Error{File: "manifests", Err: errors.New("no csv in bundle: manifests/ holds no ClusterServiceVersion")}
	}
	b.Name = stringField(lookupPath(b.CSV, "metadata"), "name")
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

// firstObject decodes the first document of a manifest or metadata file
// the way upstream's YAML-or-JSON decoder does (sniffing only the first
// sniff bytes for a JSON object). It reports false for anything that is not
// an object.
func firstObject(data []byte, sniff int) (*value.Value, bool) {
	if value.LooksLikeJSON(data, sniff) {
		p := value.NewJSONParser(data, 1)
		if v, err := p.Next(); err == nil {
			return &v, v.Kind == value.Object
		}
	}
	docs, _ := fbcyaml.SplitDocuments(data, 1)
	if len(docs) == 0 {
		return nil, false
	}
	v, err := fbcyaml.Decode(docs[0].Data, docs[0].Line)
	if err != nil || v.Kind != value.Object {
		return nil, false
	}
	return &v, true
}

// lookupPath follows object members.
func lookupPath(v *value.Value, keys ...string) *value.Value {
	for _, k := range keys {
		if v == nil {
			return nil
		}
		next, ok := v.Get(k)
		if !ok {
			return nil
		}
		v = next
	}
	return v
}

func stringField(v *value.Value, key string) string {
	if f := lookupPath(v, key); f != nil && f.Kind == value.String {
		return f.Str
	}
	return ""
}

func csvVersion(csv *value.Value) (string, error) {
	v := lookupPath(csv, "spec", "version")
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
	v := lookupPath(csv, "spec", "release")
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

// addMetadata finds the annotations, dependencies and properties files:
// the first file (in name order) holding each, whatever its name.
func (b *Bundle) addMetadata(fsys fs.FS) error {
	entries, err := fs.ReadDir(fsys, "metadata")
	if err != nil {
		return &Error{File: "metadata", Err: fmt.Errorf("cannot read the metadata directory: %w", fserr.Cause(err))}
	}
	var annotations *value.Value
	var deps, props []declcfg.Property
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := path.Join("metadata", e.Name())
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return &Error{File: name, Err: fmt.Errorf("cannot read: %w", fserr.Cause(err))}
		}
		json := value.LooksLikeJSON(data, 30)
		obj, ok := firstObject(data, 30)
		if !ok {
			continue
		}
		if annotations == nil {
			if a := lookupPath(obj, "annotations"); a != nil && a.Kind == value.Object && hasBundleAnnotation(a) {
				annotations = a
			}
		}
		if deps == nil {
			if deps = propertyList(data, obj, "dependencies", json); deps != nil {
				b.dependenciesFile = path.Join("metadata", e.Name())
			}
		}
		if props == nil {
			if props = propertyList(data, obj, "properties", json); props != nil {
				b.propertiesFile = path.Join("metadata", e.Name())
			}
		}
	}
	if annotations == nil {
		return &Error{File: "metadata", Err: fmt.Errorf("%w: metadata/ needs a file with an annotations map naming the package (%s)", ErrNoAnnotations, labels.Package)}
	}
	b.Package = annotationString(annotations, labels.Package)
	if ch := annotationString(annotations, labels.Channels); ch != "" {
		b.Channels = strings.Split(ch, ",")
	}
	b.DefaultChannel = annotationString(annotations, labels.DefaultChannel)
	b.dependencies = deps
	b.properties = props
	b.nFileProperties = len(props)
	return nil
}

// hasBundleAnnotation reports whether an annotations map sets one of the
// fields upstream's annotations type has.
func hasBundleAnnotation(a *value.Value) bool {
	for _, k := range []string{labels.Package, labels.Channels, labels.DefaultChannel} {
		if annotationString(a, k) != "" {
			return true
		}
	}
	return false
}

// annotationString reads an annotation into a string as upstream's typed
// decoding does: numbers and booleans become their text.
func annotationString(a *value.Value, key string) string {
	v := lookupPath(a, key)
	if v == nil {
		return ""
	}
	switch v.Kind {
	case value.String:
		return v.Str
	case value.Number:
		if v.Str != "" {
			return v.Str
		}
		return strconv.FormatFloat(v.Num, 'g', -1, 32)
	case value.Bool:
		return fmt.Sprint(v.Bool)
	}
	return ""
}

// propertyList reads a list of {type, value} entries. Values keep the
// text upstream keeps: for JSON files, the bytes as written; for YAML
// files, compact JSON with sorted keys and HTML characters escaped.
func propertyList(data []byte, obj *value.Value, key string, isJSON bool) []declcfg.Property {
	list := lookupPath(obj, key)
	if list == nil || list.Kind != value.Array || len(list.Items) == 0 {
		return nil
	}
	var raw []json.RawMessage
	if isJSON {
		var file map[string]json.RawMessage
		if json.Unmarshal(firstJSONValue(data), &file) != nil || json.Unmarshal(file[key], &raw) != nil {
			return nil
		}
	}
	out := make([]declcfg.Property, 0, len(list.Items))
	for i := range list.Items {
		item := &list.Items[i]
		t := stringField(item, "type")
		var val json.RawMessage
		if isJSON {
			var entry struct {
				Value json.RawMessage `json:"value"`
			}
			if json.Unmarshal(raw[i], &entry) != nil {
				return nil
			}
			val = entry.Value
		} else if v := lookupPath(item, "value"); v != nil {
			val = value.AppendKubernetesJSON(nil, v)
		}
		out = append(out, declcfg.Property{Type: t, Value: val})
	}
	return out
}

// firstJSONValue returns the bytes of the first JSON value in data.
func firstJSONValue(data []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return nil
	}
	return raw
}

// apiKey identifies an API a bundle provides or requires.
type apiKey struct {
	group, version, kind, plural string
}

func (k apiKey) String() string {
	return fmt.Sprintf("%s/%s/%s (%s)", k.group, k.version, k.kind, k.plural)
}

// providedAPIs lists the APIs the bundle's CRDs (v1: every version; v1beta1:
// every version and spec.version) and the CSV's owned API services provide.
func (b *Bundle) providedAPIs() ([]apiKey, error) {
	var keys []apiKey
	for _, crd := range b.crds {
		apiVersion := stringField(crd, "apiVersion")
		version := apiVersion[strings.LastIndex(apiVersion, "/")+1:]
		if version != "v1" && version != "v1beta1" {
			continue
		}
		group := stringField(lookupPath(crd, "spec"), "group")
		names := lookupPath(crd, "spec", "names")
		kind, plural := stringField(names, "kind"), stringField(names, "plural")
		if vs := lookupPath(crd, "spec", "versions"); vs != nil && vs.Kind == value.Array {
			for i := range vs.Items {
				keys = append(keys, apiKey{group, stringField(&vs.Items[i], "name"), kind, plural})
			}
		}
		if version == "v1beta1" {
			if v := stringField(lookupPath(crd, "spec"), "version"); v != "" {
				keys = append(keys, apiKey{group, v, kind, plural})
			}
		}
	}
	owned, _, err := b.apiServiceDefinitions()
	if err != nil {
		return nil, err
	}
	keys = append(keys, owned...)
	return keys, nil
}

// description is the part of a CRD or API service description the API keys
// come from.
type description struct {
	Name    string `json:"name"`
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

func (b *Bundle) definitions(field string) (owned, required []description, err error) {
	v := lookupPath(b.CSV, "spec", field)
	if v == nil || v.Kind == value.Null {
		return nil, nil, nil
	}
	var defs struct {
		Owned    []description `json:"owned"`
		Required []description `json:"required"`
	}
	if err := json.Unmarshal(value.AppendKubernetesJSON(nil, v), &defs); err != nil {
		return nil, nil, &Error{Err: fmt.Errorf("reading ClusterServiceVersion spec.%s: %w", field, err)}
	}
	return defs.Owned, defs.Required, nil
}

func (b *Bundle) apiServiceDefinitions() (owned, required []apiKey, err error) {
	o, r, err := b.definitions("apiservicedefinitions")
	for _, d := range o {
		owned = append(owned, apiKey{d.Group, d.Version, d.Kind, d.Name})
	}
	for _, d := range r {
		required = append(required, apiKey{d.Group, d.Version, d.Kind, d.Name})
	}
	return owned, required, err
}

// crdKey turns a CRD description ("plural.group" name) into an API key.
func crdKey(d description) (apiKey, error) {
	plural, group, ok := strings.Cut(d.Name, ".")
	if !ok {
		return apiKey{}, &Error{Err: fmt.Errorf("couldn't parse plural.group from crd name: %s", d.Name)}
	}
	return apiKey{group, d.Version, d.Kind, plural}, nil
}

// checkOwnedCRDs checks that every CRD the CSV owns is in the bundle.
func (b *Bundle) checkOwnedCRDs() error {
	provided, err := b.providedAPIs()
	if err != nil {
		return err
	}
	owned, _, err := b.definitions("customresourcedefinitions")
	if err != nil {
		return err
	}
	for _, d := range owned {
		key, err := crdKey(d)
		if err != nil {
			return err
		}
		found := false
		for _, p := range provided {
			if p == key {
				found = true
				break
			}
		}
		if !found {
			var have []string
			for _, p := range provided {
				have = append(have, p.String())
			}
			return &Error{Err: fmt.Errorf("error checking provided apis in bundle %s: couldn't find %s in bundle (the CSV owns it, but no CRD in manifests/ provides that group, version, kind and plural); found: [%s]", b.Name, key, strings.Join(have, ", "))}
		}
	}
	return nil
}

// requiredAPIs lists the APIs the CSV requires: its required CRDs and API
// services.
func (b *Bundle) requiredAPIs() ([]apiKey, error) {
	_, required, err := b.definitions("customresourcedefinitions")
	if err != nil {
		return nil, err
	}
	var keys []apiKey
	for _, d := range required {
		key, err := crdKey(d)
		if err != nil {
			return nil, err
		}
		keys = append(keys, key)
	}
	_, apis, err := b.apiServiceDefinitions()
	if err != nil {
		return nil, err
	}
	return append(keys, apis...), nil
}

// deriveProperties appends, after the properties file's entries, the
// olm.package property from the annotations and CSV, the entries of the
// CSV's olm.properties annotation, and one olm.gvk per provided API; then
// drops exact duplicates.
func (b *Bundle) deriveProperties() error {
	var derived []declcfg.Property
	if b.Package != "" {
		derived = append(derived, packageProperty(b.Package, b.Version, b.Release))
	}
	if ann := stringField(lookupPath(b.CSV, "metadata", "annotations"), "olm.properties"); ann != "" {
		var props []struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal([]byte(ann), &props) == nil {
			for _, p := range props {
				derived = append(derived, declcfg.Property{Type: p.Type, Value: p.Value})
			}
		}
	}
	provided, err := b.providedAPIs()
	if err != nil {
		return err
	}
	for _, k := range provided {
		derived = append(derived, gvkProperty(declcfg.PropertyGVK, k))
	}
	b.properties = dedupe(append(b.properties, dedupe(derived)...))
	return nil
}

func dedupe(props []declcfg.Property) []declcfg.Property {
	seen := map[string]bool{}
	out := props[:0:0]
	for _, p := range props {
		key := p.Type + "\x00" + string(p.Value)
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

func mustJSON(v any) json.RawMessage {
	data, err := value.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

func packageProperty(pkg, version, release string) declcfg.Property {
	return declcfg.Property{Type: declcfg.PropertyPackage, Value: mustJSON(declcfg.PackageProperty{PackageName: pkg, Version: version, Release: release})}
}

func gvkProperty(typ string, k apiKey) declcfg.Property {
	return declcfg.Property{Type: typ, Value: mustJSON(declcfg.GVKProperty{Group: k.group, Kind: k.kind, Version: k.version})}
}

// FBC returns the olm.bundle blob for the bundle, with image as its image
// (empty for a bundle directory without an image reference template).
func (b *Bundle) FBC(image string) (declcfg.Bundle, error) {
	props, err := b.fbcProperties()
	if err != nil {
		return declcfg.Bundle{}, b.inFile(err, b.csvFile)
	}
	related, err := b.relatedImages(image)
	if err != nil {
		return declcfg.Bundle{}, b.inFile(err, b.csvFile)
	}
	return declcfg.Bundle{
		Schema:        declcfg.SchemaBundle,
		Name:          b.Name,
		Package:       b.Package,
		Image:         image,
		Properties:    props,
		RelatedImages: related,
	}, nil
}

// propertySet gathers a bundle's properties by kind before they become
// the final list.
type propertySet struct {
	pkg         *declcfg.Property // the last olm.package given
	gvks        []apiKey          // provided APIs, without duplicates
	required    []apiKey          // required APIs, without duplicates
	pkgRequired []declcfg.Property
	others      []declcfg.Property // every other type, as given
}

// addKey adds k to keys unless it is there already; the plural does not
// count.
func addKey(keys []apiKey, k apiKey) []apiKey {
	k.plural = ""
	if slices.Contains(keys, k) {
		return keys
	}
	return append(keys, k)
}

// fbcProperties builds the final property list: one olm.package (the last
// one given wins), the union of provided GVKs, the union of required GVKs
// (from the dependencies file and the CSV), olm.package.required for
// package dependencies, every other property and dependency as given, and
// one olm.bundle.object per manifest object; sorted by type, then by value.
func (b *Bundle) fbcProperties() ([]declcfg.Property, error) {
	var set propertySet
	if err := b.addProperties(&set); err != nil {
		return nil, err
	}
	if err := b.addDependencies(&set); err != nil {
		return nil, err
	}
	provided, err := b.providedAPIs()
	if err != nil {
		return nil, err
	}
	for _, k := range provided {
		set.gvks = addKey(set.gvks, k)
	}
	requiredAPIs, err := b.requiredAPIs()
	if err != nil {
		return nil, err
	}
	for _, k := range requiredAPIs {
		set.required = addKey(set.required, k)
	}
	return b.propertyList(&set), nil
}

// addProperties reads the properties of the properties file and the
// CSV's olm.properties annotation.
func (b *Bundle) addProperties(set *propertySet) error {
	for i, p := range b.properties {
		switch p.Type {
		case declcfg.PropertyGVK:
			v, err := declcfg.ParsePropertyValue[declcfg.GVKProperty](p.Value)
			if err != nil {
				return b.propertyError(i, "olm.gvk", err)
			}
			set.gvks = addKey(set.gvks, apiKey{group: v.Group, version: v.Version, kind: v.Kind})
		case declcfg.PropertyPackage:
			v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value)
			if err != nil {
				return b.propertyError(i, "olm.package", err)
			}
			prop := packageProperty(v.PackageName, v.Version, v.Release)
			set.pkg = &prop
		default:
			set.others = append(set.others, p)
		}
	}
	return nil
}

// addDependencies reads the dependencies file: GVKs and packages become
// requirements.
func (b *Bundle) addDependencies(set *propertySet) error {
	for i, p := range b.dependencies {
		switch p.Type {
		case declcfg.PropertyGVK:
			v, err := declcfg.ParsePropertyValue[declcfg.GVKProperty](p.Value)
			if err != nil {
				return &Error{File: b.dependenciesFile, Err: fmt.Errorf("dependency[%d] (olm.gvk): %w", i, err)}
			}
			set.required = addKey(set.required, apiKey{group: v.Group, version: v.Version, kind: v.Kind})
		case declcfg.PropertyPackage:
			v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value)
			if err != nil {
				return &Error{File: b.dependenciesFile, Err: fmt.Errorf("dependency[%d] (olm.package): %w", i, err)}
			}
			set.pkgRequired = append(set.pkgRequired, declcfg.Property{Type: declcfg.PropertyPackageRequired, Value: mustJSON(declcfg.PackageRequiredProperty{PackageName: v.PackageName, VersionRange: v.Version})})
		default:
			set.others = append(set.others, p)
		}
	}
	return nil
}

// propertyList turns the set into the final list, with the bundle's
// objects and, if none was given, its own olm.package.
func (b *Bundle) propertyList(set *propertySet) []declcfg.Property {
	var props []declcfg.Property
	for _, obj := range b.Objects {
		props = append(props, declcfg.Property{Type: declcfg.PropertyBundleObject, Value: mustJSON(map[string]string{"data": base64.StdEncoding.EncodeToString(obj)})})
	}
	if set.pkg != nil {
		props = append(props, *set.pkg)
	} else {
		props = append(props, packageProperty(b.Package, b.Version, b.Release))
	}
	for _, k := range set.gvks {
		props = append(props, gvkProperty(declcfg.PropertyGVK, k))
	}
	for _, k := range set.required {
		props = append(props, gvkProperty(declcfg.PropertyGVKRequired, k))
	}
	props = append(props, set.pkgRequired...)
	props = append(props, set.others...)
	slices.SortFunc(props, func(x, y declcfg.Property) int {
		return cmp.Or(cmp.Compare(x.Type, y.Type), bytes.Compare(x.Value, y.Value))
	})
	return props
}

// propertyError explains a bad property: one from the properties file,
// or one from the CSV's olm.properties annotation.
func (b *Bundle) propertyError(i int, typ string, err error) error {
	if i < b.nFileProperties {
		return &Error{File: b.propertiesFile, Err: fmt.Errorf("property[%d] (%s): %w", i, typ, err)}
	}
	return &Error{File: b.csvFile, Err: fmt.Errorf("olm.properties annotation: property[%d] (%s): %w", i-b.nFileProperties, typ, err)}
}

// install is the part of a CSV's install strategy operator images come from.
type install struct {
	Strategy string `json:"strategy"`
	Spec     struct {
		Deployments []struct {
			Spec struct {
				Template struct {
					Spec struct {
						Containers     []struct{ Image string } `json:"containers"`
						InitContainers []struct{ Image string } `json:"initContainers"`
					} `json:"spec"`
				} `json:"template"`
			} `json:"spec"`
		} `json:"deployments"`
	} `json:"spec"`
}

// relatedImages lists the CSV's related images, then the bundle image and
// the images of the install deployments' containers that are not already
// listed, as upstream does (the caller sorts them).
func (b *Bundle) relatedImages(image string) ([]declcfg.RelatedImage, error) {
	var related []declcfg.RelatedImage
	if v := lookupPath(b.CSV, "spec", "relatedImages"); v != nil && v.Kind != value.Null {
		var ris []struct {
			Name  string `json:"name"`
			Image string `json:"image"`
		}
		if err := json.Unmarshal(value.AppendKubernetesJSON(nil, v), &ris); err != nil {
			return nil, &Error{Err: fmt.Errorf("reading ClusterServiceVersion spec.relatedImages: %w", err)}
		}
		for _, ri := range ris {
			related = append(related, declcfg.RelatedImage{Name: ri.Name, Image: ri.Image})
		}
	}
	seen := map[string]bool{}
	for _, ri := range related {
		seen[ri.Image] = true
	}
	if image != "" && !seen[image] {
		related = append(related, declcfg.RelatedImage{Image: image})
	}
	if v := lookupPath(b.CSV, "spec", "install"); v != nil && v.Kind != value.Null {
		var in install
		if err := json.Unmarshal(value.AppendKubernetesJSON(nil, v), &in); err != nil {
			return nil, &Error{Err: fmt.Errorf("reading ClusterServiceVersion spec.install: %w", err)}
		}
		if in.Strategy == "deployment" {
			for _, d := range in.Spec.Deployments {
				pod := d.Spec.Template.Spec
				for _, c := range append(pod.Containers, pod.InitContainers...) {
					if !seen[c.Image] {
						seen[c.Image] = true
						related = append(related, declcfg.RelatedImage{Image: c.Image})
					}
				}
			}
		}
	}
	return related, nil
}

// ImageTemplateData is what an image reference template
// (--alpha-image-ref-template) can use.
type ImageTemplateData struct {
	Package string
	Name    string
	Version string
}

// TemplateData returns the template data for the bundle: its package, its
// CSV name, and the version of its first olm.package property.
func (b *Bundle) TemplateData() ImageTemplateData {
	d := ImageTemplateData{Package: b.Package, Name: b.Name}
	for _, p := range b.properties {
		if p.Type == declcfg.PropertyPackage {
			if v, err := declcfg.ParsePropertyValue[declcfg.PackageProperty](p.Value); err == nil {
				d.Version = v.Version
			}
			break
		}
	}
	return d
}
