package model

import (
	"maps"
	"slices"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// versioned is a channel whose bundles exist, with the versions 0.0.0,
// 0.0.1, ... in the order of the entries.
func versioned(entries ...declcfg.ChannelEntry) *Channel {
	ch := channel(entries...)
	for i, e := range entries {
		b := bundle(e.Name, "p", "0.0."+string(rune('0'+i)))
		ch.Package.Bundles[e.Name] = &Bundle{Name: e.Name, Package: ch.Package, Decl: &b}
	}
	return ch
}

func TestUnreachable(t *testing.T) {
	type e = declcfg.ChannelEntry
	tests := []struct {
		name string
		ch   *Channel
		want []string
	}{
		{"replaces chain", versioned(e{Name: "a"}, e{Name: "b", Replaces: "a"}, e{Name: "c", Replaces: "b"}), nil},
		{"skips", versioned(e{Name: "a"}, e{Name: "b"}, e{Name: "c", Skips: []string{"a", "b"}}), nil},
		// Only the head's skipRange (y is 0.0.1) leads out of the cycle
		// of y and w.
		{"skipRange", versioned(e{Name: "x"}, e{Name: "y", Replaces: "x", Skips: []string{"w"}}, e{Name: "w", Replaces: "y"}, e{Name: "h", SkipRange: ">=0.0.1 <0.0.2"}), nil},
		{"outside the range", versioned(e{Name: "x"}, e{Name: "y", Replaces: "x", Skips: []string{"w"}}, e{Name: "w", Replaces: "y"}, e{Name: "h", SkipRange: ">=0.0.4"}), []string{"w", "x", "y"}},
		{"two heads", versioned(e{Name: "a"}, e{Name: "b"}), []string{"a", "b"}},
		{"a chain that ends elsewhere", versioned(e{Name: "a"}, e{Name: "b", Replaces: "a"}, e{Name: "c", Skips: []string{"a"}}), []string{"a", "b", "c"}},
		{"a removed link", versioned(e{Name: "a"}, e{Name: "c", Replaces: "b"}), []string{"a", "c"}},
		{"through a skipped bundle", versioned(e{Name: "a"}, e{Name: "b", Replaces: "a"}, e{Name: "c", Replaces: "b", Skips: []string{"b"}}), nil},
	}
	for _, tt := range tests {
		if got := tt.ch.Unreachable(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Unreachable() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// goneBundle is a bundle taken out of a channel, of version 0.0.N.
func goneBundle(name string, n int) *Bundle {
	b := bundle(name, "p", "0.0."+string(rune('0'+n)))
	return &Bundle{Name: name, Decl: &b}
}

// Reaching from the head the channel upgrades to, through each kind of
// edge, with bundles taken out of the channel.
func TestReaching(t *testing.T) {
	type e = declcfg.ChannelEntry
	tests := []struct {
		name string
		ch   *Channel
		gone map[string]*Bundle
		want []string // reaching the upgrade head, sorted
	}{
		{name: "replaces", ch: versioned(e{Name: "a"}, e{Name: "b", Replaces: "a"}, e{Name: "c", Replaces: "b"}), want: []string{"a", "b", "c"}},
		{name: "skips", ch: versioned(e{Name: "a"}, e{Name: "b"}, e{Name: "c", Skips: []string{"a"}}), want: []string{"a", "c"}},
		{name: "skipRange", ch: versioned(e{Name: "a"}, e{Name: "b"}, e{Name: "c", SkipRange: "<0.0.2"}), want: []string{"a", "b", "c"}},
		{name: "skipRange leaves out", ch: versioned(e{Name: "a"}, e{Name: "b"}, e{Name: "c", SkipRange: ">=0.0.1 <0.0.2"}), want: []string{"b", "c"}},
		{name: "a bad skipRange", ch: versioned(e{Name: "a"}, e{Name: "c", SkipRange: "not a range"}), want: []string{"c"}},
		{name: "gone, still replaced", ch: versioned(e{Name: "b", Replaces: "a"}, e{Name: "c", Replaces: "b"}),
			gone: map[string]*Bundle{"a": nil}, want: []string{"a", "b", "c"}},
		{name: "gone, skipRanged by version", ch: versioned(e{Name: "b"}, e{Name: "c", SkipRange: "<0.0.5", Replaces: "b"}),
			gone: map[string]*Bundle{"a": goneBundle("a", 3), "z": goneBundle("z", 7)}, want: []string{"a", "b", "c"}},
		{name: "gone, version unknown", ch: versioned(e{Name: "b"}, e{Name: "c", SkipRange: "<0.0.5", Replaces: "b"}),
			gone: map[string]*Bundle{"a": nil}, want: []string{"b", "c"}},
		// Nothing upgrades to a bundle taken out: what only replaces it is
		// left behind.
		{name: "nothing leads through a gone bundle", ch: versioned(e{Name: "x"}, e{Name: "c", Skips: []string{"a"}}),
			gone: map[string]*Bundle{"a": goneBundle("a", 1)}, want: []string{"a", "c"}},
		// Two heads: installs upgrade to the one of the highest version (d,
		// 0.0.3), which only c reaches.
		{name: "several heads", ch: versioned(e{Name: "a"}, e{Name: "b", Replaces: "a"}, e{Name: "c"}, e{Name: "d", Replaces: "c"}), want: []string{"c", "d"}},
	}
	for _, tt := range tests {
		head, ok := tt.ch.UpgradeHead()
		if !ok {
			t.Fatalf("%s: no head", tt.name)
		}
		got := slices.Sorted(maps.Keys(tt.ch.Reaching(head, tt.gone)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Reaching(%s) = %v, want %v", tt.name, head, got, tt.want)
		}
	}
}

func TestUpgradeHead(t *testing.T) {
	type e = declcfg.ChannelEntry
	noVersion := versioned(e{Name: "b"}, e{Name: "a"})
	for _, b := range noVersion.Package.Bundles {
		b.Decl.Properties = nil
	}
	tests := []struct {
		name string
		ch   *Channel
		want string
	}{
		{"one head", versioned(e{Name: "a"}, e{Name: "b", Replaces: "a"}), "b"},
		{"the highest version", versioned(e{Name: "z"}, e{Name: "a"}, e{Name: "m"}), "m"},
		{"no versions: the first by name", noVersion, "a"},
		{"a cycle", versioned(e{Name: "a", Replaces: "b"}, e{Name: "b", Replaces: "a"}), ""},
	}
	for _, tt := range tests {
		got, ok := tt.ch.UpgradeHead()
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s: UpgradeHead() = %q %v, want %q", tt.name, got, ok, tt.want)
		}
	}
}

// Edges are the upgrades OLM makes: replaces, skips and each bundle of
// the channel a skipRange holds, each once, never a bundle to itself.
func TestEdges(t *testing.T) {
	type e = declcfg.ChannelEntry
	ch := versioned(e{Name: "a"}, e{Name: "b", Replaces: "a"}, e{Name: "c", Replaces: "b", Skips: []string{"a", "gone"}, SkipRange: "<0.0.3"}, e{Name: "d", SkipRange: "not a range"})
	want := [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}, {"gone", "c"}}
	if got := ch.Edges(); !slices.Equal(got, want) {
		t.Errorf("Edges() = %v, want %v", got, want)
	}
}
