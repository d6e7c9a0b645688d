package image

import (
	"context"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
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
// a registry: credentials, the TLS rules, the platform picked from an
// index, and the download counter when one is given.
func remoteOptions(ctx context.Context, o Options, insecure bool, counter *byteCounter) []remote.Option {
	t := secureTransport(o.Transport, insecure)
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
// registry. Every remote read of the package goes through here. o must
// have its defaults (withDefaults).
func get(ctx context.Context, ref string, o Options, counter *byteCounter) (*remote.Descriptor, name.Reference, error) {
	r, err := ParseReference(ref, o.Insecure)
	if err != nil {
		return nil, nil, err
	}
	desc, err := remote.Get(r, remoteOptions(ctx, o, o.Insecure, counter)...)
	if err != nil {
		return nil, r, pullError(ref, r, *o.Platform, err)
	}
	return desc, r, nil
}

// pushTarget is where a push of ref goes, and whether that registry may
// be reached insecurely. Every remote write of the package goes through
// here.
func pushTarget(ref string, o Options) (name.Reference, bool, error) {
	r, err := ParseReference(ref, o.Insecure)
	if err != nil {
		return nil, false, err
	}
	return r, o.Insecure, nil
}
