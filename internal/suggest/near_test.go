package suggest

import (
	"slices"
	"strings"
	"testing"

	"github.com/blang/semver/v4"
)

func TestNear(t *testing.T) {
	channels := []string{"alpha", "beta", "stable", "fast", "candidate", "stable-v1.2", "rc", "Fast"}
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"satble", []string{"stable"}},     // a swap of neighbours
		{"tsable", []string{"stable"}},     // a swap in the first two letters
		{"lapha", []string{"alpha"}},       // likewise
		{"aFst", []string{"fast", "Fast"}}, // a swap and a case difference
		{"Stable", []string{"stable"}},     // case only
		{"STABLE", []string{"stable"}},
		{"stabel", []string{"stable"}},
		{"stalbe", []string{"stable"}},
		{"stbale", []string{"stable"}},
		{"stable2", nil},     // a number only: another version
		{"stable-v1.3", nil}, // another version, not a slip
		{"stable-v2", nil},
		{"fast-3", nil}, // a version of fast (opendatahub's channel)
		{"stable-1", nil},
		{"betav1", nil},
		{"stabel-v2", nil},                       // a slip and a version: too far
		{"stabel-v1.2", []string{"stable-v1.2"}}, // a slip beside a version
		{"candidates", []string{"candidate"}},
		{"Cnadidate", []string{"candidate"}},
		{"ga", nil}, // too short for two edits to be a slip
		{"preview", nil},
		{"stable", nil}, // the name itself is no slip
		{"xyzzy", nil},
	} {
		if got := Near(tt.name, channels); !slices.Equal(got, tt.want) {
			t.Errorf("Near(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	long := []string{"prometheus-operator", "grafana-operator", "etcd"}
	if got := Near("promethues-opertor", long); !slices.Equal(got, []string{"prometheus-operator"}) {
		t.Errorf("a long name takes more edits: %q", got)
	}
	if got := Near("abcd", []string{"abce", "abcf", "abdc", "ABCD"}); !slices.Equal(got, []string{"ABCD"}) {
		t.Errorf("the closest only: %q", got)
	}
	if got := Near("abcd", []string{"abce", "abcf", "abdc", "abcg", "abxy"}); !slices.Equal(got, []string{"abce", "abcf", "abdc"}) {
		t.Errorf("ties in the candidates' order, at most %d: %q", MaxNear, got)
	}
}

func TestList(t *testing.T) {
	if got := List([]string{"b", "a", "b"}); got != "a, b" {
		t.Errorf("sorted and each once: %q", got)
	}
	var many []string
	for _, c := range "mlkjihgfedcba" {
		many = append(many, string(c))
	}
	if got := List(many); got != "a, b, c, d, e, f, g, h, i, j, … (13 in all)" {
		t.Errorf("capped: %q", got)
	}
	if !strings.HasPrefix(List(many), "a, b") || many[0] != "m" {
		t.Error("List must not sort its argument in place")
	}
	for in, want := range map[string]string{"": "", "a": "a", "a b": "a or b", "a b c": "a, b or c"} {
		if got := Or(strings.Fields(in)); got != want {
			t.Errorf("Or(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVersioned(t *testing.T) {
	names := []string{"w.v1.0.0", "w.v1.1.0", "w.v1.1.1", "w.v2.0.0", "odd"}
	version := func(n string) (semver.Version, bool) {
		v, err := semver.ParseTolerant(strings.TrimPrefix(n, "w.v"))
		return v, err == nil
	}
	for name, want := range map[string][]string{
		"w.v1.1.3":  {"w.v1.1.1", "w.v2.0.0"}, // just below and just above
		"x.v1.1.0":  {"w.v1.1.0"},             // the same version, the rest mistyped
		"1.1.0":     {"w.v1.1.0"},             // a bare version
		"w.v0.9":    {"w.v1.0.0"},
		"w.v9.0.0":  {"w.v2.0.0"},
		"oddd":      {"odd"}, // no version: by spelling
		"something": nil,
	} {
		if got := Versioned(name, names, version); !slices.Equal(got, want) {
			t.Errorf("Versioned(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestUnknown(t *testing.T) {
	channels := []string{"stable", "fast", "stable"}
	for _, tt := range []struct {
		name, near string
		want       string
	}{
		{"satble", "", `no channel "satble": did you mean stable?`},
		{"nightly", "", `no channel "nightly" (channels: fast, stable)`},
		{"x.v2", "x.v1", `no channel "x.v2": did you mean x.v1?`},
	} {
		var near []string
		if tt.near != "" {
			near = []string{tt.near}
		}
		e := NewUnknown("channel", tt.name, near, channels, `no channel "`+tt.name+`"`)
		if e.Error() != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, e.Error(), tt.want)
		}
		if (len(e.Near) == 0) != (e.Known != nil) {
			t.Errorf("%s: the names there are only when none is near: %+v", tt.name, e)
		}
	}
	if e := NewUnknown("operator", "x", nil, nil, "no operator x"); e.Error() != "no operator x" {
		t.Errorf("nothing there: %q", e.Error())
	}
}

func TestMeant(t *testing.T) {
	names := []string{"dry-run", "full-diff", "image", "lint", "list", "render"}
	tests := []struct {
		typed string
		want  []string
	}{
		{"lsit", []string{"list"}},       // a swap, closer than lint
		{"dry", []string{"dry-run"}},     // a prefix
		{"imgae", []string{"image"}},     // a swap
		{"Li", []string{"lint", "list"}}, // prefixes, ignoring case
		{"l", nil},                       // one letter begins too much
		{"zzz", nil},
		{"list", []string{"list"}}, // typed as it is, with one dash too few
	}
	for _, tt := range tests {
		if got := Meant(tt.typed, names); !slices.Equal(got, tt.want) {
			t.Errorf("Meant(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
}
