package bundle_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/bundle"
)

func TestCheckBuilder(t *testing.T) {
	for _, b := range []string{bundle.Docker, bundle.Podman, bundle.Buildah, bundle.None} {
		if err := bundle.CheckBuilder(b); err != nil {
			t.Errorf("%s refused: %v", b, err)
		}
	}
	for _, b := range []string{"", "Docker", "kaniko"} {
		err := bundle.CheckBuilder(b)
		if err == nil || !strings.Contains(err.Error(), "is not a supported image builder: use docker, podman, buildah or none") {
			t.Errorf("%q: err = %v", b, err)
		}
	}
}

// TestBuilderCommand pins the commands upstream runs: docker and podman
// build, buildah bud in docker format, all with the bundle.Dockerfile in
// the work directory.
func TestBuilderCommand(t *testing.T) {
	work := t.TempDir()
	for builder, want := range map[string][]string{
		bundle.Docker:  {"docker", "build", "-f", "bundle.Dockerfile", "-t", "quay.io/x/b:v1", "."},
		bundle.Podman:  {"podman", "build", "-f", "bundle.Dockerfile", "-t", "quay.io/x/b:v1", "."},
		bundle.Buildah: {"buildah", "bud", "--format=docker", "-f", "bundle.Dockerfile", "-t", "quay.io/x/b:v1", "."},
	} {
		cmd, err := bundle.BuilderCommand(builder, "quay.io/x/b:v1", work)
		if err != nil {
			t.Fatalf("%s: %v", builder, err)
		}
		if !reflect.DeepEqual(cmd.Args, want) || cmd.Dir != work {
			t.Errorf("%s: %v in %s, want %v in %s", builder, cmd.Args, cmd.Dir, want, work)
		}
		if filepath.Base(cmd.Path) != builder && cmd.Err == nil {
			t.Errorf("%s: runs %s", builder, cmd.Path)
		}
	}
	for builder, msg := range map[string]string{
		"kaniko":    `"kaniko" is not a supported image builder`,
		bundle.None: `image builder "none" runs no command`,
	} {
		cmd, err := bundle.BuilderCommand(builder, "x", work)
		if cmd != nil || err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, %v; want no command and an error containing %q", builder, cmd, err, msg)
		}
	}
}
