package image

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/match"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"

	"github.com/fbcat/opm/internal/fserr"
)

// Write stores img at target: an OCI image layout (oci:DIR[:NAME], made
// if missing; an image of the same NAME is replaced) or a registry
// (pushed with the credentials and TLS rules Pull uses). It returns the
// image's digest.
func Write(ctx context.Context, img v1.Image, target string, o Options) (v1.Hash, error) {
	digest, err := img.Digest()
	if err != nil {
		return v1.Hash{}, err
	}
	l, local, err := ParseLocalRef(target)
	if err != nil {
		return v1.Hash{}, err
	}
	if local {
		if l.Transport != OCITransport {
			return v1.Hash{}, fmt.Errorf("cannot write image %q: %s: is read-only here; write to oci:DIR[:NAME] (then skopeo copy it on) or to a registry", target, l.Transport)
		}
		return digest, writeLayout(img, l)
	}
	r, insecure, err := pushTarget(target, o)
	if err != nil {
		return v1.Hash{}, err
	}
	o = o.withDefaults()
	err = remote.Write(r, img, remoteOptions(ctx, o, insecure, nil)...)
	if err != nil {
		registry := r.Context().RegistryStr()
		var terr *transport.Error
		if errors.As(err, &terr) && terr.StatusCode == http.StatusUnauthorized {
			return v1.Hash{}, fmt.Errorf("failed to push image %q: %s requires authentication: log in (podman login or docker login %s) or point REGISTRY_AUTH_FILE at an auth file", target, registry, registry)
		}
		if errors.As(err, &terr) && terr.StatusCode == http.StatusForbidden {
			return v1.Hash{}, fmt.Errorf("failed to push image %q: access denied by %s: check that your credentials may write this repository", target, registry)
		}
		return v1.Hash{}, fmt.Errorf("failed to push image %q: %w", target, err)
	}
	return digest, nil
}

// writeLayout adds img to an OCI image layout, making the layout if the
// directory is missing or empty.
func writeLayout(img v1.Image, l LocalRef) error {
	p, err := layout.FromPath(l.Path)
	if err != nil {
		entries, rerr := os.ReadDir(l.Path)
		if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return fmt.Errorf("OCI layout %s: %w", l.Path, fserr.Cause(rerr))
		}
		if len(entries) > 0 {
			return fmt.Errorf("%s is not an OCI image layout (it has no index.json) and is not empty: name a new directory", l.Path)
		}
		if p, err = layout.Write(filepath.Clean(l.Path), empty.Index); err != nil {
			return fmt.Errorf("OCI layout %s: %w", l.Path, err)
		}
	}
	if l.Name == "" {
		err = p.AppendImage(img)
	} else {
		err = p.ReplaceImage(img, match.Annotation(refNameAnnotation, l.Name),
			layout.WithAnnotations(map[string]string{refNameAnnotation: l.Name}))
	}
	if err != nil {
		return fmt.Errorf("OCI layout %s: %w", l.Path, err)
	}
	return nil
}
