package image_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/authn"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
)

// layoutNames lists the ref.name annotations of an OCI layout's index.
func layoutNames(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var index struct {
		Manifests []struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"manifests"`
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range index.Manifests {
		names = append(names, m.Annotations["org.opencontainers.image.ref.name"])
	}
	return names
}

// TestWriteLayout: a new or empty directory becomes a layout; an image
// written under a name replaces the one of that name; one without a
// name is added.
func TestWriteLayout(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "new", "layout")
	v1img := imagetest.Image(t, map[string]string{"v": "1"}, nil)
	v2img := imagetest.Image(t, map[string]string{"v": "2"}, nil)
	d1, err := image.Write(ctx, v1img, "oci:"+dir+":app", image.Options{})
	if want, _ := v1img.Digest(); err != nil || d1 != want {
		t.Fatalf("Write = %s, %v; want %s", d1, err, want)
	}
	if _, err := image.Write(ctx, v2img, "oci:"+dir+":app", image.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := image.Write(ctx, v1img, "oci:"+dir, image.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(layoutNames(t, dir), ","); got != "app," {
		t.Errorf("layout names %q, want the replaced app and one unnamed", got)
	}
	img, err := image.Pull(ctx, "oci:"+dir+":app", image.Options{})
	if err != nil || img.Labels["v"] != "2" {
		t.Fatalf("oci:%s:app holds %v, %v; want v=2", dir, img, err)
	}

	empty := t.TempDir()
	if _, err := image.Write(ctx, v1img, "oci:"+empty+":x", image.Options{}); err != nil {
		t.Errorf("empty directory: %v", err)
	}
	full := t.TempDir()
	writeFiles(t, full, map[string]string{"notes.txt": "mine"})
	_, err = image.Write(ctx, v1img, "oci:"+full+":x", image.Options{})
	if err == nil || err.Error() != full+" is not an OCI image layout (it has no index.json) and is not empty: name a new directory" {
		t.Errorf("non-empty directory: %v", err)
	}
	file := filepath.Join(full, "notes.txt")
	if _, err := image.Write(ctx, v1img, "oci:"+file, image.Options{}); err == nil || !strings.HasPrefix(err.Error(), "OCI layout "+file+": ") || strings.Count(err.Error(), file) != 1 {
		t.Errorf("file as layout: %v, want the path named once", err)
	}
}

func TestWriteRefusesReadOnlyAndBadTargets(t *testing.T) {
	img := imagetest.Image(t, nil, nil)
	for target, want := range map[string]string{
		"docker-archive:x.tar":  `cannot write image "docker-archive:x.tar": docker-archive: is read-only here; write to oci:DIR[:NAME]`,
		"oci:":                  `invalid image reference "oci:": write oci:PATH[:NAME]`,
		"busybox:latest":        "name the registry too",
		"example.com/UPPER:tag": `invalid image reference "example.com/UPPER:tag"`,
	} {
		if _, err := image.Write(context.Background(), img, target, image.Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", target, err, want)
		}
	}
}

// TestWriteRegistry pushes to loopback registries, with and without the
// credentials they ask for.
func TestWriteRegistry(t *testing.T) {
	imagetest.IsolateAuth(t)
	ctx := context.Background()
	img := imagetest.Image(t, map[string]string{"pushed": "yes"}, nil, imagetest.Layer(t, imagetest.Entry{Name: "f", Body: "x"}))
	open := imagetest.Registry(t, "", "") + "/app:1"
	if _, err := image.Write(ctx, img, open, image.Options{}); err != nil {
		t.Fatal(err)
	}
	if got, err := image.Pull(ctx, open, image.Options{}); err != nil || got.Labels["pushed"] != "yes" {
		t.Fatalf("pulled back %v, %v", got, err)
	}

	host := imagetest.Registry(t, "alice", "s3cret")
	private := host + "/app:1"
	_, err := image.Write(ctx, img, private, image.Options{})
	if err == nil || err.Error() != `failed to push image "`+private+`": `+host+` requires authentication: log in (podman login or docker login `+host+`) or point REGISTRY_AUTH_FILE at an auth file` {
		t.Errorf("anonymous push: %v", err)
	}
	wrong := staticKeychain{authn.FromConfig(authn.AuthConfig{Username: "alice", Password: "nope"})}
	if _, err := image.Write(ctx, img, private, image.Options{Keychain: wrong}); err == nil || !strings.Contains(err.Error(), "access denied by "+host) {
		t.Errorf("wrong credentials: %v", err)
	}
	authFile := filepath.Join(t.TempDir(), "auth.json")
	writeAuthFile(t, authFile, host, "alice", "s3cret")
	t.Setenv("REGISTRY_AUTH_FILE", authFile)
	if _, err := image.Write(ctx, img, private, image.Options{}); err != nil {
		t.Errorf("push with REGISTRY_AUTH_FILE: %v", err)
	}
	if _, err := image.Write(ctx, img, "127.0.0.1:1/app:1", image.Options{}); err == nil || !strings.HasPrefix(err.Error(), `failed to push image "127.0.0.1:1/app:1": `) {
		t.Errorf("unreachable registry: %v", err)
	}
}

// staticKeychain gives the same credentials for every registry.
type staticKeychain struct{ auth authn.Authenticator }

func (k staticKeychain) Resolve(authn.Resource) (authn.Authenticator, error) { return k.auth, nil }

// TestWriteArchive: an image written to an OCI archive reads back; an
// existing archive is replaced whole; a failed write leaves nothing.
func TestWriteArchive(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "img.tar")
	for _, v := range []string{"1", "2"} {
		img := imagetest.Image(t, map[string]string{"v": v}, nil, imagetest.Layer(t, imagetest.Entry{Name: "f", Body: v}))
		if _, err := image.Write(ctx, img, "oci-archive:"+file+":app", image.Options{}); err != nil {
			t.Fatal(err)
		}
		got, err := image.Pull(ctx, "oci-archive:"+file+":app", image.Options{})
		if err != nil || got.Labels["v"] != v {
			t.Fatalf("read back %v, %v; want v=%s", got, err, v)
		}
	}
	img := imagetest.Image(t, nil, nil)
	if _, err := image.Write(ctx, img, "oci-archive:"+dir, image.Options{}); err == nil || !strings.Contains(err.Error(), "it is a directory") {
		t.Errorf("archive over a directory: %v", err)
	}
	if _, err := image.Write(ctx, img, "oci-archive:"+filepath.Join(dir, "missing", "x.tar"), image.Options{}); err == nil {
		t.Error("archive in a missing directory: no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left beside the archive: %v", entries)
	}
}
