package image

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// Extraction limits: a file larger than DefaultMaxFileSize, or content
// larger than DefaultMaxTotalSize in all, is refused.
const (
	DefaultMaxFileSize  = 1 << 30
	DefaultMaxTotalSize = 4 << 30
)

// The OCI whiteout markers.
const (
	whiteoutPrefix = ".wh."
	opaqueWhiteout = ".wh..wh..opq"
)

// Extract writes the image's files under the given directories (e.g.
// "configs", or "manifests" and "metadata"; all files if none are given)
// into dst, an empty directory. Layers are applied in order, whiteouts and
// opaque directories included, and each layer's digest is verified.
//
// Every write goes through an os.Root, so nothing can land outside dst,
// and entries that try are refused with an error naming them: absolute or
// ".." paths, paths through symbolic links, links pointing out of what is
// extracted, device files and pipes, files over the size limits. Files
// are written 0600 and directories 0700. On error, dst may hold part of
// the image; the caller removes it.
func (i *Image) Extract(ctx context.Context, dst string, dirs ...string) error {
	root, err := os.OpenRoot(dst)
	if err != nil {
		return err
	}
	defer root.Close()
	x := &extractor{img: i, root: root, dirs: dirs, maxFile: i.opts.MaxFileSize, maxTotal: i.opts.MaxTotalSize}
	if x.maxFile <= 0 {
		x.maxFile = DefaultMaxFileSize
	}
	if x.maxTotal <= 0 {
		x.maxTotal = DefaultMaxTotalSize
	}

	stop := i.showProgress()
	defer stop()
	layers, err := i.img.Layers()
	if err != nil {
		return fmt.Errorf("image %q: reading layers: %w", i.Ref, err)
	}
	for n, l := range layers {
		if i.opts.CacheDir != "" {
			if l, err = (layerCache{i.opts.CacheDir}).cached(l); err != nil {
				return fmt.Errorf("image %q: layer %d: %w", i.Ref, n+1, err)
			}
		}
		if err := x.layer(ctx, l); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var refused *refusedError
			if errors.As(err, &refused) {
				return err
			}
			return fmt.Errorf("image %q: layer %d: %w", i.Ref, n+1, err)
		}
	}
	return nil
}

// extractor applies layers to a directory.
type extractor struct {
	img               *Image
	root              *os.Root
	dirs              []string
	maxFile, maxTotal int64
	total             int64
	// created holds the paths the current layer made, and their parent
	// directories: an opaque whiteout keeps them.
	created map[string]bool
}

// refusedError is a layer entry that is not extracted.
type refusedError struct {
	ref, entry, why string
}

func (e *refusedError) Error() string {
	return fmt.Sprintf("image %q: layer entry %q refused: %s", e.ref, e.entry, e.why)
}

func (x *extractor) refuse(entry, format string, args ...any) error {
	return &refusedError{ref: x.img.Ref, entry: entry, why: fmt.Sprintf(format, args...)}
}

// layer applies one layer, then reads it to the end so that its digest
// is checked.
func (x *extractor) layer(ctx context.Context, l v1.Layer) error {
	rc, err := l.Uncompressed()
	if err != nil {
		return err
	}
	defer rc.Close()
	x.created = map[string]bool{}
	tr := tar.NewReader(rc)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if err := x.entry(hdr, tr); err != nil {
			return err
		}
	}
	_, err = io.Copy(io.Discard, rc)
	return err
}

// entry applies one tar entry.
func (x *extractor) entry(hdr *tar.Header, r io.Reader) error {
	name, ok := cleanEntryName(hdr.Name)
	if !ok {
		return x.refuse(hdr.Name, "its path leaves the image's root")
	}
	if name == "" {
		return nil
	}
	dir, base := path.Dir(name), path.Base(name)
	switch {
	case base == opaqueWhiteout:
		if !x.wanted(dir) && !x.wantedBelow(dir) {
			return nil
		}
		if err := x.checkParents(name); err != nil {
			return err
		}
		return x.clearExcept(dir)
	case strings.HasPrefix(base, whiteoutPrefix):
		target := path.Join(dir, strings.TrimPrefix(base, whiteoutPrefix))
		if !x.wanted(target) && !x.wantedBelow(target) {
			return nil
		}
		if err := x.checkParents(target); err != nil {
			return err
		}
		return x.root.RemoveAll(target)
	}
	if hdr.Typeflag == tar.TypeDir && x.wantedBelow(name) {
		// a parent of an extracted directory, e.g. "/" for "configs"
		return nil
	}
	if !x.wanted(name) {
		return nil
	}
	if err := x.checkParents(name); err != nil {
		return err
	}
	if err := x.create(hdr, name, r); err != nil {
		var refused *refusedError
		if errors.As(err, &refused) {
			return err
		}
		return x.refuse(hdr.Name, "%v", err)
	}
	for p := name; p != "."; p = path.Dir(p) {
		x.created[p] = true
	}
	return nil
}

