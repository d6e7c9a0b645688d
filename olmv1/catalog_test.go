package olmv1

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/registryv1"
	"github.com/fbcat/opm/render"
)

func loadTestCatalog(t *testing.T) *Catalog {
	t.Helper()
	c, err := LoadCatalog(context.Background(), render.Renderer{}, "testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestResolve(t *testing.T) {
	c := loadTestCatalog(t)
	for _, tc := range []struct {
		sel  Selection
		want string // bundle name, or an error's text after "!"
	}{
		{Selection{Package: "service-binding-operator"}, "service-binding-operator.v1.0.2"},
		{Selection{Package: "service-binding-operator", Channels: []string{"candidate"}}, "service-binding-operator.v1.0.1"},
		{Selection{Package: "service-binding-operator", Version: "<1.0.2"}, "service-binding-operator.v1.0.1"},
		{Selection{Package: "service-binding-operator", Version: "1.0.x", Channels: []string{"stable"}}, "service-binding-operator.v1.0.2"},
		{Selection{Package: "service-binding-operator", Version: ">=2.0.0"}, "!no bundle of package"},
		{Selection{Package: "service-binding-operator", Version: "a.b"}, "!invalid version"},
		{Selection{Package: "service-binding-operator", Channels: []string{"nope"}}, "!has no channel"},
		{Selection{Package: "nope"}, "!no package"},
	} {
		b, err := c.Resolve(tc.sel)
		if strings.HasPrefix(tc.want, "!") {
			if err == nil || !strings.Contains(err.Error(), tc.want[1:]) {
				t.Errorf("%+v: error %v, want %q", tc.sel, err, tc.want[1:])
			}
			continue
		}
		if err != nil || b.Name != tc.want {
			t.Errorf("%+v: %v, %v; want %s", tc.sel, b, err, tc.want)
		}
	}
}

func TestList(t *testing.T) {
	c := loadTestCatalog(t)
	l, err := c.List("", CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 3 || l[2].Package != "service-binding-operator" || len(l[2].Channels) != 2 {
		t.Fatalf("listing %+v", l)
	}
	stable := l[2].Channels[1]
	if stable.Name != "stable" || stable.Bundles[0].Version != "1.0.2" || stable.Bundles[0].ManifestsChecked || !stable.Bundles[1].ManifestsChecked {
		t.Errorf("stable %+v", stable)
	}
	if pel := l[1].Channels[0].Bundles[0]; pel.Installable || len(pel.Reasons) != 3 {
		t.Errorf("pelorus %+v", pel)
	}
	if l, err = c.List("service-binding-operator", CheckOptions{NoWebhooks: true}); err != nil || len(l) != 1 || l[0].Channels[0].Bundles[0].Installable {
		t.Errorf("NoWebhooks listing %+v, %v", l, err)
	}
	if _, err := c.List("nope", CheckOptions{}); err == nil {
		t.Error("unknown package listed")
	}
}

func TestLoadCatalogRefusesBundles(t *testing.T) {
	if _, err := LoadCatalog(context.Background(), render.Renderer{}, "../testdata/bundles/pelorus-operator_0.0.2"); err == nil {
		t.Error("a bundle loaded as a catalog")
	}
}

func TestInstall(t *testing.T) {
	c := loadTestCatalog(t)
	mb, err := c.Resolve(Selection{Package: "ack-ecrpublic-controller"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := BundleFromDeclcfg(mb.Decl)
	if err != nil {
		t.Fatal(err)
	}
	in, err := Install(b, InstallOptions{Namespace: "ack", Selection: Selection{Channels: []string{"alpha"}}})
	if err != nil {
		t.Fatal(err)
	}
	out := yamlOf(t, in.Objects)
	golden(t, "ack-ecrpublic-controller.install.yaml", out)
	if in.Objects[0].Kind() != "Namespace" || in.Objects[len(in.Objects)-1].Kind() != "ClusterExtension" {
		t.Errorf("order: first %s, last %s", in.Objects[0], in.Objects[len(in.Objects)-1])
	}
	ext := in.Objects[len(in.Objects)-1].Value
	for path, want := range map[string]string{
		"spec.namespace": "ack", "spec.serviceAccount.name": "ack-ecrpublic-controller-installer",
		"spec.source.sourceType": "Catalog", "spec.source.catalog.packageName": "ack-ecrpublic-controller",
		"spec.source.catalog.version": "1.0.14", "metadata.name": "ack-ecrpublic-controller",
	} {
		if got := ext.At(strings.Split(path, ".")...); got == nil || got.Str != want {
			t.Errorf("%s = %v, want %s", path, got, want)
		}
	}
	// The same bundle read from its directory gives the same stream.
	dir, err := Install(mustBundle(t, "../testdata/bundles/ack-ecrpublic-controller_1.0.14"), InstallOptions{Namespace: "ack", Selection: Selection{Channels: []string{"alpha"}}})
	if err != nil {
		t.Fatal(err)
	}
	if string(yamlOf(t, dir.Objects)) != string(out) {
		t.Error("the catalog's bundle and the bundle directory install differently")
	}
}

func TestInstallRefusesUnsupported(t *testing.T) {
	b := mustBundle(t, "../testdata/bundles/pelorus-operator_0.0.2")
	_, err := Install(b, InstallOptions{Namespace: "p", Selection: Selection{Version: ">=0.0.1"}})
	var u *UnsupportedError
	if !errors.As(err, &u) {
		t.Fatalf("error %v", err)
	}
	in, err := Install(testBundle(t, modesOwn, false, nil), InstallOptions{Namespace: "ops", WatchNamespace: "team", ExtensionName: "demo", Selection: Selection{Version: "1.x"}})
	if err != nil {
		t.Fatal(err)
	}
	ext := in.Objects[len(in.Objects)-1].Value
	if ext.At("spec", "config", "inline", "watchNamespace").Str != "team" || ext.At("spec", "source", "catalog", "version").Str != "1.x" {
		t.Errorf("extension %s", yamlOf(t, in.Objects[len(in.Objects)-1:]))
	}
	if !strings.Contains(NotesText(in.Notes), "# ") {
		t.Error("no notes")
	}
}

func TestVersionRange(t *testing.T) {
	for _, tc := range []struct {
		rng  string
		in   []string
		out  []string
		fail bool
	}{
		{rng: "1.2.3", in: []string{"1.2.3"}, out: []string{"1.2.4", "1.2.3-rc1"}},
		{rng: "=1.2", in: []string{"1.2.0", "1.2.9"}, out: []string{"1.3.0"}},
		{rng: "!=1.2.3", in: []string{"1.2.4"}, out: []string{"1.2.3"}},
		{rng: ">1.2.3", in: []string{"1.2.4"}, out: []string{"1.2.3"}},
		{rng: ">1.2", in: []string{"1.3.0"}, out: []string{"1.2.5"}},
		{rng: ">= 1.2.3, < 2", in: []string{"1.2.3", "1.9.0"}, out: []string{"2.0.0", "1.2.2"}},
		{rng: "<=1.2", in: []string{"1.2.9"}, out: []string{"1.3.0"}},
		{rng: "=<1.2.3", in: []string{"1.2.3"}, out: []string{"1.2.4"}},
		{rng: "~1.2.3", in: []string{"1.2.9"}, out: []string{"1.3.0", "1.2.2"}},
		{rng: "~1", in: []string{"1.9.0"}, out: []string{"2.0.0"}},
		{rng: "^1.2.3", in: []string{"1.9.0"}, out: []string{"2.0.0"}},
		{rng: "^0.2.3", in: []string{"0.2.9"}, out: []string{"0.3.0"}},
		{rng: "^0.0.3", in: []string{"0.0.3"}, out: []string{"0.0.4"}},
		{rng: "^0.0", in: []string{"0.0.9"}, out: []string{"0.1.0"}},
		{rng: "1.2 - 1.4", in: []string{"1.2.0", "1.4.9"}, out: []string{"1.5.0"}},
		{rng: "1.x || >=3.0.0", in: []string{"1.5.0", "3.1.0"}, out: []string{"2.0.0"}},
		{rng: "*", in: []string{"9.9.9"}, out: []string{"1.0.0-alpha"}},
		{rng: ">=1.0.0-alpha", in: []string{"1.0.0-beta"}},
		{rng: "v1.2.3", in: []string{"1.2.3"}},
		{rng: "%1", fail: true},
		{rng: "1.2.3.4", fail: true},
		{rng: "", in: []string{"0.0.1", "1.0.0-alpha"}},
		{rng: "1.2.3-!", fail: true},
	} {
		r, err := parseVersionRange(tc.rng)
		if tc.fail {
			if err == nil {
				t.Errorf("%q parsed", tc.rng)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.rng, err)
			continue
		}
		for _, v := range tc.in {
			if !r.contains(semver.MustParse(v)) {
				t.Errorf("%q does not contain %s", tc.rng, v)
			}
		}
		for _, v := range tc.out {
			if r.contains(semver.MustParse(v)) {
				t.Errorf("%q contains %s", tc.rng, v)
			}
		}
	}
}

// A catalog read from a catalogd-style HTTP API equals the directory.
func TestLoadCatalogHTTP(t *testing.T) {
	var stream []byte
	for _, f := range []string{"ack-ecrpublic-controller/package.yaml", "ack-ecrpublic-controller/bundle.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata/catalog", f))
		if err != nil {
			t.Fatal(err)
		}
		stream = append(stream, data...)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/catalogs/test/api/v1/all" {
			http.NotFound(w, r)
			return
		}
		w.Write(stream)
	}))
	defer srv.Close()
	c, err := LoadCatalog(context.Background(), render.Renderer{}, srv.URL+"/catalogs/test")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := c.Resolve(Selection{Package: "ack-ecrpublic-controller"}); err != nil || b.Name != "ack-ecrpublic-controller.v1.0.14" {
		t.Errorf("resolved %v, %v", b, err)
	}
	if _, err := LoadCatalog(context.Background(), render.Renderer{}, srv.URL+"/catalogs/other/api/v1/all"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("error %v", err)
	}
}

