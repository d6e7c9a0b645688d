package main

import (
	"errors"
	"fmt"
	"net"
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
		// podman names the images it builds localhost/NAME; they exist
		// only in its store unless pushed.
		return fmt.Errorf("%w (if %s is only in your local podman or docker store, save it to an archive and use that: podman save -o image.tar %s, then docker-archive:image.tar in place of the reference)", err, me.Ref, me.Ref)
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

// isLocalhost reports whether a registry (host[:port]) is "localhost".
func isLocalhost(registry string) bool {
	host := registry
	if h, _, err := net.SplitHostPort(registry); err == nil {
		host = h
	}
	return strings.EqualFold(host, "localhost")
}