// create makes the file, directory or link an entry describes, replacing
// what lower layers had there.
func (x *extractor) create(hdr *tar.Header, name string, r io.Reader) error {
	switch hdr.Typeflag {
	case tar.TypeDir:
		if st, err := x.root.Lstat(name); err == nil && !st.IsDir() {
			if err := x.root.Remove(name); err != nil {
				return err
			}
		}
		return x.root.MkdirAll(name, 0o700)
	case tar.TypeReg:
		if hdr.Size > x.maxFile {
			return x.refuse(hdr.Name, "it is %d bytes, more than the %d-byte limit for one file", hdr.Size, x.maxFile)
		}
		if x.total += hdr.Size; x.total > x.maxTotal {
			return x.refuse(hdr.Name, "the extracted content exceeds the %d-byte limit", x.maxTotal)
		}
		if err := x.replace(name); err != nil {
			return err
		}
		f, err := x.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		if _, err := io.CopyN(f, r, hdr.Size); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	case tar.TypeSymlink:
		target, ok := linkTarget(name, hdr.Linkname)
		if !ok || !x.wanted(target) {
			return x.refuse(hdr.Name, "it is a symbolic link to %q, outside the extracted content", hdr.Linkname)
		}
		if err := x.replace(name); err != nil {
			return err
		}
		// The link is rewritten relative and clean: as no extracted path
		// goes through a link, its ".." steps climb real directories.
		return x.root.Symlink(relativeTo(path.Dir(name), target), name)
	case tar.TypeLink:
		target, ok := cleanEntryName(hdr.Linkname)
		if !ok || target == "" || !x.wanted(target) {
			return x.refuse(hdr.Name, "it is a hard link to %q, outside the extracted content", hdr.Linkname)
		}
		if err := x.checkParents(target); err != nil {
			return err
		}
		if st, err := x.root.Lstat(target); err != nil || !st.Mode().IsRegular() {
			return x.refuse(hdr.Name, "it is a hard link to %q, which is not a file the image has", hdr.Linkname)
		}
		if err := x.replace(name); err != nil {
			return err
		}
		return x.root.Link(target, name)
	case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
		return x.refuse(hdr.Name, "device files and pipes are not extracted")
	}
	return nil // extended headers and other metadata
}

// replace makes way for a new entry: it removes whatever lower layers left
// at name and creates its parent directories.
func (x *extractor) replace(name string) error {
	if err := x.root.RemoveAll(name); err != nil {
		return err
	}
	if dir := path.Dir(name); dir != "." {
		return x.root.MkdirAll(dir, 0o700)
	}
	return nil
}

// checkParents refuses a path that goes through a symbolic link: links
// are only ever the last element, so every relative link resolves through
// real directories and stays inside the root.
func (x *extractor) checkParents(name string) error {
	parts := strings.Split(name, "/")
	for n := 1; n < len(parts); n++ {
		p := strings.Join(parts[:n], "/")
		st, err := x.root.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return x.refuse(name, "%v", err)
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return x.refuse(name, "its path goes through the symbolic link %q", p)
		}
	}
	return nil
}

// clearExcept removes from dir what lower layers put there: everything
// the current layer did not create.
func (x *extractor) clearExcept(dir string) error {
	entries, err := fs.ReadDir(x.root.FS(), dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		switch {
		case !x.created[p]:
			if err := x.root.RemoveAll(p); err != nil {
				return err
			}
		case e.IsDir():
			if err := x.clearExcept(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// wanted reports whether name is one of the extracted directories or
// inside one; with none given, everything is.
func (x *extractor) wanted(name string) bool {
	if len(x.dirs) == 0 {
		return true
	}
	for _, d := range x.dirs {
		if name == d || strings.HasPrefix(name, d+"/") {
			return true
		}
	}
	return false
}

// wantedBelow reports whether an extracted directory lies strictly
// inside name.
func (x *extractor) wantedBelow(name string) bool {
	if name == "." {
		return len(x.dirs) > 0
	}
	for _, d := range x.dirs {
		if strings.HasPrefix(d, name+"/") {
			return true
		}
	}
	return false
}

// cleanEntryName normalises a tar entry name ("./a//b" is "a/b", the root
// is ""); it reports false for absolute names and names that climb out of
// the root.
func cleanEntryName(n string) (string, bool) {
	if strings.HasPrefix(n, "/") {
		return "", false
	}
	c := path.Clean(n)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	if c == "." {
		return "", true
	}
	return c, true
}

// linkTarget resolves a symbolic link's target within the image's root:
// absolute targets are relative to the root, others to the link's
// directory. It reports false for targets outside the root or the root
// itself.
func linkTarget(name, target string) (string, bool) {
	var p string
	if strings.HasPrefix(target, "/") {
		p = path.Clean(strings.TrimPrefix(target, "/"))
	} else {
		p = path.Join(path.Dir(name), target)
	}
	if p == ".." || strings.HasPrefix(p, "../") || p == "." {
		return "", false
	}
	return p, true
}

// relativeTo returns target relative to dir; both are clean slash paths
// inside the root ("." for the root itself).
func relativeTo(dir, target string) string {
	var d []string
	if dir != "." {
		d = strings.Split(dir, "/")
	}
	t := strings.Split(target, "/")
	common := 0
	for common < len(d) && common < len(t) && d[common] == t[common] {
		common++
	}
	parts := make([]string, 0, len(d)-common+len(t)-common)
	for range d[common:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[common:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}
