package image

import (
	"archive/tar"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// writeArchive writes an OCI archive holding one image or index (named
// l.Name when given): an OCI layout made in a private temporary
// directory, packed into a temporary file beside l.Path and renamed over
// it. On failure nothing is left behind and an existing file is kept.
func writeArchive(a artifact, l LocalRef, o Options) error {
	tmpDir, err := os.MkdirTemp(o.TempDir, "opm-oci-archive-")
	if err != nil {
		return fmt.Errorf("writing %s: a temporary directory: %w", l.Path, err)
	}
	defer os.RemoveAll(tmpDir)
	layoutDir := filepath.Join(tmpDir, "layout")
	if err := writeLayout(a, LocalRef{Transport: OCITransport, Path: layoutDir, Name: l.Name, Index: -1}); err != nil {
		return fmt.Errorf("writing %s: %w", l.Path, err)
	}
	if st, err := os.Stat(l.Path); err == nil && st.IsDir() {
		return fmt.Errorf("cannot write oci-archive:%s: it is a directory (for an OCI layout directory write oci:%s)", l.Path, l.Path)
	}
	f, err := os.CreateTemp(filepath.Dir(l.Path), "."+filepath.Base(l.Path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", l.Path, err)
	}
	tmp := f.Name()
	err = tarDir(f, layoutDir)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, l.Path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", l.Path, err)
	}
	return nil
}

// tarDir writes the files under dir to w as a tar, sorted, owned by
// root, with fixed modes and times, so the same layout gives the same
// archive.
func tarDir(w io.Writer, dir string) error {
	tw := tar.NewWriter(w)
	mtime := time.Unix(0, 0).UTC()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if d.IsDir() {
			return tw.WriteHeader(&tar.Header{Name: name + "/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: mtime, Format: tar.FormatPAX})
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: st.Size(), ModTime: mtime, Format: tar.FormatPAX}); err != nil {
			return err
		}
		return copyInto(tw, p, st.Size())
	})
	if err != nil {
		return err
	}
	return tw.Close()
}
