package template

import (
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// substitutesText is a valid catalog of widget 1.0.0, 1.0.1 and 1.1.0 in
// one channel (1.1.0 replaces 1.0.1 and skips 1.0.0), with the given
// substitutions (YAML list items) appended.
func substitutesText(subs ...string) string {
	var b strings.Builder
	b.WriteString(`schema: olm.template.substitutes
entries:
- {schema: olm.package, name: widget, defaultChannel: stable}
- schema: olm.channel
  package: widget
  name: stable
  entries:
  - name: widget.v1.0.0
  - {name: widget.v1.0.1, replaces: widget.v1.0.0}
  - {name: widget.v1.1.0, replaces: widget.v1.0.1, skips: [widget.v1.0.0]}
`)
	for _, v := range []string{"1.0.0", "1.0.1", "1.1.0"} {
		b.WriteString("- {schema: olm.bundle, name: widget.v" + v + ", package: widget, image: quay.io/example/widget:v" + v +
			", properties: [{type: olm.package, value: {packageName: widget, version: " + v + "}}]}\n")
	}
	if len(subs) > 0 {
		b.WriteString("substitutions:\n")
		for _, s := range subs {
			b.WriteString("- " + s + "\n")
		}
	}
	return b.String()
}

func TestSubstitutes(t *testing.T) {
	f := fakes("widget", "1.0.0 1", "1.0.0 2", "1.2.0")
	cases := []struct {
		name string
		subs []string
		want string
	}{
		{"none", nil, "stable: v1.0.0 v1.0.1>v1.0.0 v1.1.0>v1.0.1~v1.0.0"},
		{
			"a replaced and skipped base",
			[]string{"{name: quay.io/example/widget:v1.0.0-r1, base: widget.v1.0.0}"},
			"stable: v1.0.0 v1.0.1>widget-v1.0.0-1~v1.0.0 v1.1.0>v1.0.1~widget-v1.0.0-1 widget-v1.0.0-1~v1.0.0",
		},
		{
			"a chain",
			[]string{"{name: quay.io/example/widget:v1.0.0-r1, base: widget.v1.0.0}", "{name: quay.io/example/widget:v1.0.0-r2, base: widget-v1.0.0-1}"},
			"stable: v1.0.0 v1.0.1>widget-v1.0.0-2~v1.0.0,widget-v1.0.0-1 v1.1.0>v1.0.1~widget-v1.0.0-2 widget-v1.0.0-1 widget-v1.0.0-2~v1.0.0,widget-v1.0.0-1",
		},
		{
			"the head",
			[]string{"{name: quay.io/example/widget:v1.2.0, base: widget.v1.1.0}"},
			"stable: v1.0.0 v1.0.1>v1.0.0 v1.1.0 v1.2.0>v1.0.1~v1.0.0,v1.1.0",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := renderText(t, substitutesText(c.subs...), f)
			if err != nil {
				t.Fatal(err)
			}
			if got := channels(cfg); got != c.want {
				t.Errorf("channels:\n%s\nwant:\n%s", got, c.want)
			}
			if want := 3 + len(c.subs); len(cfg.Bundles) != want {
				t.Errorf("%d bundles, want %d", len(cfg.Bundles), want)
			}
		})
	}
}

