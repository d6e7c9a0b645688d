package bundle

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/image"
)

// The image builders: the container engines upstream runs, and None,
// which builds the image in-process.
const (
	Docker  = "docker"
	Podman  = "podman"
	Buildah = "buildah"
	None    = "none"
)

// CheckBuilder refuses builders other than docker, podman, buildah and
// none.
func CheckBuilder(builder string) error {
	switch builder {
	case Docker, Podman, Buildah, None:
		return nil
	}
	return fmt.Errorf("%q is not a supported image builder: use docker, podman, buildah or none (none builds the image without a container engine)", builder)
}

// BuilderCommand is the command upstream runs in the directory of the
// bundle.Dockerfile to build the image with a container engine; None and
// unknown builders are errors, never a nil command.
func BuilderCommand(builder, tag, workDir string) (*exec.Cmd, error) {
	var args []string
	switch builder {
	case Docker, Podman:
		args = []string{"build", "-f", DockerfileName, "-t", tag, "."}
	case Buildah:
		args = []string{"bud", "--format=docker", "-f", DockerfileName, "-t", tag, "."}
	case None:
		return nil, fmt.Errorf("image builder %q runs no command: build the image with BuildImage", builder)
	default:
		return nil, CheckBuilder(builder)
	}
	cmd := exec.Command(builder, args...)
	cmd.Dir = workDir
	return cmd, nil
}

// BuildImage makes the image that the bundle.Dockerfile of r describes,
// without a container engine (FROM base, the labels, a layer with the
// manifests at /manifests/ and one with the metadata at /metadata/, files
// dated t), and writes it to target: oci:DIR[:NAME] or a registry. It
// returns the image's digest.
func BuildImage(ctx context.Context, r *Result, base, target string, t time.Time, o image.Options) (v1.Hash, error) {
	if base == "" {
		base = DefaultBase
	}
	img, err := image.Build(ctx, image.BuildSpec{
		Base:   base,
		Labels: r.Labels,
		Copies: []image.Copy{{Src: r.ManifestsDir, Dst: "/manifests/"}, {Src: r.MetadataDir, Dst: "/metadata/"}},
		Time:   t,
	}, o)
	if err != nil {
		return v1.Hash{}, err
	}
	return image.Write(ctx, img, target, o)
}
