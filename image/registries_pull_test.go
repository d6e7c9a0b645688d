package image_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/image/registries"
)

// unreachable is a registry nobody listens on.
const unreachable = "127.0.0.1:1"

// countingRegistry is an in-process registry on loopback that counts the
// requests it gets.
func countingRegistry(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	reg := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		reg.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), &hits
}

// registriesConf writes a registries.conf (HOST placeholders replaced) and
// returns options that honour it, with nothing of the environment.
func registriesConf(t *testing.T, text string, hosts ...string) image.Options {
	t.Helper()
	imagetest.IsolateAuth(t)
	file := filepath.Join(t.TempDir(), "registries.conf")
	r := strings.NewReplacer(hosts...)
	if err := os.WriteFile(file, []byte(r.Replace(text)), 0o644); err != nil {
		t.Fatal(err)
	}
	return image.Options{Registries: registries.New(registries.Paths{File: file, Required: true})}
}

// labelled pushes an image whose "from" label is from to ref, and
// returns its digest.
func labelled(t *testing.T, ref, from string) v1.Hash {
	t.Helper()
	img := imagetest.Image(t, map[string]string{"from": from}, nil)
	imagetest.Push(t, ref, img)
	d, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func pullFrom(t *testing.T, ref string, o image.Options) string {
	t.Helper()
	img, err := image.Pull(context.Background(), ref, o)
	if err != nil {
		t.Fatalf("Pull(%s): %v", ref, err)
	}
	return img.Labels["from"]
}

// TestMirrorOrder: mirrors are tried in order and the first that has the
// image is used; the primary location is not contacted then.
func TestMirrorOrder(t *testing.T) {
	empty, emptyHits := countingRegistry(t)
	mirror := imagetest.Registry(t, "", "")
	primary, primaryHits := countingRegistry(t)
	labelled(t, mirror+"/mirrored/app/img:v1", "mirror")
	labelled(t, primary+"/app/img:v1", "primary")
	emptyHits.Store(0)
	primaryHits.Store(0)
	o := registriesConf(t, `
[[registry]]
prefix = "quay.io/app"
location = "PRIMARY/app"
[[registry.mirror]]
location = "EMPTY/app"
[[registry.mirror]]
location = "MIRROR/mirrored/app"
`, "PRIMARY", primary, "EMPTY", empty, "MIRROR", mirror)
	if got := pullFrom(t, "quay.io/app/img:v1", o); got != "mirror" {
		t.Errorf("pulled the image from %s, want the second mirror", got)
	}
	if emptyHits.Load() == 0 {
		t.Error("the first mirror was not asked")
	}
	if n := primaryHits.Load(); n != 0 {
		t.Errorf("the primary location got %d requests, want none", n)
	}
}

// TestMirrorByReferenceKind: digest-only mirrors serve digest references
// only, tag-only mirrors tag references only.
func TestMirrorByReferenceKind(t *testing.T) {
	tests := []struct {
		name, settings string
		digest         bool
		wantMirror     bool
	}{
		{"digest-only, tag", `pull-from-mirror = "digest-only"`, false, false},
		{"digest-only, digest", `pull-from-mirror = "digest-only"`, true, true},
		{"tag-only, tag", `pull-from-mirror = "tag-only"`, false, true},
		{"tag-only, digest", `pull-from-mirror = "tag-only"`, true, false},
		{"all, tag", `pull-from-mirror = "all"`, false, true},
		{"all, digest", ``, true, true},
		{"mirror-by-digest-only, tag", `REGISTRY_DIGEST_ONLY`, false, false},
		{"mirror-by-digest-only, digest", `REGISTRY_DIGEST_ONLY`, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mirror, mirrorHits := countingRegistry(t)
			primary := imagetest.Registry(t, "", "")
			labelled(t, mirror+"/app:v1", "mirror")
			d := labelled(t, primary+"/app:v1", "primary")
			labelled(t, mirror+"/app:copy", "primary") // the mirror has the primary's image too
			mirrorHits.Store(0)
			regSetting, mirrorSetting := "", tt.settings
			if tt.settings == "REGISTRY_DIGEST_ONLY" {
				regSetting, mirrorSetting = "mirror-by-digest-only = true", ""
			}
			o := registriesConf(t, "[[registry]]\nprefix = \"quay.io/app\"\nlocation = \"PRIMARY/app\"\n"+regSetting+
				"\n[[registry.mirror]]\nlocation = \"MIRROR/app\"\n"+mirrorSetting+"\n", "PRIMARY", primary, "MIRROR", mirror)
			ref := "quay.io/app:v1"
			if tt.digest {
				ref = "quay.io/app@" + d.String()
			}
			got := pullFrom(t, ref, o)
			if used := mirrorHits.Load() > 0; used != tt.wantMirror {
				t.Errorf("mirror used: %v, want %v", used, tt.wantMirror)
			}
			if want := map[bool]string{true: "mirror", false: "primary"}[tt.wantMirror && !tt.digest]; got != want {
				t.Errorf("pulled the image labelled %s, want %s", got, want)
			}
		})
	}
}

