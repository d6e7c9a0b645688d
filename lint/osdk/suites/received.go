package suites

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/fbcat/opm/internal/memfile"
)

// received is the file system of a bundle the helper was sent: the
// directories manifests/ and metadata/ and their entries, each as the
// sender's directory listed it (a directory, or a file of that size) and
// with the bytes it sent. It is what registryv1 reads the bundle from in
// the helper, and what the loader reads compressed sizes from.
type received struct {
	// files are the entries in the order of the request, whose bytes
	// follow its header in that order.
	files  []*receivedFile
	byName map[string]*receivedFile
}

// receivedFile is an entry of a received bundle.
type receivedFile struct {
	wireFile
	data []byte
}

// newReceived makes the file system of a request's entries, with room
// for their bytes.
func newReceived(files []wireFile) (*received, error) {
	r := &received{byName: make(map[string]*receivedFile, len(files))}
	for _, f := range files {
		if err := checkName(f.Name); err != nil {
			return nil, err
		}
		if r.byName[f.Name] != nil {
			return nil, fmt.Errorf("the request names %q twice", f.Name)
		}
		if f.Len < 0 || f.Dir && f.Len > 0 {
			return nil, fmt.Errorf("the request gives %q %d bytes", f.Name, f.Len)
		}
		e := &receivedFile{wireFile: f, data: make([]byte, f.Len)}
		r.files = append(r.files, e)
		r.byName[f.Name] = e
	}
	return r, nil
}

// isRoot reports whether name is one of the two directories.
func isRoot(name string) bool { return name == "manifests" || name == "metadata" }

// Open opens an entry, one of the two directories, or the root.
func (r *received) Open(name string) (fs.File, error) {
	if f := r.byName[name]; f != nil && !f.Dir {
		return memfile.NewFile(f.info(), f.data), nil
	}
	if entries, err := r.ReadDir(name); err == nil {
		return memfile.NewDir(memfile.NewInfo(path.Base(name), 0, true), name, entries), nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadFile is the bytes of a file.
func (r *received) ReadFile(name string) ([]byte, error) {
	f := r.byName[name]
	if f == nil || f.Dir {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return slices.Clone(f.data), nil
}

// ReadDir lists a directory by name: the root, manifests/ and metadata/
// with their entries, and an empty subdirectory for a directory entry
// (whose content is not sent: neither registryv1 nor the loader reads
// it).
func (r *received) ReadDir(name string) ([]fs.DirEntry, error) {
	switch f := r.byName[name]; {
	case name == ".":
		return []fs.DirEntry{memfile.NewInfo("manifests", 0, true), memfile.NewInfo("metadata", 0, true)}, nil
	case f != nil && f.Dir:
		return nil, nil
	case !isRoot(name):
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	for _, f := range r.files {
		if strings.HasPrefix(f.Name, name+"/") {
			out = append(out, f.info())
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// info is the entry's directory entry and file information.
func (f *receivedFile) info() memfile.Info {
	return memfile.NewInfo(path.Base(f.Name), f.Size, f.Dir)
}
