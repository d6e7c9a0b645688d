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

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/option"
)

func TestKind(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	tests := []struct {
		name    string
		labels  map[string]string
		kind    image.Kind
		dir     string
		wantErr string
	}{
		{"catalog", map[string]string{labels.Configs: "/configs"}, image.CatalogImage, "/configs", ""},
		{"catalog wins", map[string]string{labels.Configs: "/c", labels.Package: "p"}, image.CatalogImage, "/c", ""},
		{"bundle", map[string]string{labels.Package: "etcd"}, image.BundleImage, "", ""},
		{"bundle by media type", map[string]string{labels.MediaType: "registry+v1"}, image.BundleImage, "", ""},
		{"sqlite", map[string]string{labels.Database: "/database/index.db"}, 0, "", "sqlite-based index images are no longer supported"},
		{"no labels", nil, 0, "", "image type could not be determined: the image has no labels"},
		{"other labels", map[string]string{"b": "2", "a": "1"}, 0, "", "found labels:\n  a=1\n  b=2"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := host + "/kind:" + string(rune('a'+i))
			imagetest.Push(t, ref, imagetest.Image(t, tt.labels, nil))
			img, err := image.Pull(context.Background(), ref, image.Options{})
			if err != nil {
				t.Fatal(err)
			}
			kind, dir, err := img.Kind()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), ref) {
					t.Fatalf("error %v, want one naming %s and containing %q", err, ref, tt.wantErr)
				}
				return
			}
			if err != nil || kind != tt.kind || dir != tt.dir {
				t.Fatalf("Kind() = %v, %q, %v; want %v, %q", kind, dir, err, tt.kind, tt.dir)
			}
		})
	}
}

func TestPullErrors(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	tests := []struct{ ref, want string }{
		{"busybox:latest", "name the registry too"},
		{host + "/UPPER:1", "invalid image reference"},
		{host + "/missing:1", "image not found in " + host},
		{"127.0.0.1:1/nothing:1", "cannot reach registry 127.0.0.1:1"},
	}
	for _, tt := range tests {
		_, err := image.Pull(context.Background(), tt.ref, image.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.ref) {
			t.Errorf("Pull(%q) error %v, want one naming the reference and containing %q", tt.ref, err, tt.want)
		}
	}
}

// TestPullTLSError checks that a registry with a certificate nobody
// trusts is reported as an error Options.Insecure may fix. The registry is
// on loopback; the transport dials it whatever host the reference names,
// so that the client speaks HTTPS as it does to any remote registry.
func TestPullTLSError(t *testing.T) {
	imagetest.IsolateAuth(t)
	srv := httptest.NewTLSServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	defer srv.Close()
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	_, err := image.Pull(context.Background(), "registry.test/x:1", image.Options{Transport: &http.Transport{DialContext: dial}})
	var oe *option.Error
	if !errors.As(err, &oe) || !slices.Contains(oe.Names(), image.OptionInsecure) || !strings.Contains(err.Error(), "TLS with registry.test failed") {
		t.Errorf("error %v, want an option.Error naming Insecure", err)
	}
}

