package lint

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/lint/crdcompat"
	"github.com/fbcat/opm/registryv1"
)

// bundle is one bundle to lint: a registry+v1 bundle directory, or an
// olm.bundle of a catalog.
type bundle struct {
	name, pkg string
	// dir is the bundle directory (as the user named it, for positions)
	// or the bundle image's reference; "" for a catalog's bundle. files
	// are its files, as registryv1 read them; nil for a catalog's bundle.
	dir   string
	files *registryv1.Files
	// decl is the catalog's olm.bundle; nil for a directory.
	decl *declcfg.Bundle
	// annotations are the annotations file's (see registryv1); nil when
	// unknown (a catalog's bundle).
	annotations *registryv1.Annotations
	// objects are the manifests (a directory's, or a catalog bundle's
	// olm.bundle.object properties), csv the ClusterServiceVersion among
	// them or, for a catalog bundle without objects, made from its
	// olm.csv.metadata property.
	objects []*object
	csv     *object
	// mu guards the lazily read parts: a bundle directory can be reached
	// from packages checked at once.
	mu      sync.Mutex
	loaded  bool
	loadErr error
	// metaRead is set once the CSV of olm.csv.metadata was looked for.
	metaRead bool
	// crdIndex holds the CRDs by name once read (see crds).
	crdIndex map[string]*crdcompat.CRD
}

// object is one Kubernetes object of a bundle, with where it is written.
type object struct {
	apiVersion, kind, name string
	file                   string
	line                   int
	// inCatalog is set for objects of catalog properties, whose nodes
	// carry no lines of the catalog file: positions are the property's.
	inCatalog bool
	// partial is set for a CSV made from olm.csv.metadata, which has no
	// version, install strategy or icon.
	partial bool
	// sum identifies the object's content (its JSON or its file), so that
	// objects known to be the same need not be compared.
	sum [sha256.Size]byte
	// multiServed is false when the object cannot have two served
	// versions (the word "served" is in it at most once).
	multiServed bool
	// head is what skimming a manifest read of it (nil when its tree was
	// decoded instead).
	head *registryv1.Head
	// manifest is the bundle directory's file the object is the first
	// document of, which holds its tree (see registryv1.Manifest.Object);
	// nil for a catalog's object.
	manifest *registryv1.Manifest
	// v is a catalog object's tree, built from raw when first asked for.
	v   *value.Value
	raw []byte
	mu  sync.Mutex
}

// root is the object's tree, built on first use; nil when the object is
// not a JSON object.
func (o *object) root() *value.Value {
	if o.manifest != nil {
		return o.manifest.Object()
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.v == nil && o.raw != nil {
		if v, err := value.ParseJSON(o.raw); err == nil && v.Kind == value.Object {
			o.v = &v
		}
		o.raw = nil
	}
	return o.v
}

// release drops the tree of a manifest, which root reads again if it is
// needed: a large bundle's trees need not stay alive while others are
// linted.
func (o *object) release() {
	if o.manifest != nil {
		o.manifest.Release()
	}
}

// at is the line of a node of the object: the node's own in a manifest,
// the property's in a catalog.
func (o *object) at(n *value.Value) int {
	if o.inCatalog || n == nil || n.Line == 0 {
		return o.line
	}
	return int(n.Line)
}

// get follows object members from the object's root.
func (o *object) get(keys ...string) *value.Value { return o.root().At(keys...) }

// newObject makes an object of a decoded manifest.
func newObject(v *value.Value, file string, line int) *object {
	return &object{
		apiVersion:  v.StringAt("apiVersion"),
		kind:        v.StringAt("kind"),
		name:        v.StringAt("metadata", "name"),
		file:        file,
		line:        line,
		v:           v,
		multiServed: true,
	}
}

// readBundleDir reads a registry+v1 bundle directory as OLM reads it (see
// registryv1.Read): the first document of each regular, non-hidden file
// of manifests/ that is a Kubernetes object, and the annotations file.
// Positions name files as dir/manifests/NAME, with dir as given.
func readBundleDir(dir string) (*bundle, error) { return readBundleFS(os.DirFS(dir), dir) }

// readBundleFS reads the bundle whose files fsys holds (an extracted
// bundle image's, or a directory's); name (the image or directory) starts
// the positions. A CSV's tree is decoded now (every check reads it);
// another manifest is skimmed (registryv1.Skim: its apiVersion, kind,
// name and a CRD's versions), its tree decoded when a check asks for it
// (see object.root).
func readBundleFS(fsys fs.FS, dir string) (*bundle, error) {
	f, err := registryv1.ReadSkimmed(fsys)
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", dir, err)
	}
	b := &bundle{dir: dir, files: f, loaded: true}
	csv := f.CSV()
	for _, m := range f.Objects() {
		o := &object{apiVersion: m.APIVersion, kind: m.Kind, name: m.Name, file: filepath.Join(dir, filepath.FromSlash(m.File)),
			line: m.Line, sum: m.Sum, multiServed: m.MayServeMany, head: m.Head, manifest: m}
		b.objects = append(b.objects, o)
		if m == csv {
			b.csv = o
		}
	}
	if b.csv == nil {
		return nil, fmt.Errorf("bundle %s: manifests/ holds no ClusterServiceVersion", dir)
	}
	b.name = b.csv.name
	if b.annotations = f.Annotations; b.annotations == nil {
		return nil, fmt.Errorf("bundle %s: metadata/ has no annotations file naming the package (%s)", dir, labels.Package)
	}
	b.pkg, _, _ = b.annotations.Get(labels.Package)
	return b, nil
}

