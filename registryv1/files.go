// Reading a bundle directory: every file of manifests/ and metadata/,
// each read once.

package registryv1

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/fbcyaml"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/position"
)

// Files is a registry+v1 bundle directory as read: every entry of its
// manifests/ and metadata/ directories, in name order, with the first
// object of each file and where it is written, and which of metadata's
// files hold the annotations, the dependencies and the properties (see
// the package comment for the rules). Parse builds a bundle of it as
// upstream opm does; lint, olmv1 and lint/osdk read a bundle directory
// through it, each then as the tool it speaks for reads one.
type Files struct {
	// FS holds the bundle's files.
	FS fs.FS
	// Manifests are the entries of manifests/, Metadata those of
	// metadata/, in name order.
	Manifests []*Manifest
	Metadata  []*MetadataFile
	// Annotations is the annotations file; nil when metadata/ has none.
	Annotations *Annotations
	// dependencies and properties are the first lists of each in
	// metadata/ (see propertyList.read).
	dependencies, properties propertyList
}

// propertyList is a list of {type, value} entries of a metadata file:
// the file, the entries and the line of each.
type propertyList struct {
	file  string
	list  []declcfg.Property
	lines []int
}

// Manifest is an entry of manifests/. Read skips a subdirectory and a
// hidden file as upstream opm does (Skipped): such an entry has its File
// and Entry only.
type Manifest struct {
	// File is its path from the bundle root: manifests/NAME.
	File string
	// Entry is its directory entry (a symbolic link's is the link's own).
	Entry fs.DirEntry
	// Sum is the SHA-256 of its content.
	Sum [sha256.Size]byte
	// APIVersion, Kind and Name (metadata.name) are its first document's,
	// and Line the line that object starts at; Kind is "" when that
	// document is not an object with a kind, which upstream skips.
	APIVersion, Kind, Name string
	Line                   int
	// Head is what Skim read of it when ReadSkimmed did not decode it;
	// nil when its tree was decoded.
	Head *Head
	// MayServeMany is false for a CustomResourceDefinition whose text
	// says "served" at most once: it cannot serve two versions.
	MayServeMany bool
	// Single is set when the file is one YAML document (not JSON, no
	// second document): Object is all it holds.
	Single bool

	fsys fs.FS
	mu   sync.Mutex
	tree *value.Value
}

// MetadataFile is an entry of metadata/: its path from the bundle root
// (metadata/NAME), its directory entry and, for a file, the SHA-256 of
// its content and its first document's object (nil when that is not an
// object).
type MetadataFile struct {
	File   string
	Entry  fs.DirEntry
	Sum    [sha256.Size]byte
	Object *value.Value
}

// Read reads the bundle directory rooted at fsys: every regular,
// non-hidden file directly in manifests/ (its first document decoded)
// and every file of metadata/. An error names the directory or file that
// cannot be read; what the files hold is for their readers to judge
// (Parse's errors).
func Read(fsys fs.FS) (*Files, error) { return read(fsys, false) }

// ReadSkimmed is Read for a reader that needs little of most manifests:
// the tree of a manifest that Skim reads a Head of (but a CSV's) is
// decoded when Object is first called.
func ReadSkimmed(fsys fs.FS) (*Files, error) { return read(fsys, true) }

func read(fsys fs.FS, skim bool) (*Files, error) {
	f := &Files{FS: fsys}
	if err := f.readManifests(skim); err != nil {
		return nil, err
	}
	if err := f.readMetadata(); err != nil {
		return nil, err
	}
	return f, nil
}

// readManifests reads the entries of manifests/.
func (f *Files) readManifests(skim bool) error {
	entries, err := readDir(f.FS, "manifests")
	if err != nil {
		return err
	}
	f.Manifests = make([]*Manifest, len(entries))
	for i, e := range entries {
		m := &Manifest{File: path.Join("manifests", e.Name()), Entry: e, fsys: f.FS}
		f.Manifests[i] = m
		if m.Skipped() {
			continue
		}
		data, err := readFile(f.FS, m.File)
		if err != nil {
			return err
		}
		m.read(data, skim)
	}
	return nil
}

// readDir lists the bundle's directory dir (manifests or metadata).
func readDir(fsys fs.FS, dir string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, &position.Error{File: dir, Err: fmt.Errorf("cannot read the %s directory: %w", dir, fserr.Cause(err))}
	}
	return entries, nil
}

// readFile reads a file of the bundle. Upstream skips what it cannot
// decode; what cannot be read at all is reported, not taken for a
// missing CSV or annotations file.
func readFile(fsys fs.FS, file string) ([]byte, error) {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, &position.Error{File: file, Err: fmt.Errorf("cannot read: %w", fserr.Cause(err))}
	}
	return data, nil
}