// TestRemappedLocation: the prefix is replaced by the location, whatever
// follows it kept; docker.io's library namespace is written out.
func TestRemappedLocation(t *testing.T) {
	host := imagetest.Registry(t, "", "")
	labelled(t, host+"/internal/team/sub/img:v1", "team")
	labelled(t, host+"/hub/busybox:1", "hub")
	o := registriesConf(t, `
[[registry]]
prefix = "example.com/team"
location = "HOST/internal/team"

[[registry]]
prefix = "docker.io/library"
location = "HOST/hub"
`, "HOST", host)
	for ref, want := range map[string]string{
		"example.com/team/sub/img:v1": "team",
		"docker.io/library/busybox:1": "hub",
	} {
		if got := pullFrom(t, ref, o); got != want {
			t.Errorf("%s: pulled %q, want %q", ref, got, want)
		}
	}
}

// TestWildcardPrefix: *.example.com matches the subdomains' images, and
// a longer exact prefix wins over it; with no location, the wildcard
// table's mirrors are used before the reference itself.
func TestWildcardPrefix(t *testing.T) {
	host := imagetest.Registry(t, "", "")
	labelled(t, host+"/wild/ns/img:v1", "wildcard")
	labelled(t, host+"/exact/img:v1", "exact")
	labelled(t, host+"/wm/img:v1", "wildcard mirror")
	o := registriesConf(t, `
[[registry]]
prefix = "*.example.com"
location = "HOST/wild"

[[registry]]
prefix = "registry.b.example.com/team"
location = "HOST/exact"

[[registry]]
prefix = "*.example.org"
[[registry.mirror]]
location = "HOST/wm"
`, "HOST", host)
	for ref, want := range map[string]string{
		"a.example.com/ns/img:v1":            "wildcard",
		"x.y.example.com/ns/img:v1":          "wildcard",
		"registry.b.example.com/team/img:v1": "exact",
		"a.example.org/img:v1":               "wildcard mirror",
	} {
		if got := pullFrom(t, ref, o); got != want {
			t.Errorf("%s: pulled %q, want %q", ref, got, want)
		}
	}
}

// TestBlocked: a blocked registry is neither pulled from nor pushed to,
// and the error names it and the file.
func TestBlocked(t *testing.T) {
	host, hits := countingRegistry(t)
	labelled(t, host+"/app:v1", "blocked")
	hits.Store(0)
	o := registriesConf(t, "[[registry]]\nlocation = \"HOST\"\nblocked = true\n", "HOST", host)
	file := o.Registries.Paths().File
	_, err := image.Pull(context.Background(), host+"/app:v1", o)
	if err == nil || !strings.Contains(err.Error(), "registry "+host+" is blocked in "+file) {
		t.Errorf("pull: %v, want an error naming the registry and %s", err, file)
	}
	img := imagetest.Image(t, map[string]string{"from": "push"}, nil)
	_, err = image.Write(context.Background(), img, host+"/app:v2", o)
	if err == nil || !strings.Contains(err.Error(), "cannot push image") || !strings.Contains(err.Error(), "is blocked in "+file) {
		t.Errorf("push: %v, want an error naming the registry and %s", err, file)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the blocked registry got %d requests, want none", n)
	}
}

