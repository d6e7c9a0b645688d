package catalogimage

import (
	"bytes"
	"debug/buildinfo"
	"errors"
	"fmt"
	"io/fs"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/image"
)

// The main modules of the opm binaries a base may hold.
const (
	ourModule      = "github.com/fbcat/opm"
	upstreamModule = "github.com/operator-framework/operator-registry"
)

// maxOpmSize bounds how much of /bin/opm is read to identify it.
const maxOpmSize = 512 << 20

// opmKind is what the base's /bin/opm needs: the command of the image,
// whether /tmp/cache must be writable (the opm builds its cache there
// when it starts), and what to tell the user.
type opmKind struct {
	cmd           []string
	writableCache bool
	warning       string
}

// The command of the generated Dockerfile, and the one for an opm that
// would refuse the empty cache directory.
var (
	dockerfileCmd = []string{"serve", configsDir, "--cache-dir=" + cacheDir}
	rebuildCmd    = []string{"serve", configsDir, "--cache-dir=" + cacheDir, "--cache-enforce-integrity=false"}
)

// detectOpm reads /bin/opm of a base image and decides the command.
func detectOpm(img v1.Image) (opmKind, error) {
	data, err := image.ReadFile(img, "/bin/opm", maxOpmSize)
	if errors.Is(err, fs.ErrNotExist) {
		return opmKind{}, fmt.Errorf("it is not an opm image: it has no /bin/opm; use quay.io/operator-framework/opm or an image made with `make base-image`")
	}
	if err != nil {
		return opmKind{}, err
	}
	return classifyOpm(data), nil
}

// classifyOpm tells this project's opm from upstream's by the main
// module of the binary's build information (any architecture).
//
// Ours keeps no serve cache: --cache-dir is accepted and an empty
// /tmp/cache is right, so the image gets the Dockerfile's command.
// Upstream's checks, with --cache-dir, the integrity of a cache that
// only it can build (not reproducibly, and not in process here), and
// exits with "integrity check failed" without one: it gets
// --cache-enforce-integrity=false, so it builds the cache when it starts,
// into a /tmp/cache any user may write.
func classifyOpm(data []byte) opmKind {
	info, err := buildinfo.Read(bytes.NewReader(data))
	switch {
	case err == nil && info.Main.Path == ourModule:
		return opmKind{cmd: dockerfileCmd}
	case err == nil && info.Main.Path == upstreamModule:
		return opmKind{cmd: rebuildCmd, writableCache: true,
			warning: "its /bin/opm is upstream's, which cannot use a cache built here: the image runs it with --cache-enforce-integrity=false, so it builds its cache when it starts (slower start)"}
	}
	return opmKind{cmd: rebuildCmd, writableCache: true,
		warning: "cannot tell which opm its /bin/opm is: the image runs it with --cache-enforce-integrity=false, which this opm and upstream's both accept"}
}
