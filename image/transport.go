package image

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// The image transports for images that are not in a registry, written as
// podman and skopeo write them.
const (
	// OCITransport names an OCI image layout directory: oci:DIR[:NAME],
	// NAME matching an org.opencontainers.image.ref.name annotation.
	OCITransport = "oci"
	// OCIArchiveTransport names a tar file of an OCI image layout:
	// oci-archive:FILE[:NAME].
	OCIArchiveTransport = "oci-archive"
	// DockerArchiveTransport names a "docker save" or "podman save" file:
	// docker-archive:FILE[:REFERENCE] or docker-archive:FILE:@INDEX.
	DockerArchiveTransport = "docker-archive"
)

// LocalRef is a reference to an image through a transport.
type LocalRef struct {
	Transport string // OCITransport, OCIArchiveTransport or DockerArchiveTransport
	Path      string // the directory or file
	Name      string // the image in it ("" when not given)
	Index     int    // docker-archive:FILE:@INDEX, else -1
}

// ParseLocalRef reads a reference with a transport prefix. It reports
// false for references without one (registry references), and an error
// for a transport reference that names no path.
func ParseLocalRef(ref string) (LocalRef, bool, error) {
	transport, rest, ok := strings.Cut(ref, ":")
	if !ok {
		return LocalRef{}, false, nil
	}
	switch transport {
	case OCITransport, OCIArchiveTransport, DockerArchiveTransport:
	default:
		return LocalRef{}, false, nil
	}
	// As containers/image does: the path ends at the first colon.
	path, name, _ := strings.Cut(rest, ":")
	if path == "" {
		return LocalRef{}, true, fmt.Errorf("invalid image reference %q: write %s:PATH[:%s]", ref, transport, localNameHint(transport))
	}
	l := LocalRef{Transport: transport, Path: path, Name: name, Index: -1}
	if transport == DockerArchiveTransport && strings.HasPrefix(name, "@") {
		n, err := strconv.Atoi(name[1:])
		if err != nil || n < 0 {
			return LocalRef{}, true, fmt.Errorf("invalid image reference %q: @%s is not an image index (write @0 for the first image)", ref, name[1:])
		}
		l.Name, l.Index = "", n
	}
	return l, true, nil
}

func localNameHint(transport string) string {
	if transport == DockerArchiveTransport {
		return "REFERENCE|@INDEX"
	}
	return "NAME"
}

// IsLocalRef reports whether ref starts with an image transport (oci:,
// oci-archive:, docker-archive:).
func IsLocalRef(ref string) bool {
	_, ok, _ := ParseLocalRef(ref)
	return ok
}

// openLocal opens an image that a transport reference names. Nothing is
// downloaded, so there is no progress line and no layer cache.
func openLocal(ctx context.Context, ref string, o Options) (*Image, error) {
	l, _, err := ParseLocalRef(ref)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	platform := v1.Platform{OS: "linux", Architecture: "amd64"}
	if o.Platform != nil {
		platform = *o.Platform
	}
	var img v1.Image
	switch l.Transport {
	case OCITransport:
		img, err = openLayout(dirBlobs(l.Path), l, platform)
	case OCIArchiveTransport:
		var t *tarIndex
		if t, err = indexTar(l.Path); err == nil {
			img, err = openLayout(t, l, platform)
		}
	case DockerArchiveTransport:
		img, err = openDockerArchive(l)
	}
	if err != nil {
		return nil, fmt.Errorf("image %q: %w", ref, err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("image %q: reading its configuration: %w", ref, err)
	}
	o.Progress, o.CacheDir = nil, ""
	return &Image{Ref: ref, Labels: cfg.Config.Labels, img: img, opts: o, blobs: &byteCounter{}}, nil
}
