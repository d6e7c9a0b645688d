package image

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Copy is one COPY of a Dockerfile: the directory Src placed at Dst in the
// image.
type Copy struct {
	Src, Dst string
}

// BuildSpec describes an image made without a container engine.
type BuildSpec struct {
	// Base is the FROM image reference; "scratch" or empty for none.
	Base string
	// Labels are added to the base's.
	Labels map[string]string
	// Copies become one layer each, in order.
	Copies []Copy
	// Time is the creation time and every file's modification time, so
	// that the same input makes the same image.
	Time time.Time
}

// Build makes the image a Dockerfile of FROM, LABEL and COPY lines would:
// one layer per COPY holding the directory's files (symbolic links
// followed) under Dst, owned by root, with their permissions. A base
// other than scratch is pulled with o.
func Build(ctx context.Context, spec BuildSpec, o Options) (v1.Image, error) {
	base, layerType := v1.Image(nil), types.OCILayer
	if spec.Base == "" || spec.Base == "scratch" {
		base = mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	} else {
		img, err := Pull(ctx, spec.Base, o)
		if err != nil {
			return nil, fmt.Errorf("base image: %w", err)
		}
		base = img.img
		if mt, err := base.MediaType(); err == nil && mt == types.DockerManifestSchema2 {
			layerType = types.DockerLayer
		}
	}
	created := v1.Time{Time: spec.Time.UTC()}
	var adds []mutate.Addendum
	for _, c := range spec.Copies {
		l, err := dirLayer(c.Src, c.Dst, spec.Time, layerType)
		if err != nil {
			return nil, err
		}
		adds = append(adds, mutate.Addendum{Layer: l, History: v1.History{
			Created:   created,
			CreatedBy: fmt.Sprintf("COPY %s %s", filepath.Base(c.Src), c.Dst),
		}})
	}
	img, err := mutate.Append(base, adds...)
	if err != nil {
		return nil, err
	}
	return withConfig(img, created, func(cf *v1.ConfigFile) {
		for k, v := range spec.Labels {
			cf.Config.Labels[k] = v
		}
		if cf.OS == "" {
			cf.OS, cf.Architecture = "linux", runtime.GOARCH
		}
	})
}

// dirLayer makes a layer of the files under src placed at dst, with
// their permissions.
func dirLayer(src, dst string, mtime time.Time, mediaType types.MediaType) (v1.Layer, error) {
	var buf bytes.Buffer
	spec := LayerSpec{Copies: []Copy{{Src: src, Dst: dst}}, Time: mtime, KeepModes: true}
	if err := writeLayerTar(&buf, spec); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}, tarball.WithMediaType(mediaType))
}

// copyInto copies exactly size bytes of a file (which must not change
// while it is read).
func copyInto(w io.Writer, file string, size int64) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(w, io.LimitReader(f, size))
	if err == nil && n != size {
		err = fmt.Errorf("%s changed while it was read", file)
	}
	return err
}