// TestAllSourcesFail: the error names every location tried, in order,
// with why each failed; when none had the image it is a MissingError.
func TestAllSourcesFail(t *testing.T) {
	empty := imagetest.Registry(t, "", "")
	primary := imagetest.Registry(t, "", "")
	o := registriesConf(t, `
[[registry]]
prefix = "quay.io/app"
location = "PRIMARY/app"
[[registry.mirror]]
location = "EMPTY/m"
[[registry.mirror]]
location = "DOWN/m"
`, "PRIMARY", primary, "EMPTY", empty, "DOWN", unreachable)
	_, err := image.Pull(context.Background(), "quay.io/app/img:v1", o)
	var me *image.MissingError
	if !errors.As(err, &me) || me.Registry != primary {
		t.Fatalf("error %v, want a MissingError for %s", err, primary)
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		`failed to pull image "quay.io/app/img:v1" from any of the locations that registries configuration ` + o.Registries.Paths().File + ` gives it ([[registry]] prefix quay.io/app):`,
		"  mirror " + empty + "/m/img:v1: image not found in " + empty + ": check the repository and tag",
		"  mirror " + unreachable + "/m/img:v1: cannot reach registry " + unreachable + ": ",
		"  location " + primary + "/app/img:v1: image not found in " + primary + ": check the repository and tag",
	}
	if len(lines) != len(want) {
		t.Fatalf("error has %d lines, want %d:\n%v", len(lines), len(want), err)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d:\n%s\nwant it to start with\n%s", i+1, lines[i], want[i])
		}
	}
}

// TestMirrorPlatformAndCache: through a mirror, the platform is picked
// from an index, the layers come from the mirror and are cached.
func TestMirrorPlatformAndCache(t *testing.T) {
	mirror := imagetest.Registry(t, "", "")
	amd := imagetest.Image(t, map[string]string{"from": "amd64"}, nil, imagetest.Layer(t, imagetest.Entry{Name: "configs/a.json", Body: "amd64"}))
	arm := imagetest.Image(t, map[string]string{"from": "arm64"}, &v1.Platform{OS: "linux", Architecture: "arm64"},
		imagetest.Layer(t, imagetest.Entry{Name: "configs/a.json", Body: "arm64"}))
	imagetest.PushIndex(t, mirror+"/m/multi:1", amd, arm)
	o := registriesConf(t, "[[registry]]\nprefix = \"quay.io/app\"\nlocation = \"DOWN/app\"\n[[registry.mirror]]\nlocation = \"MIRROR/m\"\n",
		"MIRROR", mirror, "DOWN", unreachable)
	o.Platform = &v1.Platform{OS: "linux", Architecture: "arm64"}
	o.CacheDir = t.TempDir()
	img, err := image.Pull(context.Background(), "quay.io/app/multi:1", o)
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := img.Extract(context.Background(), dst, "configs"); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "configs", "a.json")); err != nil || string(data) != "arm64" {
		t.Errorf("extracted %q, %v; want the arm64 layer", data, err)
	}
	if cached, _ := filepath.Glob(filepath.Join(o.CacheDir, "sha256", "*")); len(cached) != 1 {
		t.Errorf("cache holds %v, want the one layer", cached)
	}
}

// TestPushNotRedirected: as in containers/image, a push goes to the
// reference as written, not to the table's location or mirrors.
func TestPushNotRedirected(t *testing.T) {
	host := imagetest.Registry(t, "", "")
	o := registriesConf(t, "[[registry]]\nprefix = \"HOST/app\"\nlocation = \"DOWN/app\"\n[[registry.mirror]]\nlocation = \"DOWN/m\"\n",
		"HOST", host, "DOWN", unreachable)
	img := imagetest.Image(t, map[string]string{"from": "pushed"}, nil)
	if _, err := image.Write(context.Background(), img, host+"/app/x:1", o); err != nil {
		t.Fatalf("push: %v", err)
	}
	if got := pullFrom(t, host+"/app/x:1", image.Options{}); got != "pushed" {
		t.Errorf("pulled %q from the reference as written", got)
	}
}

// TestBlockedMirror: a mirror whose own registry is blocked is not
// contacted; the next source is.
func TestBlockedMirror(t *testing.T) {
	mirror, mirrorHits := countingRegistry(t)
	primary := imagetest.Registry(t, "", "")
	labelled(t, mirror+"/app:v1", "mirror")
	labelled(t, primary+"/app:v1", "primary")
	mirrorHits.Store(0)
	o := registriesConf(t, `
[[registry]]
prefix = "quay.io/app"
location = "PRIMARY/app"
[[registry.mirror]]
location = "MIRROR/app"

[[registry]]
location = "MIRROR"
blocked = true
`, "PRIMARY", primary, "MIRROR", mirror)
	if got := pullFrom(t, "quay.io/app:v1", o); got != "primary" {
		t.Errorf("pulled %q, want the primary's image", got)
	}
	if n := mirrorHits.Load(); n != 0 {
		t.Errorf("the blocked mirror got %d requests", n)
	}
}
