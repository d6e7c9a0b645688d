package model

import (
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
