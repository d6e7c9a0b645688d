package registries

import (
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/distribution/reference"
)

// sourcesConf is a configuration with mirrors of every pull-from-mirror
// setting, a digest-only registry, a wildcard and a blocked mirror.
const sourcesConf = `
[[registry]]
prefix = "quay.io/app"
location = "primary.test/app"
[[registry.mirror]]
location = "all.test/m"
[[registry.mirror]]
location = "digest.test/m"
pull-from-mirror = "digest-only"
[[registry.mirror]]
location = "tag.test/m"
pull-from-mirror = "tag-only"
insecure = true
[[registry.mirror]]
location = "bad.test/m"

[[registry]]
prefix = "quay.io/pinned"
location = "quay.io/pinned"
mirror-by-digest-only = true
insecure = true
[[registry.mirror]]
location = "pinned.test/p"

[[registry]]
prefix = "*.example.com"
[[registry.mirror]]
location = "wild.test"

[[registry]]
location = "bad.test"
blocked = true
`

const digest = "@sha256:0000000000000000000000000000000000000000000000000000000000000000"

// TestSources: mirrors first, each as its settings allow, then the
// primary location; the reference rewritten for each; a source in a
// blocked registry names the file that blocks it.
func TestSources(t *testing.T) {
	file := writeFile(t, filepath.Join(t.TempDir(), "registries.conf"), sourcesConf)
	c := New(Paths{File: file, Required: true})
	tests := []struct {
		ref  string
		want []string
	}{
		{"quay.io/app/img:v1", []string{
			"all.test/m/img:v1 mirror", "tag.test/m/img:v1 mirror insecure", "bad.test/m/img:v1 mirror blocked", "primary.test/app/img:v1"}},
		{"quay.io/app/img" + digest, []string{
			"all.test/m/img" + digest + " mirror", "digest.test/m/img" + digest + " mirror", "bad.test/m/img" + digest + " mirror blocked", "primary.test/app/img" + digest}},
		{"quay.io/pinned/x:1", []string{"quay.io/pinned/x:1 insecure"}},
		{"quay.io/pinned/x" + digest, []string{"pinned.test/p/x" + digest + " mirror", "quay.io/pinned/x" + digest + " insecure"}},
		{"a.example.com/x/y:2", []string{"wild.test/x/y:2 mirror", "a.example.com/x/y:2"}},
	}
	for _, tt := range tests {
		named, err := reference.ParseNamed(tt.ref)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := c.Lookup(named.Name())
		if err != nil || reg == nil {
			t.Fatalf("Lookup(%s) = %v, %v", named.Name(), reg, err)
		}
		sources, err := c.Sources(reg, named)
		if err != nil {
			t.Fatalf("%s: %v", tt.ref, err)
		}
		var got []string
		for _, s := range sources {
			g := s.Ref
			if s.Mirror {
				g += " mirror"
			}
			if s.Insecure {
				g += " insecure"
			}
			if s.BlockedBy == file {
				g += " blocked"
			}
			got = append(got, g)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: sources\n%s\nwant\n%s", tt.ref, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

// TestLookup: the governing table, none for other registries, and the
// error of a broken file.
func TestLookup(t *testing.T) {
	dir := t.TempDir()
	c := New(Paths{File: writeFile(t, filepath.Join(dir, "registries.conf"), sourcesConf)})
	if reg, err := c.Lookup("bad.test/x"); err != nil || reg == nil || !reg.Blocked || reg.Prefix != "bad.test" {
		t.Errorf("Lookup(bad.test/x) = %+v, %v; want the blocked table", reg, err)
	}
	if reg, err := c.Lookup("docker.io/library/x"); err != nil || reg != nil {
		t.Errorf("Lookup(docker.io/library/x) = %+v, %v; want none", reg, err)
	}
	var nilConf *Config
	if reg, err := nilConf.Lookup("quay.io/app/x"); err != nil || reg != nil {
		t.Errorf("nil Config: %+v, %v", reg, err)
	}
	if p := nilConf.Paths(); !reflect.DeepEqual(p, Paths{}) {
		t.Errorf("nil Config's paths: %+v", p)
	}
	broken := New(Paths{File: writeFile(t, filepath.Join(dir, "broken.conf"), "[[registry]\n")})
	if _, err := broken.Lookup("quay.io/app/x"); err == nil || !strings.Contains(err.Error(), "broken.conf") {
		t.Errorf("broken file: %v", err)
	}
}

// TestFromEnv: the configuration of the file CONTAINERS_REGISTRIES_CONF
// names.
func TestFromEnv(t *testing.T) {
	file := filepath.Join(t.TempDir(), "registries.conf")
	t.Setenv(ConfEnv, file)
	if got := FromEnv().Paths(); got.File != file || !got.Required {
		t.Errorf("paths %+v, want %s, required", got, file)
	}
}

// TestSkipVerify: an *http.Transport gets one copy without TLS
// verification, reused; other transports and nil configurations are
// left alone.
func TestSkipVerify(t *testing.T) {
	c := New(Paths{})
	base := &http.Transport{}
	a := c.SkipVerify(base)
	ha, ok := a.(*http.Transport)
	if !ok || ha == base || ha.TLSClientConfig == nil || !ha.TLSClientConfig.InsecureSkipVerify {
		t.Fatalf("SkipVerify gave %#v", a)
	}
	if base.TLSClientConfig != nil && base.TLSClientConfig.InsecureSkipVerify {
		t.Error("the original transport stopped verifying TLS")
	}
	if b := c.SkipVerify(base); b != a {
		t.Error("a second call made another copy: connections would not be reused")
	}
	other := http.RoundTripper(roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil }))
	if got := c.SkipVerify(other); reflect.ValueOf(got).Pointer() != reflect.ValueOf(other).Pointer() {
		t.Error("a transport that is no *http.Transport was replaced")
	}
	var nilConf *Config
	if got := nilConf.SkipVerify(base); got != base {
		t.Error("a nil Config changed the transport")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
