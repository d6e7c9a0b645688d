package template

import (
	"context"
	"strings"
	"testing"
)

func semverText(head string, lists map[string][]string) string {
	var b strings.Builder
	b.WriteString("schema: olm.semver\n" + head)
	for _, a := range []string{"candidate", "fast", "stable"} {
		if len(lists[a]) == 0 {
			continue
		}
		b.WriteString(a + ":\n  bundles:\n")
		for _, v := range lists[a] {
			b.WriteString("  - image: quay.io/example/widget:v" + v + "\n")
		}
	}
	return b.String()
}

// The edges and default channels below are upstream's (checked with
// upstream opm on the same versions).
func TestSemverChannels(t *testing.T) {
	all := fakes("widget", "0.1.0", "0.1.1", "0.1.2", "0.2.0", "0.2.1", "0.3.0-rc.1", "0.3.0", "1.0.0", "1.0.1", "1.1.0", "2.0.0")
	cases := []struct {
		name, head string
		lists      map[string][]string
		want, def  string
	}{
		{
			name:  "minor channels by default",
			lists: map[string][]string{"stable": {"0.2.1", "0.1.0", "0.1.1", "0.2.0", "0.1.2", "1.0.0"}},
			want: `stable-v0.1: v0.1.0 v0.1.1 v0.1.2~v0.1.0,v0.1.1
stable-v0.2: v0.2.0 v0.2.1>v0.1.2~v0.1.0,v0.1.1,v0.2.0
stable-v1.0: v1.0.0`,
			def: "stable-v1.0",
		},
		{
			name:  "major channels",
			head:  "generateMajorChannels: true\ngenerateMinorChannels: false\n",
			lists: map[string][]string{"stable": {"0.1.0", "0.1.1", "0.2.0", "0.3.0-rc.1", "0.3.0", "1.0.0", "1.0.1"}},
			want: `stable-v0: v0.1.0 v0.1.1~v0.1.0 v0.2.0>v0.1.1~v0.1.0 v0.3.0-rc.1 v0.3.0>v0.2.0~v0.1.0,v0.1.1,v0.3.0-rc.1
stable-v1: v1.0.0 v1.0.1~v1.0.0`,
			def: "stable-v1",
		},
		{
			name:  "the most stable archetype wins over versions",
			head:  "generateMajorChannels: true\ngenerateMinorChannels: true\n",
			lists: map[string][]string{"candidate": {"2.0.0"}, "fast": {"1.1.0"}, "stable": {"0.1.0"}},
			want: `candidate-v2: v2.0.0
candidate-v2.0: v2.0.0
fast-v1: v1.1.0
fast-v1.1: v1.1.0
stable-v0: v0.1.0
stable-v0.1: v0.1.0`,
			def: "stable-v0.1",
		},
		{
			name:  "major preferred",
			head:  "generateMajorChannels: true\ngenerateMinorChannels: true\ndefaultChannelTypePreference: major\n",
			lists: map[string][]string{"stable": {"1.0.0"}},
			want:  "stable-v1: v1.0.0\nstable-v1.0: v1.0.0",
			def:   "stable-v1",
		},
		{
			// Channels are scored by the version that creates them: v1
			// (1.0.0) loses to v1.1 (1.1.0) although both end at 1.1.0.
			name:  "scored by the lowest version",
			head:  "generateMajorChannels: true\ngenerateMinorChannels: true\ndefaultChannelTypePreference: major\n",
			lists: map[string][]string{"fast": {"1.0.0", "1.1.0"}},
			want:  "fast-v1: v1.0.0 v1.1.0>v1.0.0\nfast-v1.0: v1.0.0\nfast-v1.1: v1.1.0>v1.0.0",
			def:   "fast-v1.1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := renderText(t, semverText(c.head, c.lists), all)
			if err != nil {
				t.Fatal(err)
			}
			if got := channels(cfg); got != c.want {
				t.Errorf("channels:\n%s\nwant:\n%s", got, c.want)
			}
			if got := cfg.Packages[0].DefaultChannel; got != c.def {
				t.Errorf("default channel %q, want %q", got, c.def)
			}
		})
	}
}

