package model

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

func channel(entries ...declcfg.ChannelEntry) *Channel {
	p := newPackage("p", &declcfg.Package{Name: "p"})
	return NewChannel(p, &declcfg.Channel{Name: "c", Package: "p", Entries: entries})
}

func TestHead(t *testing.T) {
	type e = declcfg.ChannelEntry
	tests := []struct {
		ch      *Channel
		head    string
		wantErr string
	}{
		{channel(e{Name: "a"}), "a", ""},
		{channel(e{Name: "a"}, e{Name: "b", Replaces: "a"}), "b", ""},
		{channel(e{Name: "a"}, e{Name: "c", Skips: []string{"a"}, Replaces: "gone"}), "c", ""},
		{channel(e{Name: "b"}, e{Name: "a"}), "", "multiple channel heads found in graph: a, b"},
		{channel(e{Name: "a", Replaces: "b"}, e{Name: "b", Replaces: "a"}), "", "no channel head found in graph"},
		{channel(e{Name: "a"}, e{Name: ""}), "a", ""},
	}
	for _, tt := range tests {
		head, err := tt.ch.Head()
		if head != tt.head || (err == nil) != (tt.wantErr == "") || err != nil && err.Error() != tt.wantErr {
			t.Errorf("Head(%+v) = %q, %v; want %q, %q", tt.ch.Decl.Entries, head, err, tt.head, tt.wantErr)
		}
	}
}

func TestGraph(t *testing.T) {
	type e = declcfg.ChannelEntry
	tests := []struct {
		name     string
		ch       *Channel
		chain    []string
		cycle    bool
		stranded []string
	}{
		{"replaces chain", channel(e{Name: "c", Replaces: "b"}, e{Name: "b", Replaces: "a"}, e{Name: "a", Replaces: "gone"}), []string{"c", "b", "a"}, false, nil},
		{"skips", channel(e{Name: "c", Skips: []string{"a", "b"}}, e{Name: "b"}, e{Name: "a"}), []string{"c"}, false, nil},
		{"stranded", channel(e{Name: "c", Replaces: "b"}, e{Name: "b"}, e{Name: "x"}, e{Name: "y", Replaces: "x"}, e{Name: "z", Skips: []string{"y"}, Replaces: "c"}), []string{"z", "c", "b"}, false, []string{"x"}},
		// Upstream stops at a bundle the head both replaces and skips, so
		// what that bundle replaces is stranded.
		{"replaced and skipped", channel(e{Name: "c", Replaces: "b", Skips: []string{"b"}}, e{Name: "b", Replaces: "a"}, e{Name: "a"}), []string{"c"}, false, []string{"a"}},
		{"cycle", channel(e{Name: "d", Replaces: "c"}, e{Name: "c", Replaces: "b"}, e{Name: "b", Replaces: "c"}), []string{"d", "c", "b", "c"}, true, nil},
	}
	for _, tt := range tests {
		g, err := tt.ch.Graph()
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !slices.Equal(g.Chain, tt.chain) || g.Cycle != tt.cycle || !slices.Equal(g.Stranded, tt.stranded) {
			t.Errorf("%s: got chain %v cycle %v stranded %v; want %v %v %v", tt.name, g.Chain, g.Cycle, g.Stranded, tt.chain, tt.cycle, tt.stranded)
		}
	}
}

func bundle(name, pkg, version string, props ...declcfg.Property) declcfg.Bundle {
	v, _ := json.Marshal(declcfg.PackageProperty{PackageName: pkg, Version: version})
	return declcfg.Bundle{Name: name, Package: pkg, Properties: append([]declcfg.Property{{Type: declcfg.PropertyPackage, Value: v}}, props...)}
}