// The verdict's part of olm.csv.metadata reads as decoding the whole
// value reads it.
func TestParseVerdictMetadata(t *testing.T) {
	cfg, err := declcfg.LoadFS(context.Background(), os.DirFS("../testdata/catalog"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range cfg.Bundles {
		for _, p := range b.Properties {
			if p.Type != declcfg.PropertyCSVMetadata {
				continue
			}
			n++
			got, err := parseVerdictMetadata(p.Value)
			whole, err2 := declcfg.ParsePropertyValue[registryv1.Metadata](p.Value)
			if err != nil || err2 != nil || !reflect.DeepEqual(got.InstallModes, whole.InstallModes) || !reflect.DeepEqual(got.APIServiceDefinitions, whole.APIServiceDefinitions) {
				t.Errorf("%s: %v %v: %+v", b.Name, err, err2, got)
			}
		}
	}
	if n == 0 {
		t.Fatal("no olm.csv.metadata in ../testdata/catalog")
	}
	for _, bad := range []string{`[]`, `{"installModes": {}}`, `{"installModes": [`} {
		if _, err := parseVerdictMetadata([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestListUnreadableBundle: a bundle with neither objects nor CSV
// metadata is listed as unreadable, with why, and the other packages are
// still judged.
func TestListUnreadableBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "catalog")
	if err := os.CopyFS(dir, os.DirFS("testdata/catalog")); err != nil {
		t.Fatal(err)
	}
	bare := "schema: olm.bundle\nname: pelorus-operator.v0.0.2\npackage: pelorus-operator\nimage: quay.io/example/pelorus-operator-bundle:v0.0.2\n" +
		"properties:\n- type: olm.package\n  value: {packageName: pelorus-operator, version: 0.0.2}\n"
	if err := os.WriteFile(filepath.Join(dir, "pelorus-operator", "bundle.yaml"), []byte(bare), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCatalog(context.Background(), render.Renderer{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List("", CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 3 {
		t.Fatalf("listing %+v", l)
	}
	pel := l[1].Channels[0].Bundles[0]
	if pel.Installable || !strings.Contains(pel.Unreadable, "bundle.yaml:1: bundle \"pelorus-operator.v0.0.2\" carries neither olm.bundle.object nor olm.csv.metadata") {
		t.Errorf("pelorus %+v", pel)
	}
	if ack := l[0].Channels[0].Bundles[0]; !ack.Installable || ack.Unreadable != "" {
		t.Errorf("ack %+v", ack)
	}
	if n := Unjudged(l); n != 1 {
		t.Errorf("Unjudged = %d, want 1", n)
	}
}