// annotationsFile is the path of the bundle directory's annotations file,
// for positions.
func (b *bundle) annotationsFile() string {
	return filepath.Join(b.dir, filepath.FromSlash(b.annotations.File))
}

// crdVersions lists the versions of a CRD object as the cluster has
// them, and which are served (see crdVersionsOf), from its skimmed head
// when it has one.
func (o *object) crdVersions() (names []string, served map[string]bool) {
	h := o.head
	switch {
	case h == nil:
		return crdVersionsOf(o.root())
	case len(h.Versions) > 0:
		return h.Versions, h.Served
	case h.Version != "":
		return []string{h.Version}, map[string]bool{h.Version: true}
	}
	return nil, map[string]bool{}
}

// shapeOf is the shape a CRD's skimmed head tells (see
// crdcompat.Shape).
func shapeOf(h *registryv1.Head) crdcompat.Shape {
	versions := h.Versions
	if len(versions) == 0 && h.Version != "" {
		versions = []string{h.Version} // a v1beta1 CRD's one version
	}
	return crdcompat.Shape{Scope: h.Scope, Stored: h.Stored, Versions: versions, ScopeLine: h.ScopeLine, VersionsLine: h.VersionsLine}
}

// catalogBundle makes the bundle of a catalog's olm.bundle; its objects
// are decoded when first needed (see load).
func catalogBundle(b *declcfg.Bundle) *bundle {
	return &bundle{name: b.Name, pkg: b.Package, decl: b}
}

// load decodes a catalog bundle's olm.bundle.object properties (or, when
// it has none, its olm.csv.metadata) once. A bundle whose objects cannot
// be decoded has none; the error says why.
func (b *bundle) load() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.loaded {
		return b.loadErr
	}
	b.loaded = true
	for i := range b.decl.Properties {
		p := &b.decl.Properties[i]
		if p.Type != declcfg.PropertyBundleObject {
			continue
		}
		line := p.Line
		if line == 0 {
			line = b.decl.Pos.Line
		}
		o, err := catalogObject(p.Value, b.decl.Pos.File, line)
		if err != nil {
			b.loadErr = fmt.Errorf("properties[%d] (%s): %v", i, declcfg.PropertyBundleObject, err)
			continue
		}
		b.objects = append(b.objects, o)
		if o.kind == "ClusterServiceVersion" && b.csv == nil {
			b.csv = o
		}
	}
	return b.loadErr
}

// releaseTrees drops the trees of a bundle directory's manifests but its
// CSV's (which catalog checks read for every bundle), and the CRDs read
// from them (see object.release).
func (b *bundle) releaseTrees() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.crdIndex = nil
	for _, o := range b.objects {
		if o != b.csv {
			o.release()
		}
	}
}