func TestNew(t *testing.T) {
	at := func(file string, line int) declcfg.Pos { return declcfg.Pos{File: file, Line: line} }
	cfg := &declcfg.DeclarativeConfig{
		Packages: []declcfg.Package{
			{Name: "foo", DefaultChannel: "stable", Pos: at("a.yaml", 1)},
			{Name: "foo", Pos: at("b.yaml", 1)},
		},
		Channels: []declcfg.Channel{
			{Name: "stable", Package: "foo", Entries: []declcfg.ChannelEntry{{Name: "foo.v2", Replaces: "foo.v1"}, {Name: "foo.v1"}}, Pos: at("a.yaml", 5)},
			{Name: "beta", Package: "foo", Entries: []declcfg.ChannelEntry{{Name: "foo.v2"}}, Pos: at("a.yaml", 9)},
			{Name: "stable", Package: "foo", Pos: at("b.yaml", 5)},
			{Name: "x", Package: "nope", Pos: at("c.yaml", 1)},
			{Name: "x", Package: "vouched", Pos: at("c.yaml", 5)},
		},
		Bundles: []declcfg.Bundle{
			bundle("foo.v1", "foo", "1.0.0"),
			bundle("foo.v2", "foo", "2.0.0", declcfg.Property{Type: declcfg.PropertyGVK, Value: json.RawMessage(`{"group":"g","kind":"K","version":"v1"}`)}),
		},
		Deprecations: []declcfg.Deprecation{{Package: "foo", Entries: []declcfg.DeprecationEntry{
			{Reference: declcfg.PackageScopedReference{Schema: declcfg.SchemaChannel, Name: "beta"}, Message: "use stable"},
		}}},
		Others: []declcfg.Meta{{Schema: "x.y", Package: "foo"}, {Schema: "x.y"}},
	}
	c, problems := New(cfg, Options{PackageExists: func(name string) bool { return name == "vouched" }})
	var msgs []string
	for _, p := range problems {
		msgs = append(msgs, p.Error())
	}
	want := []string{
		`b.yaml:1: package "foo": duplicate olm.package blob for package "foo" (it is first defined at a.yaml:1); keep one`,
		`b.yaml:5: channel "stable" (package "foo"): duplicate channel "stable" in package "foo" (it is first defined at a.yaml:5); merge the two`,
		`c.yaml:1: channel "x" (package "nope"): package "nope" is not defined: add an olm.package blob named "nope" or fix the channel's package`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	if got := c.PackageNames(); !slices.Equal(got, []string{"foo", "vouched"}) {
		t.Errorf("packages %v", got)
	}
	if c.Packages["vouched"].Decl != nil || c.Packages["vouched"].Channels["x"] == nil {
		t.Error("a vouched-for package is not indexed as such")
	}
	foo := c.Packages["foo"]
	if foo.DefaultChannel().Name != "stable" {
		t.Error("default channel")
	}
	var in []string
	for _, ch := range foo.Bundles["foo.v2"].Channels {
		in = append(in, ch.Name)
	}
	if !slices.Equal(in, []string{"beta", "stable"}) {
		t.Errorf("foo.v2 is in channels %v", in)
	}
	if msg, ok := foo.Deprecated(declcfg.SchemaChannel, "beta"); !ok || msg != "use stable" {
		t.Errorf("deprecation of beta: %q %v", msg, ok)
	}
	if _, ok := foo.Deprecated(declcfg.SchemaPackage, ""); ok {
		t.Error("package reported deprecated")
	}
	if got := foo.Bundles["foo.v2"].ProvidedAPIs(); len(got) != 1 || got[0] != (GVK{"g", "v1", "K"}) {
		t.Errorf("provided APIs %v", got)
	}
	if len(c.Others["foo"]) != 1 || len(c.Others[""]) != 1 {
		t.Errorf("others %v", c.Others)
	}
	if e := foo.Channels["stable"].Entry("foo.v2"); e == nil || e.Replaces != "foo.v1" {
		t.Errorf("entry %+v", e)
	}
}

func TestVersionCompare(t *testing.T) {
	ordered := []struct{ version, release string }{
		{"1.0.0-alpha", ""}, {"1.0.0", ""}, {"1.0.0", "1"}, {"1.0.0", "2"}, {"1.0.0", "10"}, {"1.0.0", "10.a"}, {"1.0.1", ""},
	}
	var vs []Version
	for _, o := range ordered {
		b := Bundle{Decl: &declcfg.Bundle{}}
		raw, _ := json.Marshal(declcfg.PackageProperty{PackageName: "p", Version: o.version, Release: o.release})
		b.Decl.Properties = []declcfg.Property{{Type: declcfg.PropertyPackage, Value: raw}}
		v, err := b.Version()
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	for i := range vs {
		for j := range vs {
			if got, want := vs[i].Compare(vs[j]), cmp.Compare(i, j); got != want {
				t.Errorf("%s vs %s: %d, want %d", vs[i], vs[j], got, want)
			}
		}
	}
}

func TestVersionErrors(t *testing.T) {
	bundle := func(values ...string) *Bundle {
		d := &declcfg.Bundle{Name: "b", Package: "p", Pos: declcfg.Pos{File: "c.yaml", Line: 3}}
		for i, v := range values {
			d.Properties = append(d.Properties, declcfg.Property{Type: declcfg.PropertyPackage, Value: []byte(v), Line: 5 + i})
		}
		return &Bundle{Name: "b", Decl: d}
	}
	for _, c := range []struct {
		b    *Bundle
		want string
	}{
		{bundle(), `c.yaml:3: bundle "b" (package "p"): has no "olm.package" property; add {type: olm.package, value: {packageName: p, version: ...}}`},
		{bundle(`{"version":"1.0.0"}`, `{"version":"2.0.0"}`), `c.yaml:6: bundle "b" (package "p"): has 2 "olm.package" properties; keep one`},
		{bundle(`[]`), `c.yaml:5: bundle "b" (package "p"): cannot read its "olm.package" property: json: cannot unmarshal array into Go value of type declcfg.PackageProperty`},
		{bundle(`{"version":"v1.0.0"}`), `c.yaml:5: bundle "b" (package "p"): invalid version "v1.0.0" in its "olm.package" property: Invalid character(s) found in major number "v1" (write MAJOR.MINOR.PATCH, without a leading "v")`},
	} {
		_, err := c.b.Version()
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
		if _, ok := c.b.PackageProperty(); ok && !strings.Contains(c.want, "invalid version") {
			t.Errorf("PackageProperty ok for %s", c.want)
		}
	}
}