// read takes what the manifest's content tells.
func (m *Manifest) read(data []byte, skim bool) {
	m.Sum = sha256.Sum256(data)
	m.Single = !value.LooksLikeJSON(data, 1024) && oneDocument(data)
	var h Head
	ok := false
	if skim {
		h, ok = Skim(data, 30)
		ok = ok && h.Kind != "ClusterServiceVersion"
	}
	if ok {
		m.Head = &h
		m.APIVersion, m.Kind, m.Name, m.Line = h.APIVersion, h.Kind, h.Name, h.Line
	} else if v, ok := firstObject(data, 30); ok && v.StringAt("kind") != "" {
		m.tree = v
		m.APIVersion, m.Kind, m.Name, m.Line = v.StringAt("apiVersion"), v.StringAt("kind"), v.StringAt("metadata", "name"), int(v.Line)
	}
	m.MayServeMany = m.Kind == "CustomResourceDefinition" && bytes.Count(data, []byte("served")) > 1
}

// oneDocument reports whether a YAML stream is one document, as
// fbcyaml.SplitDocuments splits it; a stream without a separator line
// is, and need not be split.
func oneDocument(data []byte) bool {
	if len(data) > 0 && !bytes.HasPrefix(data, []byte("---")) && !bytes.Contains(data, []byte("\n---")) {
		return true
	}
	docs, err := fbcyaml.SplitDocuments(data, 1)
	return err == nil && len(docs) == 1
}

// Skipped reports whether upstream opm skips the entry unread: a
// subdirectory, or a name starting with ".".
func (m *Manifest) Skipped() bool {
	return m.Entry.IsDir() || strings.HasPrefix(m.Entry.Name(), ".")
}

// Object is the manifest's first document, nil when it is not an object
// with a kind. It is decoded on first use when ReadSkimmed skimmed the
// file, and read again after Release. The tree is shared: only read it.
func (m *Manifest) Object() *value.Value {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tree == nil && m.Kind != "" {
		if data, err := fs.ReadFile(m.fsys, m.File); err == nil {
			m.tree, _ = firstObject(data, 30)
		}
	}
	return m.tree
}

// Release drops the manifest's tree, which Object reads again if it is
// needed: a large bundle's trees need not stay alive while others are
// read.
func (m *Manifest) Release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tree = nil
}

// HasTree reports whether the manifest's tree is in memory: decoded and
// not released.
func (m *Manifest) HasTree() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tree != nil
}

// Objects are the manifests upstream opm reads as the bundle's objects:
// those not skipped whose first document is an object with a kind, in
// name order.
func (f *Files) Objects() []*Manifest {
	var out []*Manifest
	for _, m := range f.Manifests {
		if !m.Skipped() && m.Kind != "" {
			out = append(out, m)
		}
	}
	return out
}

// CSV is the bundle's ClusterServiceVersion: the first among Objects;
// nil when there is none.
func (f *Files) CSV() *Manifest {
	for _, m := range f.Manifests {
		if !m.Skipped() && m.Kind == "ClusterServiceVersion" {
			return m
		}
	}
	return nil
}

// MetadataFile is the entry of metadata/ at file (metadata/NAME); nil
// when there is none.
func (f *Files) MetadataFile(file string) *MetadataFile {
	for _, m := range f.Metadata {
		if m.File == file {
			return m
		}
	}
	return nil
}

// readMetadata reads every file of metadata/ and finds the annotations,
// dependencies and properties files: the first file (in name order)
// holding each, whatever its name.
func (f *Files) readMetadata() error {
	entries, err := readDir(f.FS, "metadata")
	if err != nil {
		return err
	}
	f.Metadata = make([]*MetadataFile, len(entries))
	for i, e := range entries {
		m := &MetadataFile{File: path.Join("metadata", e.Name()), Entry: e}
		f.Metadata[i] = m
		if e.IsDir() {
			continue
		}
		data, err := readFile(f.FS, m.File)
		if err != nil {
			return err
		}
		m.Sum = sha256.Sum256(data)
		obj, ok := firstObject(data, 30)
		if !ok {
			continue
		}
		m.Object = obj
		if f.Annotations == nil {
			f.Annotations = annotationsOf(m.File, obj)
		}
		isJSON := value.LooksLikeJSON(data, 30)
		if f.dependencies.list == nil {
			f.dependencies.read(data, obj, m.File, "dependencies", isJSON)
		}
		if f.properties.list == nil {
			f.properties.read(data, obj, m.File, "properties", isJSON)
		}
	}
	return nil
}
