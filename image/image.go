// Package image pulls bundle and catalog images from registries with
// go-containerregistry and extracts the parts opm reads, safely, into a
// private directory.
package image

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/distribution/reference"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"

	"github.com/fbcat/opm/image/registries"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/option"
)

// Kind is what an image holds.
type Kind int

// The kinds of image opm reads.
const (
	CatalogImage Kind = iota + 1
	BundleImage
)

// Options configures registry access.
type Options struct {
	// Insecure turns TLS verification off and lets registries be reached
	// over plain HTTP (upstream's --skip-tls-verify and --use-http do both).
	Insecure bool
	// Platform selects from multi-platform images (default linux/amd64).
	Platform *v1.Platform
	// Keychain finds credentials (default: Keychain).
	Keychain authn.Keychain
	// Transport carries the requests (default: proxy-aware, with timeouts).
	// For a registry or mirror that registries.conf marks insecure, an
	// *http.Transport is cloned with TLS verification off.
	Transport http.RoundTripper
	// Registries is the containers-registries.conf configuration that
	// pulls (mirrors, remapped locations, insecure, blocked) and pushes
	// (insecure, blocked) honour; nil for none. See registries.FromEnv.
	Registries *registries.Config
	// Progress, if set, gets a progress line while layers download.
	Progress io.Writer
	// CacheDir, if set, keeps compressed layers by digest for later pulls.
	CacheDir string
	// Limits for extraction (defaults: DefaultMaxFileSize, DefaultMaxTotalSize).
	MaxFileSize, MaxTotalSize int64
	// TempDir is where callers extract images, each into a private
	// directory they remove when done (default: os.TempDir()).
	TempDir string
}

// Image is a pulled image: its manifest and configuration are fetched,
// its layers are read when it is extracted.
type Image struct {
	Ref    string // as the user wrote it
	Labels map[string]string
	img    v1.Image
	opts   Options
	blobs  *byteCounter
}

// ParseReference checks that ref names an image the way upstream requires:
// a canonical reference, with the registry written out.
func ParseReference(ref string, insecure bool) (name.Reference, error) {
	if _, err := reference.ParseNamed(ref); err != nil {
		if errors.Is(err, reference.ErrNameNotCanonical) {
			return nil, fmt.Errorf("invalid image reference %q: name the registry too, e.g. docker.io/library/%s", ref, ref)
		}
		return nil, fmt.Errorf("invalid image reference %q: %w", ref, err)
	}
	var opts []name.Option
	if insecure {
		opts = append(opts, name.Insecure)
	}
	r, err := name.ParseReference(ref, opts...)
	if err != nil {
		return nil, fmt.Errorf("invalid image reference %q: %w", ref, err)
	}
	return r, nil
}

// DefaultTransport is the HTTP transport used to reach registries: the
// environment's proxies (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), and timeouts
// that turn a stalled connection into an error.
func DefaultTransport(insecure bool) http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = http.ProxyFromEnvironment
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = 30 * time.Second
	t.ResponseHeaderTimeout = 2 * time.Minute
	if insecure {
		t.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the user asked for it
	}
	return t
}

// secureTransport keeps requests on HTTPS unless insecure is set or the
// registry is on a loopback address: go-containerregistry also speaks
// plain HTTP to private (RFC 1918) addresses, and would send credentials
// that way, where upstream insists on TLS.
func secureTransport(next http.RoundTripper, insecure bool) http.RoundTripper {
	if insecure {
		return next
	}
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Scheme == "http" && !isLoopback(req.URL.Hostname()) {
			req = req.Clone(req.Context())
			req.URL.Scheme = "https"
		}
		return next.RoundTrip(req)
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Pull fetches an image's manifest and configuration. For a multi-platform
// image, the manifest for the selected platform is used. References with
// a transport (oci:, oci-archive:, docker-archive:) are read from disk.
func Pull(ctx context.Context, ref string, o Options) (*Image, error) {
	if IsLocalRef(ref) {
		return openLocal(ctx, ref, o)
	}
	o = o.withDefaults()
	counter := &byteCounter{}
	desc, r, err := get(ctx, ref, o, counter)
	if err != nil {
		return nil, err
	}
	img, err := desc.Image()
	if err != nil {
		return nil, pullError(ref, r, *o.Platform, err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, pullError(ref, r, *o.Platform, err)
	}
	return &Image{Ref: ref, Labels: cfg.Config.Labels, img: img, opts: o, blobs: counter}, nil
}

// Kind tells a catalog image (with the directory of its catalog) from a
// bundle image by their labels.
func (i *Image) Kind() (Kind, string, error) {
	if dir, ok := i.Labels[labels.Configs]; ok {
		return CatalogImage, dir, nil
	}
	for _, l := range []string{labels.Package, labels.MediaType} {
		if _, ok := i.Labels[l]; ok {
			return BundleImage, "", nil
		}
	}
	if _, ok := i.Labels[labels.Database]; ok {
		return 0, "", fmt.Errorf("image %q: sqlite-based index images are no longer supported, migrate to a file-based catalog", i.Ref)
	}
	if len(i.Labels) == 0 {
		return 0, "", fmt.Errorf("image %q: image type could not be determined: the image has no labels (a catalog image has %s, a bundle image %s)", i.Ref, labels.Configs, labels.Package)
	}
	keys := make([]string, 0, len(i.Labels))
	for k := range i.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var lines []string
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("  %s=%s", k, i.Labels[k]))
	}
	return 0, "", fmt.Errorf("image %q: image type could not be determined (a catalog image has the label %s, a bundle image %s); found labels:\n%s", i.Ref, labels.Configs, labels.Package, strings.Join(lines, "\n"))
}

