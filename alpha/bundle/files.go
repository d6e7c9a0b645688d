package bundle

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// writeFile writes data to path (mode 0644, parent directories made as
// needed) through a temporary file, so that a failure leaves the old file
// or none.
func writeFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}

// copyTree copies the files and directories under from into to, keeping
// file modes; existing files are replaced only with overwrite. Symbolic
// links are followed.
func copyTree(from, to string, overwrite bool) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return fmt.Errorf("copying manifests: %w", err)
	}
	if err := os.MkdirAll(to, 0o777); err != nil {
		return err
	}
	for _, e := range entries {
		src, dst := filepath.Join(from, e.Name()), filepath.Join(to, e.Name())
		st, err := os.Stat(src)
		if err != nil {
			return fmt.Errorf("copying manifests: %w", err)
		}
		if st.IsDir() {
			if err := copyTree(src, dst, overwrite); err != nil {
				return err
			}
			continue
		}
		if !st.Mode().IsRegular() {
			continue
		}
		if _, err := os.Lstat(dst); err == nil && !overwrite {
			continue
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := copyFile(src, dst, st.Mode().Perm()); err != nil {
			return fmt.Errorf("copying manifests: %w", err)
		}
	}
	return nil
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, mode)
}
