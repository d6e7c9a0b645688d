package image

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/fbcat/opm/image/registries"
)

// withDefaults fills the registry-access fields a caller left empty.
func (o Options) withDefaults() Options {
	if o.Keychain == nil {
		o.Keychain = Keychain{}
	}
	if o.Transport == nil {
		o.Transport = DefaultTransport(o.Insecure)
	}
	if o.Platform == nil {
		o.Platform = &v1.Platform{OS: "linux", Architecture: "amd64"}
	}
	return o
}

// remoteOptions are the go-containerregistry options of one request to
// a registry: credentials (found by the host actually contacted), the TLS
// rules, the platform picked from an index, and the download counter
// when one is given. insecure is this registry's: Options.Insecure, or
// registries.conf's insecure for it.
func remoteOptions(ctx context.Context, o Options, insecure bool, counter *byteCounter) []remote.Option {
	t := o.Transport
	if insecure && !o.Insecure {
		t = o.Registries.SkipVerify(t)
	}
	t = secureTransport(t, insecure)
	if counter != nil {
		t = &countingTransport{next: t, counter: counter}
	}
	return []remote.Option{
		remote.WithContext(ctx),
		remote.WithAuthFromKeychain(o.Keychain),
		remote.WithTransport(t),
		remote.WithPlatform(*o.Platform),
	}
}

// get fetches the descriptor (an image or an index) that ref names in a
// registry, trying the sources registries.conf gives it in order. Every
// remote read of the package goes through here. o must have its defaults
// (withDefaults).
func get(ctx context.Context, ref string, o Options, counter *byteCounter) (*remote.Descriptor, name.Reference, error) {
	sources, reg, err := pullSources(ref, o)
	if err != nil {
		return nil, nil, err
	}
	failures := make([]pullFailure, 0, len(sources))
	for _, s := range sources {
		if s.blocked != "" {
			failures = append(failures, pullFailure{
				reason:   fmt.Errorf("%s is blocked in %s", s.ref.Context().RegistryStr(), s.blocked),
				registry: s.ref.Context().RegistryStr(),
			})
			continue
		}
		desc, err := remote.Get(s.ref, remoteOptions(ctx, o, s.insecure, counter)...)
		if err == nil {
			return desc, s.ref, nil
		}
		f := explainPull(s.ref, *o.Platform, err)
		if ctx.Err() != nil {
			return nil, s.ref, f.wrap(ref)
		}
		failures = append(failures, f)
	}
	last := sources[len(sources)-1]
	if reg == nil || len(sources) == 1 && last.ref.String() == ref {
		return nil, last.ref, failures[len(failures)-1].wrap(ref)
	}
	return nil, last.ref, allFailed(ref, reg, sources, failures)
}

// allFailed is the error of a pull that no source gave: every location
// tried, in order, and why each failed. It is a MissingError when none
// had the image, an option.Error when the primary location's failure is
// one.
func allFailed(ref string, reg *registries.Registry, sources []pullSource, failures []pullFailure) error {
	var b strings.Builder
	fmt.Fprintf(&b, "failed to pull image %q from any of the locations that registries configuration %s gives it ([[registry]] prefix %s):", ref, reg.File, reg.Prefix)
	missing := true
	for i, s := range sources {
		role := "location"
		if s.mirror {
			role = "mirror"
		}
		fmt.Fprintf(&b, "\n  %s %s: %s", role, s.ref, failures[i].reason)
		missing = missing && failures[i].missing
	}
	err := errors.New(b.String())
	primary := failures[len(failures)-1]
	primary.missing = missing
	return primary.as(ref, err)
}

// pushTarget is where a push of ref goes, and whether that registry may
// be reached insecurely. Every remote write of the package goes through
// here. As in containers/image, registries.conf does not redirect pushes
// (no location rewriting, no mirrors): the matching [[registry]] table
// may block the push, or make the registry insecure.
func pushTarget(ref string, o Options) (name.Reference, bool, error) {
	r, _, reg, err := lookupRegistry(ref, o)
	if err != nil {
		return nil, false, err
	}
	if reg == nil {
		return r, o.Insecure, nil
	}
	if reg.Blocked {
		return nil, false, fmt.Errorf("cannot push image %q: registry %s is blocked in %s: push to another registry, or remove blocked = true from that [[registry]] table", ref, reg.Prefix, reg.File)
	}
	if reg.Insecure && !o.Insecure {
		r, err = ParseReference(ref, true)
		return r, true, err
	}
	return r, o.Insecure, nil
}
