package image

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Dir is an empty directory made in a layer.
type Dir struct {
	Path string      // in the image, e.g. "/tmp/cache"
	Mode fs.FileMode // permission bits (and sticky)
}

// LayerSpec is the content of a reproducible layer: the same spec over
// the same files gives the same bytes, on any machine.
type LayerSpec struct {
	// Copies are host directories placed in the layer (symbolic links
	// followed).
	Copies []Copy
	// Dirs are empty directories added to the layer.
	Dirs []Dir
	// Time is every entry's modification time.
	Time time.Time
	// KeepModes keeps the files' permissions; otherwise directories are
	// 0755 and files 0644, or 0755 when any execute bit is set, so that
	// the umask of the machine does not change the layer.
	KeepModes bool
}

// Layer is a gzip-compressed layer tar, made once and offered under
// either layer media type (OCI or Docker, to match a base image).
type Layer struct {
	compressed []byte
}

// layerEntry is one tar entry to write: a directory, or a regular file
// read from src.
type layerEntry struct {
	name string // without a leading "/"; directories end in "/"
	mode fs.FileMode
	src  string
	size int64
}

// NewLayer writes the layer a spec describes: entries sorted by name,
// owned by uid and gid 0 without user or group names, at spec.Time,
// compressed with gzip without a name or time in its header.
func NewLayer(spec LayerSpec) (*Layer, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if err := writeLayerTar(zw, spec); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return &Layer{compressed: buf.Bytes()}, nil
}

// As is the layer with a media type.
func (l *Layer) As(mediaType types.MediaType) (v1.Layer, error) {
	data := l.compressed
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}, tarball.WithMediaType(mediaType))
}

// Size is the compressed size in bytes.
func (l *Layer) Size() int64 { return int64(len(l.compressed)) }

// writeLayerTar writes the uncompressed tar of a spec to w.
func writeLayerTar(w io.Writer, spec LayerSpec) error {
	var entries []layerEntry
	for _, d := range spec.Dirs {
		if name := path.Clean("/" + d.Path)[1:]; name != "" {
			entries = append(entries, layerEntry{name: name + "/", mode: d.Mode | fs.ModeDir})
		}
	}
	for _, c := range spec.Copies {
		found, err := dirEntries(c.Src, path.Clean("/" + c.Dst)[1:], spec.KeepModes)
		if err != nil {
			return fmt.Errorf("building the layer of %s: %w", c.Src, err)
		}
		entries = append(entries, found...)
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	tw := tar.NewWriter(w)
	mtime := spec.Time.UTC().Truncate(time.Second)
	for i, e := range entries {
		if i > 0 && entries[i-1].name == e.name {
			return fmt.Errorf("building a layer: %s is added twice", e.name)
		}
		h := &tar.Header{Name: e.name, Mode: int64(e.mode.Perm()), ModTime: mtime, Format: tar.FormatPAX}
		if e.mode&fs.ModeSticky != 0 {
			h.Mode |= 0o1000
		}
		if e.mode.IsDir() {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if e.src != "" {
			if err := copyInto(tw, e.src, e.size); err != nil {
				return err
			}
		}
	}
	return tw.Close()
}

// dirEntries lists the directory src placed at root (no leading "/";
// "" for the image's root), root itself included.
func dirEntries(src, root string, keepModes bool) ([]layerEntry, error) {
	mode := func(m fs.FileMode) fs.FileMode {
		switch {
		case keepModes:
			return m
		case m.IsDir():
			return fs.ModeDir | 0o755
		case m&0o111 != 0:
			return 0o755
		}
		return 0o644
	}
	var out []layerEntry
	if root != "" {
		out = append(out, layerEntry{name: root + "/", mode: fs.ModeDir | 0o755})
	}
	var walk func(dir, name string, depth int) error
	walk = func(dir, name string, depth int) error {
		if depth > 64 {
			return fmt.Errorf("%s: directories nested too deep (a symbolic link loop?)", dir)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p, n := filepath.Join(dir, e.Name()), path.Join(name, e.Name())
			st, err := os.Stat(p)
			if err != nil {
				return err
			}
			switch {
			case st.IsDir():
				out = append(out, layerEntry{name: n + "/", mode: mode(st.Mode())})
				if err := walk(p, n, depth+1); err != nil {
					return err
				}
			case st.Mode().IsRegular():
				out = append(out, layerEntry{name: n, mode: mode(st.Mode()), src: p, size: st.Size()})
			}
		}
		return nil
	}
	return out, walk(src, root, 0)
}
