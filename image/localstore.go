package image

import (
	"fmt"
	"net"
	"os/exec"
	"strings"
)

// localStoreHint says how to use an image that a registry on localhost
// does not have but a local container store may (podman and buildah name
// the images they build localhost/NAME; they exist only in their store
// unless pushed), naming only the tools installed (for which installed
// says yes).
func localStoreHint(ref string, installed func(tool string) bool) string {
	switch {
	case installed("podman"):
		return fmt.Sprintf("if %s is only in your local podman store, save it to an archive and use that: podman save -o image.tar %s, then docker-archive:image.tar in place of the reference", ref, ref)
	case installed("docker"):
		return fmt.Sprintf("if %s is only in your local docker store, save it to an archive and use that: docker save -o image.tar %s, then docker-archive:image.tar in place of the reference", ref, ref)
	case installed("buildah"):
		return fmt.Sprintf("if %s is only in your local buildah store, write it to an archive and use that: buildah push %s oci-archive:image.tar, then oci-archive:image.tar in place of the reference", ref, ref)
	}
	return fmt.Sprintf("if %s is only in a local container store, save it to an archive there and use docker-archive:FILE or oci-archive:FILE in place of the reference", ref)
}

// installed reports whether a program is on PATH.
func installed(tool string) bool {
	_, err := exec.LookPath(tool)
	return err == nil
}

// isLocalhost reports whether a registry (host[:port]) is "localhost".
func isLocalhost(registry string) bool {
	host := registry
	if h, _, err := net.SplitHostPort(registry); err == nil {
		host = h
	}
	return strings.EqualFold(host, "localhost")
}
