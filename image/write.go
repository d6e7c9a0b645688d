package image

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/match"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"

	"github.com/fbcat/opm/internal/fserr"
)

// Write stores img at target: an OCI image layout (oci:DIR[:NAME], made
// if missing; an image of the same NAME is replaced), an OCI archive
// (oci-archive:FILE[:NAME], replaced whole: written to a temporary file
// beside it and renamed, so a failure leaves no half-written file) or a
// registry (pushed with the credentials and TLS rules Pull uses; blobs
// the registry has are not uploaded again, and layers of an image of the
// same registry are mounted from its repository). It returns the
// image's digest.
func Write(ctx context.Context, img v1.Image, target string, o Options) (v1.Hash, error) {
	return write(ctx, img, target, o)
}

// WriteIndex stores a multi-platform index and its images at target, as
// Write stores an image.
func WriteIndex(ctx context.Context, idx v1.ImageIndex, target string, o Options) (v1.Hash, error) {
	return write(ctx, idx, target, o)
}

// artifact is a v1.Image or a v1.ImageIndex.
type artifact interface {
	Digest() (v1.Hash, error)
}

func write(ctx context.Context, a artifact, target string, o Options) (v1.Hash, error) {
	digest, err := a.Digest()
	if err != nil {
		return v1.Hash{}, err
	}
	l, local, err := ParseLocalRef(target)
	if err != nil {
		return v1.Hash{}, err
	}
	if local {
		switch l.Transport {
		case OCITransport:
			return digest, writeLayout(a, l)
		case OCIArchiveTransport:
			return digest, writeArchive(a, l, o)
		}
		return v1.Hash{}, fmt.Errorf("cannot write image %q: %s: is read-only here; write to oci:DIR[:NAME] or oci-archive:FILE (then skopeo copy it on) or to a registry", target, l.Transport)
	}
	r, insecure, err := pushTarget(target, o)
	if err != nil {
		return v1.Hash{}, err
	}
	o = o.withDefaults()
	opts := remoteOptions(ctx, o, insecure, nil)
	if idx, ok := a.(v1.ImageIndex); ok {
		err = remote.WriteIndex(r, idx, opts...)
	} else {
		err = remote.Write(r, a.(v1.Image), opts...)
	}
	if err != nil {
		return v1.Hash{}, pushError(target, r, err)
	}
	return digest, nil
}

// pushError explains a failed push.
func pushError(target string, r name.Reference, err error) error {
	registry := r.Context().RegistryStr()
	var terr *transport.Error
	if errors.As(err, &terr) && terr.StatusCode == http.StatusUnauthorized {
		return fmt.Errorf("failed to push image %q: %s requires authentication: log in (podman login or docker login %s) or point REGISTRY_AUTH_FILE at an auth file", target, registry, registry)
	}
	if errors.As(err, &terr) && terr.StatusCode == http.StatusForbidden {
		return fmt.Errorf("failed to push image %q: access denied by %s: check that your credentials may write this repository", target, registry)
	}
	return fmt.Errorf("failed to push image %q: %w", target, err)
}

// writeLayout adds an image or index to an OCI image layout, making the
// layout if the directory is missing or empty.
func writeLayout(a artifact, l LocalRef) error {
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
	idx, isIndex := a.(v1.ImageIndex)
	var opts []layout.Option
	if l.Name != "" {
		opts = append(opts, layout.WithAnnotations(map[string]string{refNameAnnotation: l.Name}))
	}
	switch {
	case l.Name == "" && isIndex:
		err = p.AppendIndex(idx)
	case l.Name == "":
		err = p.AppendImage(a.(v1.Image))
	case isIndex:
		err = p.ReplaceIndex(idx, match.Annotation(refNameAnnotation, l.Name), opts...)
	default:
		err = p.ReplaceImage(a.(v1.Image), match.Annotation(refNameAnnotation, l.Name), opts...)
	}
	if err != nil {
		return fmt.Errorf("OCI layout %s: %w", l.Path, err)
	}
	return nil
}
