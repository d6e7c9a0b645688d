package list

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

// csvObject is an olm.bundle.object value holding a CSV with displayName.
func csvObject(displayName string) string {
	csv := `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"x"},"spec":{"displayName":"` + displayName + `"}}`
	return `{"data":"` + base64.StdEncoding.EncodeToString([]byte(csv)) + `"}`
}

// listCatalog writes a small valid catalog: package foo (two channels,
// a head with a CSV object) and package bar (no CSV objects at all).
func listCatalog(t *testing.T) string {
	t.Helper()
	foo := `{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[
  {"name":"foo.v2","replaces":"foo.v1","skips":["foo.v0a","foo.v0b"],"skipRange":"<0.2.0"},
  {"name":"foo.v1"}]}
{"schema":"olm.channel","package":"foo","name":"beta","entries":[{"name":"foo.v1"}]}
{"schema":"olm.bundle","package":"foo","name":"foo.v1","image":"example.com/foo:v1","properties":[
  {"type":"olm.package","value":{"packageName":"foo","version":"0.1.0"}},
  {"type":"olm.bundle.object","value":` + csvObject("Old Foo") + `}]}
{"schema":"olm.bundle","package":"foo","name":"foo.v2","image":"example.com/foo:v2","properties":[
  {"type":"olm.package","value":{"packageName":"foo","version":"0.2.0"}},
  {"type":"olm.bundle.object","value":` + csvObject("Foo Operator") + `}]}
`
	bar := `{"schema":"olm.package","name":"bar","defaultChannel":"alpha"}
{"schema":"olm.channel","package":"bar","name":"alpha","entries":[{"name":"bar.v1"}]}
{"schema":"olm.bundle","package":"bar","name":"bar.v1","image":"example.com/bar:v1","properties":[
  {"type":"olm.package","value":{"packageName":"bar","version":"1.0.0"}}]}
`
	dir := t.TempDir()
	for name, body := range map[string]string{"foo/catalog.json": foo, "bar/catalog.json": bar} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func loadList(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load(context.Background(), &render.Renderer{}, listCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPackagesTable(t *testing.T) {
	rows := loadList(t).Packages()
	want := []Package{
		{Name: "bar", DefaultChannel: "alpha"},
		{Name: "foo", DisplayName: "Foo Operator", DefaultChannel: "stable"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("Packages() = %+v, want %+v (display name from the default channel head's CSV)", rows, want)
	}
	var buf bytes.Buffer
	if err := WritePackages(&buf, rows); err != nil {
		t.Fatal(err)
	}
	wantOut := "NAME  DISPLAY NAME  DEFAULT CHANNEL\n" +
		"bar                 alpha\n" +
		"foo   Foo Operator  stable\n"
	if buf.String() != wantOut {
		t.Errorf("got:\n%q\nwant:\n%q", buf.String(), wantOut)
	}
}

func TestChannelsTable(t *testing.T) {
	c := loadList(t)
	all, err := c.Channels("")
	if err != nil {
		t.Fatal(err)
	}
	want := []Channel{
		{Package: "bar", Name: "alpha", Head: "bar.v1"},
		{Package: "foo", Name: "beta", Head: "foo.v1"},
		{Package: "foo", Name: "stable", Head: "foo.v2"},
	}
	if !reflect.DeepEqual(all, want) {
		t.Fatalf("Channels(\"\") = %+v, want %+v", all, want)
	}
	one, err := c.Channels("foo")
	if err != nil || !reflect.DeepEqual(one, want[1:]) {
		t.Errorf("Channels(foo) = %+v, %v; want %+v", one, err, want[1:])
	}
	var buf bytes.Buffer
	if err := WriteChannels(&buf, all); err != nil {
		t.Fatal(err)
	}
	wantOut := "PACKAGE  CHANNEL  HEAD\n" +
		"bar      alpha    bar.v1\n" +
		"foo      beta     foo.v1\n" +
		"foo      stable   foo.v2\n"
	if buf.String() != wantOut {
		t.Errorf("got:\n%q\nwant:\n%q", buf.String(), wantOut)
	}
}

func TestUnknownPackage(t *testing.T) {
	c := loadList(t)
	for name, call := range map[string]func() error{
		"channels": func() error { _, err := c.Channels("nope"); return err },
		"bundles":  func() error { _, err := c.Bundles("nope"); return err },
	} {
		err := call()
		if err == nil || err.Error() != `package "nope" not found` {
			t.Errorf("%s: err = %v, want package \"nope\" not found", name, err)
		}
	}
}

// TestBundlesTable is loose about the table's columns so that new ones
// (DEPRECATED) need no change here.
func TestBundlesTable(t *testing.T) {
	rows, err := loadList(t).Bundles("foo")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Channel+"/"+r.Name+"@"+r.Image)
	}
	want := []string{"beta/foo.v1@example.com/foo:v1", "stable/foo.v1@example.com/foo:v1", "stable/foo.v2@example.com/foo:v2"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows %v, want %v (one per channel, sorted by channel then name)", got, want)
	}
	v2 := rows[2]
	if v2.Replaces != "foo.v1" || v2.SkipRange != "<0.2.0" || !reflect.DeepEqual(v2.Skips, []string{"foo.v0a", "foo.v0b"}) {
		t.Errorf("foo.v2 row %+v lost its upgrade edges", v2)
	}
	var buf bytes.Buffer
	if err := WriteBundles(&buf, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(strings.Join(strings.Fields(lines[0]), " "), "PACKAGE CHANNEL BUNDLE REPLACES SKIPS SKIP RANGE") {
		t.Fatalf("table:\n%s", buf.String())
	}
	if f := strings.Fields(lines[3]); len(f) < 7 || f[2] != "foo.v2" || f[4] != "foo.v0a,foo.v0b" {
		t.Errorf("foo.v2 line %q: want skips joined by commas", lines[3])
	}
}

func TestLoadRefusesBundlesAndMissingDirs(t *testing.T) {
	ctx := context.Background()
	bundle := "../../testdata/bundles/pelorus-operator_0.0.2"
	_, err := Load(ctx, &render.Renderer{}, bundle)
	if err == nil || !strings.Contains(err.Error(), `cannot list non-index "`+bundle+`"`) {
		t.Errorf("bundle dir: err = %v, want cannot list non-index", err)
	}
	missing := filepath.Join(t.TempDir(), "nothing")
	if _, err := Load(ctx, &render.Renderer{}, missing); err == nil || !strings.Contains(err.Error(), "nothing") {
		t.Errorf("missing dir: err = %v, want an error naming it", err)
	}
}

func TestDisplayName(t *testing.T) {
	prop := func(typ, value string) declcfg.Property {
		return declcfg.Property{Type: typ, Value: json.RawMessage(value)}
	}
	other := `{"data":"` + base64.StdEncoding.EncodeToString([]byte(`{"kind":"Service"}`)) + `"}`
	for _, tc := range []struct {
		name  string
		props []declcfg.Property
		want  string
	}{
		{"csv object", []declcfg.Property{prop("olm.bundle.object", other), prop("olm.bundle.object", csvObject("Foo"))}, "Foo"},
		{"csv metadata only", []declcfg.Property{prop("olm.csv.metadata", `{"displayName":"Meta"}`)}, ""},
		{"no csv among objects", []declcfg.Property{prop("olm.bundle.object", other)}, ""},
		{"undecodable object", []declcfg.Property{prop("olm.bundle.object", `{"data":"!!"}`)}, ""},
	} {
		if got := displayName(&declcfg.Bundle{Properties: tc.props}); got != tc.want {
			t.Errorf("%s: displayName = %q, want %q", tc.name, got, tc.want)
		}
	}
}