// pullError explains a failed pull of ref from r.
func pullError(ref string, r name.Reference, platform v1.Platform, err error) error {
	return explainPull(r, platform, err).wrap(ref)
}

// pullFailure is why one registry did not give an image: reason reads
// after "failed to pull image REF: ".
type pullFailure struct {
	reason   error
	registry string
	missing  bool        // not found, or no registry there: a MissingError
	option   option.Name // another value of this option may lift it
}

// wrap makes the failure the error of a pull of ref.
func (f pullFailure) wrap(ref string) error {
	err := fmt.Errorf("failed to pull image %q: %w", ref, f.reason)
	return f.as(ref, err)
}

// as makes err, a failed pull of ref, a MissingError (with where else
// the image may be) or an option.Error, as the failure is one.
func (f pullFailure) as(ref string, err error) error {
	switch {
	case f.missing:
		if isLocalhost(f.registry) {
			err = fmt.Errorf("%w (%s)", err, localStoreHint(ref, installed))
		}
		return &MissingError{Ref: ref, Registry: f.registry, Err: err}
	case f.option == OptionInsecure:
		return option.Errorf(option.Lifts, "%w (retry with %s; to relax only this registry, set insecure = true in its [[registry]] table of registries.conf)", err, f.option)
	case f.option != "":
		return platformError(err)
	}
	return err
}

// platformError is the error of an image without the platform asked
// for.
func platformError(err error) error {
	return option.Errorf(option.Lifts, "%w (choose another with %s)", err, OptionPlatform)
}

// explainPull says why a registry did not give an image.
func explainPull(r name.Reference, platform v1.Platform, err error) pullFailure {
	registry := r.Context().RegistryStr()
	f := pullFailure{registry: registry}
	var terr *transport.Error
	if errors.As(err, &terr) {
		switch terr.StatusCode {
		case http.StatusUnauthorized:
			f.reason = fmt.Errorf("%s requires authentication: log in (podman login or docker login %s) or point REGISTRY_AUTH_FILE at an auth file", registry, registry)
		case http.StatusForbidden:
			f.reason = fmt.Errorf("access denied by %s: check that your credentials may read this repository", registry)
		case http.StatusNotFound:
			f.reason, f.missing = fmt.Errorf("image not found in %s: check the repository and tag", registry), true
		default:
			f.reason = fmt.Errorf("%s answered %d: %w", registry, terr.StatusCode, err)
		}
		return f
	}
	var neterr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &neterr) && neterr.Timeout():
		f.reason = fmt.Errorf("timed out talking to %s: %w", registry, err)
	case strings.Contains(err.Error(), "x509:") || strings.Contains(err.Error(), "tls:"):
		f.reason, f.option = fmt.Errorf("TLS with %s failed: %w", registry, err), OptionInsecure
	case errors.As(err, &dnsErr) || errors.As(err, &opErr):
		f.reason, f.missing = fmt.Errorf("cannot reach registry %s: %w", registry, err), true
	case strings.Contains(err.Error(), "no child with platform"):
		f.reason, f.option = fmt.Errorf("the image has no manifest for platform %s: %w", platform, err), OptionPlatform
	case errors.Is(err, context.Canceled):
		f.reason = errors.New("interrupted")
	default:
		f.reason = err
	}
	return f
}

// The options a failed pull's option.Error names (Lifts).
const (
	// OptionInsecure is Options.Insecure, for a registry whose certificate
	// is not trusted or that speaks plain HTTP.
	OptionInsecure option.Name = "image.Options.Insecure"
	// OptionPlatform is Options.Platform, for an image without the
	// platform asked for.
	OptionPlatform option.Name = "image.Options.Platform"
)

// MissingError is a pull that found no image: the registry does not have
// it, or there is no registry to ask. For a registry on localhost, its
// message says how to use a container engine's local store instead.
type MissingError struct {
	Ref      string // as given
	Registry string // the registry asked, host[:port]
	Err      error
}

func (e *MissingError) Error() string { return e.Err.Error() }

func (e *MissingError) Unwrap() error { return e.Err }

// ParsePlatform reads "os/arch[/variant]".
func ParsePlatform(s string) (*v1.Platform, error) {
	p, err := v1.ParsePlatform(s)
	if err != nil || p.OS == "" || p.Architecture == "" {
		return nil, fmt.Errorf("invalid platform %q: write os/arch[/variant], e.g. linux/arm64", s)
	}
	return p, nil
}
