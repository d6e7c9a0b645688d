// Package memfile has the pieces of read-only file systems held in
// memory (declcfg.MemFS, the bundle opm-osdk is sent): the information of
// an entry, an open file and an open directory.
package memfile

import (
	"bytes"
	"io"
	"io/fs"
	"slices"
	"time"
)

// Info describes a file or directory: fs.FileInfo and fs.DirEntry.
type Info struct {
	name string
	size int64
	dir  bool
}

// NewInfo describes an entry called name (a base name) of size bytes, a
// directory if dir.
func NewInfo(name string, size int64, dir bool) Info { return Info{name: name, size: size, dir: dir} }

func (i Info) Name() string               { return i.name }
func (i Info) Size() int64                { return i.size }
func (i Info) ModTime() time.Time         { return time.Time{} }
func (i Info) IsDir() bool                { return i.dir }
func (i Info) Sys() any                   { return nil }
func (i Info) Type() fs.FileMode          { return i.Mode().Type() }
func (i Info) Info() (fs.FileInfo, error) { return i, nil }

// Mode is read-only: a directory's r-x, a file's r--.
func (i Info) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

// File is an open file whose bytes are in memory.
type File struct {
	info Info
	*bytes.Reader
	// Data is all of it, for readers that take it without a copy; it
	// must not be written to.
	Data []byte
}

// NewFile opens data as a file that info describes.
func NewFile(info Info, data []byte) *File {
	return &File{info: info, Reader: bytes.NewReader(data), Data: data}
}

func (f *File) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *File) Close() error               { return nil }

// Dir is an open directory.
type Dir struct {
	info    Info
	path    string
	entries []fs.DirEntry
	read    int // how many entries ReadDir has returned
}

// NewDir opens the directory at path (for errors) that info describes,
// listing entries (sorted by name).
func NewDir(info Info, path string, entries []fs.DirEntry) *Dir {
	return &Dir{info: info, path: path, entries: entries}
}

func (d *Dir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *Dir) Close() error               { return nil }

func (d *Dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: fs.ErrInvalid}
}

// ReadDir returns the next n entries (all that are left if n <= 0).
func (d *Dir) ReadDir(n int) ([]fs.DirEntry, error) {
	left := d.entries[d.read:]
	if n > 0 && len(left) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(left) {
		left = left[:n]
	}
	d.read += len(left)
	return slices.Clone(left), nil
}