func TestSubstitutesErrors(t *testing.T) {
	f := fakes("widget", "1.0.0", "1.0.0 1", "0.9.0")
	for k, v := range fakes("gadget", "2.0.0") {
		f[k] = v
	}
	r1 := "quay.io/example/widget:v1.0.0-r1"
	cases := []struct {
		text, want string
	}{
		{substitutesText("{name: " + r1 + ", base: widget.v0.1.0}"), `t.yaml:15: substitutes template: substitutions[0]: base bundle "widget.v0.1.0" does not exist in the catalog`},
		{substitutesText("{name: quay.io/example/widget:v0.9.0, base: widget.v1.0.0}"), `substitutions[0]: base bundle "widget.v1.0.0" (version 1.0.0) is not less than substitute bundle "widget.v0.9.0"`},
		{substitutesText("{name: quay.io/example/gadget:v2.0.0, base: widget.v1.0.0}"), `substitutions[0]: image "quay.io/example/gadget:v2.0.0" renders bundle "gadget.v2.0.0" of package "gadget", but base bundle "widget.v1.0.0" belongs to package "widget"`},
		{substitutesText("{name: quay.io/example/widget:v1.0.0, base: widget.v1.0.0}"), `substitutions[0]: image "quay.io/example/widget:v1.0.0" renders bundle "widget.v1.0.0", the base itself`},
		{substitutesText("{name: "+r1+", base: widget.v1.0.0}", "{name: quay.io/example/widget:v1.0.0, base: widget-v1.0.0-1}"),
			"substitution cycle: widget.v1.0.0 -> widget-v1.0.0-1 -> widget.v1.0.0 (substitutions[0], substitutions[1])"},
		{substitutesText("{name: "+r1+", base: widget.v1.0.0}", "{name: quay.io/example/widget:v0.9.0, base: widget.v1.0.0}"),
			`t.yaml:16: substitutes template: substitutions[1]: cannot reuse the same substitution base "widget.v1.0.0" (already substituted at substitutions[0])`},
		{substitutesText("{name: "+r1+", base: widget.v1.0.0}", "{name: "+r1+", base: widget.v1.0.1}"),
			`substitutions[1]: cannot reuse the same substitution "quay.io/example/widget:v1.0.0-r1" for different bases ("widget.v1.0.0" at substitutions[0] and "widget.v1.0.1")`},
		{substitutesText("{base: widget.v1.0.0}"), "substitutions[0]: substitution name cannot be empty"},
		{substitutesText("{name: x}"), "substitutions[0]: substitution base cannot be empty"},
		{substitutesText("{name: x, base: x}"), `substitutions[0]: substitution name and base cannot be the same ("x")`},
		{substitutesText("{name: 1, base: x}"), "substitutions[0]: name must be a string, not a number (1)"},
		{substitutesText("x"), "substitutions[0]: must be an object"},
		{substitutesText("{name: quay.io/example/widget:v7, base: widget.v1.0.0}"), `substitutions[0]: failed to pull image "quay.io/example/widget:v7"`},
		{"schema: olm.template.substitutes\nentries:\n- {schema: olm.package, name: widget, defaultChannel: stable}\n",
			`t.yaml:3: substitutes template: the entries are not a valid catalog: package "widget": package has no channels`},
	}
	for _, c := range cases {
		_, err := renderText(t, c.text, f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("template:\n%s\nerror: %v\nwant it to contain: %s", c.text, err, c.want)
		}
	}
}

func TestRewire(t *testing.T) {
	ch := declcfg.Channel{Entries: []declcfg.ChannelEntry{
		{Name: "a"},
		{Name: "b", Replaces: "a", Skips: []string{"x"}, SkipRange: "<1.0.0"},
		{Name: "c", Replaces: "b"},
		{Name: "d", Skips: []string{"b", "y"}},
	}}
	rewire(&ch, "b", "s")
	want := []declcfg.ChannelEntry{
		{Name: "a"},
		{Name: "b"},
		{Name: "c", Replaces: "s", Skips: []string{"b"}},
		{Name: "d", Skips: []string{"y", "s"}},
		{Name: "s", Replaces: "a", Skips: []string{"x", "b"}, SkipRange: "<1.0.0"},
	}
	if !slices.EqualFunc(ch.Entries, want, func(x, y declcfg.ChannelEntry) bool {
		return x.Name == y.Name && x.Replaces == y.Replaces && x.SkipRange == y.SkipRange && slices.Equal(x.Skips, y.Skips)
	}) {
		t.Errorf("got %+v\nwant %+v", ch.Entries, want)
	}
}
