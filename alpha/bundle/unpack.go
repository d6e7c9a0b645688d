package bundle

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/registryv1"
)

// UnpackOptions says how to unpack a bundle image.
type UnpackOptions struct {
	Image image.Options
	// SkipValidation keeps a registry+v1 bundle that does not parse.
	SkipValidation bool
}

// Unpack writes the manifests/ and metadata/ directories of the bundle
// image ref into out (made if missing; files already there are replaced),
// extracted as render extracts images. Unless opts.SkipValidation is set,
// a registry+v1 bundle must read as render reads it, and nothing is
// written if it does not.
func Unpack(ctx context.Context, ref, out string, opts UnpackOptions) error {
	if st, err := os.Stat(out); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
	} else if err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("output %s is not a directory", out)
	}
	img, err := image.Pull(ctx, ref, opts.Image)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(out, ".opm-unpack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := img.Extract(ctx, tmp, "manifests", "metadata"); err != nil {
		return err
	}
	var found []string
	for _, d := range []string{"manifests", "metadata"} {
		if st, err := os.Stat(filepath.Join(tmp, d)); err == nil && st.IsDir() {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		return fmt.Errorf("image %q has neither manifests/ nor metadata/: it is not a bundle image", ref)
	}
	if mt := img.Labels[labels.MediaType]; !opts.SkipValidation && (mt == "" || mt == RegistryV1) {
		if _, err := registryv1.Parse(os.DirFS(tmp)); err != nil {
			return option.Errorf(option.Lifts, "%w (unpack it anyway with %s)", &InvalidBundleError{Ref: ref, Err: err}, option.Name("alpha/bundle.UnpackOptions.SkipValidation"))
		}
	}
	if err := makeReadable(tmp); err != nil {
		return err
	}
	for _, d := range found {
		dst := filepath.Join(out, d)
		if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
			if err := os.Rename(filepath.Join(tmp, d), dst); err != nil {
				return err
			}
			continue
		}
		if err := copyTree(filepath.Join(tmp, d), dst, true); err != nil {
			return err
		}
	}
	return nil
}

// InvalidBundleError is a bundle image that does not read as a
// registry+v1 bundle.
type InvalidBundleError struct {
	Ref string
	Err error
}

func (e *InvalidBundleError) Error() string {
	return fmt.Sprintf("bundle image %q is not a valid registry+v1 bundle: %v", e.Ref, e.Err)
}

func (e *InvalidBundleError) Unwrap() error { return e.Err }

// makeReadable gives extracted files (written 0600, directories 0700)
// the usual permissions.
func makeReadable(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		switch {
		case d.IsDir():
			return os.Chmod(p, 0o755)
		case d.Type().IsRegular():
			return os.Chmod(p, 0o644)
		}
		return nil
	})
}