func TestPlatform(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	amd := imagetest.Image(t, map[string]string{"arch": "amd64"}, nil)
	arm := imagetest.Image(t, map[string]string{"arch": "arm64"}, &v1.Platform{OS: "linux", Architecture: "arm64"})
	ref := host + "/multi:1"
	imagetest.PushIndex(t, ref, amd, arm)

	for _, p := range []string{"", "linux/arm64", "linux/amd64"} {
		opts := image.Options{}
		want := "amd64"
		if p != "" {
			pl, err := image.ParsePlatform(p)
			if err != nil {
				t.Fatal(err)
			}
			opts.Platform = pl
			want = pl.Architecture
		}
		img, err := image.Pull(context.Background(), ref, opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := img.Labels["arch"]; got != want {
			t.Errorf("platform %q: pulled the %s image, want %s", p, got, want)
		}
	}
	s390, _ := image.ParsePlatform("linux/s390x")
	_, err := image.Pull(context.Background(), ref, image.Options{Platform: s390})
	var oe *option.Error
	if !errors.As(err, &oe) || !slices.Contains(oe.Names(), image.OptionPlatform) {
		t.Errorf("missing platform: error %v, want an option.Error naming the platform", err)
	}
	if _, err := image.ParsePlatform("linux"); err == nil {
		t.Error("ParsePlatform(\"linux\") succeeded")
	}
}

func writeAuthFile(t *testing.T, file, host, user, password string) {
	t.Helper()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	data := `{"auths":{"` + host + `":{"auth":"` + auth + `"}}}`
	if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestAuth(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "alice", "s3cret")
	ref := host + "/private:1"
	imagetest.Push(t, ref, imagetest.Image(t, map[string]string{labels.Package: "p"}, nil),
		remote.WithAuth(&authn.Basic{Username: "alice", Password: "s3cret"}))

	pull := func() error {
		_, err := image.Pull(context.Background(), ref, image.Options{})
		return err
	}
	if err := pull(); err == nil || !strings.Contains(err.Error(), "requires authentication") {
		t.Fatalf("anonymous pull: error %v, want 'requires authentication'", err)
	}

	dir := t.TempDir()
	locations := map[string]string{
		"REGISTRY_AUTH_FILE": filepath.Join(dir, "registry-auth.json"),
		"DOCKER_CONFIG":      filepath.Join(dir, "docker", "config.json"),
		"XDG_RUNTIME_DIR":    filepath.Join(dir, "run", "containers", "auth.json"),
		"XDG_CONFIG_HOME":    filepath.Join(dir, "config", "containers", "auth.json"),
	}
	setEnv := func(env string) {
		switch env {
		case "REGISTRY_AUTH_FILE":
			t.Setenv(env, locations[env])
		case "DOCKER_CONFIG":
			t.Setenv(env, filepath.Join(dir, "docker"))
		case "XDG_RUNTIME_DIR":
			t.Setenv(env, filepath.Join(dir, "run"))
		case "XDG_CONFIG_HOME":
			t.Setenv(env, filepath.Join(dir, "config"))
		}
	}
	// Each location alone works.
	for env, file := range locations {
		imagetest.IsolateAuth(t)
		writeAuthFile(t, file, host, "alice", "s3cret")
		setEnv(env)
		if err := pull(); err != nil {
			t.Errorf("credentials in %s: %v", env, err)
		}
		os.Remove(file)
	}
	// The first location with credentials for the registry wins.
	imagetest.IsolateAuth(t)
	for env, file := range locations {
		writeAuthFile(t, file, host, "alice", "s3cret")
		setEnv(env)
	}
	writeAuthFile(t, locations["REGISTRY_AUTH_FILE"], host, "alice", "wrong")
	if err := pull(); err == nil || !strings.Contains(err.Error(), "access denied") {
		t.Errorf("REGISTRY_AUTH_FILE with wrong credentials: error %v, want 'access denied' (it must win)", err)
	}
	writeAuthFile(t, locations["REGISTRY_AUTH_FILE"], "other.example", "alice", "wrong")
	if err := pull(); err != nil {
		t.Errorf("REGISTRY_AUTH_FILE without credentials for the registry must be skipped: %v", err)
	}
}

// TestAuthFileErrors checks that an auth file that cannot be used is
// reported with its name.
func TestAuthFileErrors(t *testing.T) {
	tests := []struct {
		name  string
		write func(path string) error
	}{
		{"Error/malformed", func(path string) error { return os.WriteFile(path, []byte(`{"auths": [`), 0o600) }},
		{"Error/not JSON", func(path string) error { return os.WriteFile(path, []byte("user: alice\n"), 0o600) }},
		{"Error/directory", func(path string) error { return os.Mkdir(path, 0o700) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imagetest.IsolateAuth(t)
			path := filepath.Join(t.TempDir(), "auth.json")
			if err := tt.write(path); err != nil {
				t.Fatal(err)
			}
			t.Setenv("REGISTRY_AUTH_FILE", path)
			_, err := image.Keychain{}.Resolve(name.MustParseReference("quay.io/x/y:1").Context())
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want one naming %s", err, path)
			}
		})
	}
}

func TestPullByDigest(t *testing.T) {
	imagetest.IsolateAuth(t)
	host := imagetest.Registry(t, "", "")
	img := imagetest.Image(t, map[string]string{labels.Package: "p"}, nil)
	imagetest.Push(t, host+"/bydigest:1", img)
	digest, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	ref := host + "/bydigest@" + digest.String()
	pulled, err := image.Pull(context.Background(), ref, image.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if pulled.Ref != ref || pulled.Labels[labels.Package] != "p" {
		t.Errorf("pulled %q with labels %v", pulled.Ref, pulled.Labels)
	}
	if _, err := image.Pull(context.Background(), host+"/bydigest@sha256:"+strings.Repeat("0", 64), image.Options{}); err == nil || !strings.Contains(err.Error(), "image not found") {
		t.Errorf("unknown digest: %v", err)
	}
}