// Two images of one bundle name in different archetypes make two blobs;
// upstream writes them in Go map order, this package in template order.
func TestSemverSameNameKeepsTemplateOrder(t *testing.T) {
	f := fakes("widget", "1.0.0")
	other := *f["quay.io/example/widget:v1.0.0"]
	other.Image = "quay.io/example/widget:rebuilt"
	f[other.Image] = &other
	text := "schema: olm.semver\ncandidate:\n  bundles:\n  - image: quay.io/example/widget:rebuilt\nstable:\n  bundles:\n  - image: quay.io/example/widget:v1.0.0\n"
	for range 20 {
		cfg, err := renderText(t, text, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(cfg.Bundles) != 2 || cfg.Bundles[0].Image != other.Image {
			t.Fatalf("bundles not in template order: %+v", cfg.Bundles)
		}
	}
}

func TestSemverErrors(t *testing.T) {
	f := fakes("widget", "1.0.0", "1.1.0", "1.1.0+b", "1.0.0 1", "1.0.0 2")
	for k, v := range fakes("gadget", "1.0.0") {
		f[k] = v
	}
	bad := *f["quay.io/example/widget:v1.1.0"]
	bad.Properties = nil
	f["quay.io/example/widget:noversion"] = &bad
	cases := []struct{ text, want string }{
		{"schema: olm.semver\n", "t.yaml:1: semver template: no bundles: list bundle images"},
		{"schema: olm.semver\nstable:\n  bundles: []\n", "no bundles"},
		{"schema: olm.semver\nbogus: 1\n", `t.yaml:2: semver template: unknown field "bogus"`},
		{"schema: olm.semver\ngenerateMajorChannels: maybe\n", `t.yaml:2: semver template: generateMajorChannels must be true or false, not a string ("maybe")`},
		{"schema: olm.semver\ndefaultChannelTypePreference: major\n", `t.yaml:2: semver template: defaultChannelTypePreference is "major", but no major channels are generated`},
		{"schema: olm.semver\ngenerateMajorChannels: true\ndefaultChannelTypePreference: minor\n", `defaultChannelTypePreference is "minor", but no minor channels are generated`},
		{"schema: olm.semver\ndefaultChannelTypePreference: patch\n", `defaultChannelTypePreference "patch" is not valid`},
		{"schema: olm.semver\nstable: [1]\n", "t.yaml:2: semver template: stable: must be an object"},
		{"schema: olm.semver\nstable:\n  bundles:\n  - image: 5\n", `t.yaml:4: semver template: stable.bundles[0]: image must be a string, not a number (5)`},
		{"schema: olm.semver\nstable:\n  bundles:\n  - {}\n", "stable.bundles[0]: bundle has no image"},
		{"schema: olm.semver\nstable:\n  bundles:\n  - image: a\n    imgae: b\n", `t.yaml:5: semver template: stable.bundles[0]: unknown field "imgae"`},
		{"schema: olm.semver\nstable:\n  bundles: []\nStable:\n  bundles: []\n", `keys "Stable" and "stable" differ only in upper/lower case`},
		{"schema: olm.semver\nstable:\n  bundles: []\nstable:\n  bundles: []\n", `semver template: duplicate key: key "stable" already set in map`},
		{"schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/example/widget:v9\n", `t.yaml:4: semver template: stable.bundles[0]: failed to pull image "quay.io/example/widget:v9"`},
		{"schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/example/widget:noversion\n", `stable.bundles[0]: bundle "widget.v1.1.0" (image "quay.io/example/widget:noversion"): has 0 "olm.package" properties, expected exactly 1`},
		{"schema: olm.semver\ncandidate:\n  bundles:\n  - image: quay.io/example/widget:v1.0.0\nstable:\n  bundles:\n  - image: quay.io/example/gadget:v1.0.0\n",
			`t.yaml:7: semver template: stable.bundles[0]: bundle "gadget.v1.0.0" (image "quay.io/example/gadget:v1.0.0") belongs to package "gadget", not to "widget", the package of the template's first bundle (candidate.bundles[0])`},
		{"schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/example/widget:v1.0.0\n  - image: quay.io/example/widget:v1.0.0\n", `t.yaml:5: semver template: stable.bundles[1]: duplicate bundle in stable: image "quay.io/example/widget:v1.0.0" is listed twice (also at stable.bundles[0])`},
		{"schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/example/widget:v1.1.0\n  - image: quay.io/example/widget:v1.1.0-b\n", `stable.bundles[1]: bundle "widget.v1.1.0+b" has version 1.1.0+b, the same as bundle "widget.v1.1.0" at stable.bundles[0] (version 1.1.0): versions that differ only by build metadata cannot be ordered`},
		{"schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/example/widget:v1.0.0-r1\n  - image: quay.io/example/widget:v1.0.0-r2\n", "releases do not count"},
	}
	for _, c := range cases {
		_, err := renderText(t, c.text, f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("template:\n%s\nerror: %v\nwant it to contain: %s", c.text, err, c.want)
		}
	}
}

// TestSemverPerChannel pins the linking of older opm releases, which
// catalogs committed then still hold (seen in community-operators-prod's
// konflux catalogs of April 2026): each channel linked on its own, skips
// in version order, and no package description.
func TestSemverPerChannel(t *testing.T) {
	all := fakes("widget", "0.0.4", "0.0.5", "0.0.11", "0.1.0", "0.1.2", "0.2.0", "1.0.0")
	text := semverText("generateMajorChannels: true\ngenerateMinorChannels: true\n",
		map[string][]string{"stable": {"0.0.4", "0.0.5", "0.0.11", "0.1.0", "0.1.2", "0.2.0", "1.0.0"}})
	in := Input{Name: "t.yaml", Data: []byte(text)}
	cfg, err := ExpandWith(context.Background(), Semver, in, all, Options{SemverPerChannel: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `stable-v0: v0.0.4 v0.0.5 v0.0.11~v0.0.4,v0.0.5 v0.1.0 v0.1.2>v0.0.11~v0.0.11,v0.1.0 v0.2.0>v0.1.2~v0.1.2
stable-v0.0: v0.0.4 v0.0.5 v0.0.11~v0.0.4,v0.0.5
stable-v0.1: v0.1.0 v0.1.2~v0.1.0
stable-v0.2: v0.2.0
stable-v1: v1.0.0
stable-v1.0: v1.0.0`
	if got := channels(cfg); got != want {
		t.Errorf("channels:\n%s\nwant:\n%s", got, want)
	}
	if p := cfg.Packages[0]; p.Description != "" || p.Icon != nil || p.DefaultChannel != "stable-v1.0" {
		t.Errorf("package %+v: want no description or icon, default stable-v1.0", p)
	}
}