// theCSV is the bundle's CSV: its manifest or, for a catalog bundle that
// carries none, the one its olm.csv.metadata makes (read when first
// needed: most rules do not need it). Nil when there is neither.
func (b *bundle) theCSV() *object {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.csv == nil && b.decl != nil && !b.metaRead {
		b.metaRead = true
		b.csv = csvFromMetadata(b.decl)
	}
	return b.csv
}

// hasObjects reports whether a catalog bundle carries manifests
// (olm.bundle.object properties).
func hasObjects(b *declcfg.Bundle) bool {
	for i := range b.Properties {
		if b.Properties[i].Type == declcfg.PropertyBundleObject {
			return true
		}
	}
	return false
}

// catalogObject reads the object of an olm.bundle.object property: its
// apiVersion, kind and name now, its tree when a rule needs it.
func catalogObject(prop []byte, file string, line int) (*object, error) {
	data, err := declcfg.BundleObjectData(prop)
	if err != nil {
		return nil, err
	}
	o := &object{file: file, line: line, inCatalog: true, sum: sha256.Sum256(data), multiServed: bytes.Count(data, []byte(`"served"`)) > 1}
	var ok bool
	if o.apiVersion, o.kind, o.name, ok = skimObject(data); ok {
		o.raw = data
		return o, nil
	}
	v, err := value.ParseJSON(data)
	if err == nil && v.Kind != value.Object {
		err = fmt.Errorf("the object is %s, not a Kubernetes object", value.Describe(&v))
	}
	if err != nil {
		return nil, err
	}
	o2 := newObject(&v, file, line)
	o2.inCatalog, o2.sum, o2.multiServed = true, o.sum, o.multiServed
	return o2, nil
}

// csvFromMetadata makes a CSV of the fields an olm.csv.metadata property
// holds (nil when the bundle has none), at the property's line.
func csvFromMetadata(b *declcfg.Bundle) *object {
	for i := range b.Properties {
		p := &b.Properties[i]
		if p.Type != declcfg.PropertyCSVMetadata {
			continue
		}
		meta, err := value.ParseJSON(p.Value)
		if err != nil || meta.Kind != value.Object {
			return nil
		}
		spec := value.Value{Kind: value.Object}
		var md []value.Field
		for _, f := range meta.Fields {
			switch f.Key {
			case "annotations", "labels":
				md = append(md, f)
			case "crdDescriptions":
				spec.Fields = append(spec.Fields, value.Field{Key: "customresourcedefinitions", Value: f.Value})
			default:
				spec.Fields = append(spec.Fields, f)
			}
		}
		md = append(md, value.Field{Key: "name", Value: value.Value{Kind: value.String, Str: b.Name}})
		csv := value.Value{Kind: value.Object, Fields: value.NormalizeFields([]value.Field{
			{Key: "kind", Value: value.Value{Kind: value.String, Str: "ClusterServiceVersion"}},
			{Key: "metadata", Value: value.Value{Kind: value.Object, Fields: value.NormalizeFields(md)}},
			{Key: "spec", Value: value.Value{Kind: value.Object, Fields: value.NormalizeFields(spec.Fields)}},
		})}
		line := p.Line
		if line == 0 {
			line = b.Pos.Line
		}
		o := newObject(&csv, b.Pos.File, line)
		o.inCatalog, o.partial = true, true
		return o
	}
	return nil
}

// catalogPos is where findings about a catalog's bundle point: its name:
// line (its first line when that is not known).
func (b *bundle) catalogPos() (string, int) {
	if b.decl.NameLine > 0 {
		return b.decl.Pos.File, b.decl.NameLine
	}
	return b.decl.Pos.File, b.decl.Pos.Line
}

// csvAnnotation returns an annotation of the bundle's CSV, as text the
// way annotations.get reads one, and the line to point at.
func (b *bundle) csvAnnotation(key string) (s string, line int, ok bool) {
	csv := b.theCSV()
	if csv == nil {
		return "", 0, false
	}
	v := csv.get("metadata", "annotations", key)
	if v == nil {
		return "", 0, false
	}
	s, _ = value.Text(v)
	return s, csv.at(v), true
}
