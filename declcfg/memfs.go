package declcfg

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/fbcat/opm/internal/memfile"
)

// MemFS is a read-only file system of files held in memory, for catalogs
// that were never on disk: a stream, a tree read from git, objects being
// checked. Its directories are those its file names imply. The loader
// reads it as it reads a directory holding the same files.
type MemFS struct {
	files map[string][]byte
	names []string // the file names, sorted
}

// NewMemFS makes a file system of files, keyed by slash-separated path
// (relative, without empty, "." or ".." elements, as fs.ValidPath says).
// It keeps the data, which must not change while the file system is used.
func NewMemFS(files map[string][]byte) (*MemFS, error) {
	m := &MemFS{files: make(map[string][]byte, len(files)), names: make([]string, 0, len(files))}
	for name, data := range files {
		if !fs.ValidPath(name) || name == "." {
			return nil, fmt.Errorf("file name %q is not a path a file system can hold: it must be relative, slash-separated, without empty, \".\" or \"..\" elements", name)
		}
		m.files[name] = data
		m.names = append(m.names, name)
	}
	slices.Sort(m.names)
	for _, name := range m.names {
		if m.isDir(name) {
			return nil, fmt.Errorf("%q is both a file and a directory", name)
		}
	}
	return m, nil
}

// LoadBytes loads data as LoadFS loads a directory holding it as its one
// file, name (a path as NewMemFS takes): same objects, positions, problems
// and warnings, with the same options.
func LoadBytes(ctx context.Context, name string, data []byte, opts ...LoadOption) (*DeclarativeConfig, error) {
	fsys, err := NewMemFS(map[string][]byte{name: data})
	if err != nil {
		return nil, err
	}
	return LoadFS(ctx, fsys, opts...)
}

// Open opens the file or directory name.
func (m *MemFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := m.files[name]; ok {
		return memfile.NewFile(memfile.NewInfo(path.Base(name), int64(len(data)), false), data), nil
	}
	if name != "." && !m.isDir(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return memfile.NewDir(memfile.NewInfo(path.Base(name), 0, true), name, m.entries(name)), nil
}

// below returns the sorted names of the files under the directory dir.
func (m *MemFS) below(dir string) []string {
	if dir == "." {
		return m.names
	}
	prefix := dir + "/"
	lo, _ := slices.BinarySearch(m.names, prefix)
	hi := lo
	for hi < len(m.names) && strings.HasPrefix(m.names[hi], prefix) {
		hi++
	}
	return m.names[lo:hi]
}

func (m *MemFS) isDir(name string) bool {
	return len(m.below(name)) > 0
}

// entries lists the directory dir, sorted by name.
func (m *MemFS) entries(dir string) []fs.DirEntry {
	prefix := dir + "/"
	if dir == "." {
		prefix = ""
	}
	var out []fs.DirEntry
	last := ""
	for _, name := range m.below(dir) {
		child, _, isDir := strings.Cut(name[len(prefix):], "/")
		if isDir && child == last {
			// The files of one subdirectory are next to each other.
			continue
		}
		last = child
		size := int64(0)
		if !isDir {
			size = int64(len(m.files[name]))
		}
		out = append(out, memfile.NewInfo(child, size, isDir))
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}
