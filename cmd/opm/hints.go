package main

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"

	"github.com/fbcat/opm/image"
)

// withFlagHint adds to an error about an image what the user can do: the
// flag that sets an image option another value of which may fix it, or,
// for an image that a registry on localhost does not have, how to use the
// copy in a local container store. run applies it to every command's
// error, so that a command pulling images needs nothing of its own.
func withFlagHint(err error) error {
	var me *image.MissingError
	if errors.As(err, &me) && isLocalhost(me.Registry) {
		// podman and buildah name the images they build localhost/NAME;
		// they exist only in their store unless pushed.
		return fmt.Errorf("%w (%s)", err, localStoreHint(me.Ref, installed))
	}
	var oe *image.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	switch oe.Option {
	case image.OptionInsecure:
		return fmt.Errorf("%w (for a self-signed certificate use --skip-tls-verify, for a plain-HTTP registry --use-http; to relax only this registry, set insecure = true in its [[registry]] table of registries.conf)", err)
	case image.OptionPlatform:
		return fmt.Errorf("%w (choose another with --platform)", err)
	}
	return err
}

// localStoreHint says how to use an image that may be only in a local
// container store, naming only the tools installed (for which installed
// says yes).
func localStoreHint(ref string, installed func(tool string) bool) string {
	var hint string
	switch {
	case installed("podman"):
		hint = fmt.Sprintf("if %s is only in your local podman store, save it to an archive and use that: podman save -o image.tar %s, then docker-archive:image.tar in place of the reference", ref, ref)
	case installed("docker"):
		hint = fmt.Sprintf("if %s is only in your local docker store, save it to an archive and use that: docker save -o image.tar %s, then docker-archive:image.tar in place of the reference", ref, ref)
	case installed("buildah"):
		hint = fmt.Sprintf("if %s is only in your local buildah store, write it to an archive and use that: buildah push %s oci-archive:image.tar, then oci-archive:image.tar in place of the reference", ref, ref)
	default:
		hint = fmt.Sprintf("if %s is only in a local container store, save it to an archive there and use docker-archive:FILE or oci-archive:FILE in place of the reference", ref)
	}
	if strings.Contains(ref, "opm-base") {
		hint += "; make base-image writes its base image to bin/opm-base.oci.tar: use --base-image oci-archive:bin/opm-base.oci.tar"
	}
	return hint
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
