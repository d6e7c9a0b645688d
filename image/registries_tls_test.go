package image_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/option"
)

// TestRegistriesInsecure: a registry or mirror that registries.conf marks
// insecure is reached despite its self-signed certificate; the others
// still verify it. Every host is dialled to one TLS registry on loopback.
func TestRegistriesInsecure(t *testing.T) {
	srv := httptest.NewUnstartedServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are the point
	srv.StartTLS()
	defer srv.Close()
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	trusted := srv.Client().Transport.(*http.Transport).Clone()
	trusted.DialContext = dial
	img := imagetest.Image(t, map[string]string{"from": "tls"}, nil)
	imagetest.Push(t, "example.com/app/x:1", img, remote.WithTransport(trusted))

	o := registriesConf(t, `
[[registry]]
location = "insecure.test"
insecure = true

[[registry]]
location = "secure.test"

[[registry]]
prefix = "quay.io/app"
location = "secure.test/app"
[[registry.mirror]]
location = "mirror.test/app"
insecure = true

[[registry]]
prefix = "quay.io/other"
location = "secure.test/app"
[[registry.mirror]]
location = "verified-mirror.test/app"
`)
	o.Transport = &http.Transport{DialContext: dial}
	ctx := context.Background()
	for _, ref := range []string{"insecure.test/app/x:1", "quay.io/app/x:1"} {
		if got := pullFrom(t, ref, o); got != "tls" {
			t.Errorf("%s: pulled %q", ref, got)
		}
	}
	for _, ref := range []string{"secure.test/app/x:1", "quay.io/other/x:1"} {
		_, err := image.Pull(ctx, ref, o)
		var oe *option.Error
		if !errors.As(err, &oe) || !slices.Contains(oe.Names(), image.OptionInsecure) || !strings.Contains(err.Error(), "TLS with") {
			t.Errorf("%s: error %v, want a TLS option.Error", ref, err)
		}
	}
	if _, err := image.Write(ctx, img, "insecure.test/pushed:1", o); err != nil {
		t.Errorf("push to the insecure registry: %v", err)
	}
	if _, err := image.Write(ctx, img, "secure.test/pushed:2", o); err == nil {
		t.Error("push to the verified registry with an untrusted certificate succeeded")
	}
}

// TestMirrorAuth: credentials are looked up for the mirror's host, the
// one contacted.
func TestMirrorAuth(t *testing.T) {
	mirror := imagetest.Registry(t, "alice", "s3cret")
	o := registriesConf(t, `
[[registry]]
prefix = "quay.io/app"
location = "DOWN/app"
[[registry.mirror]]
location = "MIRROR/app"
`, "MIRROR", mirror, "DOWN", unreachable)
	auth := base64.StdEncoding.EncodeToString([]byte("alice:s3cret"))
	file := filepath.Join(t.TempDir(), "auth.json")
	if err := os.WriteFile(file, []byte(`{"auths":{"`+mirror+`":{"auth":"`+auth+`"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	img := imagetest.Image(t, map[string]string{"from": "mirror"}, nil)
	if _, err := image.Write(context.Background(), img, mirror+"/app/x:1", image.Options{}); err == nil {
		t.Fatal("push without credentials succeeded: the registry does not check them")
	}
	t.Setenv("REGISTRY_AUTH_FILE", file)
	if _, err := image.Write(context.Background(), img, mirror+"/app/x:1", image.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := pullFrom(t, "quay.io/app/x:1", o); got != "mirror" {
		t.Errorf("pulled %q", got)
	}
}
