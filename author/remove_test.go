package author

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/catalogrepo"
)

// basicText is a basic template with the given channel blocks and
// deprecations, and one olm.bundle entry per name in bundles.
func basicText(channels, extra string, bundles ...string) string {
	var b strings.Builder
	b.WriteString("schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: p\n  defaultChannel: stable\n")
	b.WriteString(channels)
	for _, n := range bundles {
		b.WriteString("- schema: olm.bundle\n  image: quay.io/x/" + n + "\n")
	}
	b.WriteString(extra)
	return b.String()
}

// summary describes a basic template's channels: "ch: name[>replaces][~skip,...][@range] ...".
func summary(t *testing.T, data []byte) string {
	t.Helper()
	var doc struct {
		Entries []struct {
			Schema, Name string
			Entries      []struct {
				Name, Replaces string
				Skips          []string
				SkipRange      string `yaml:"skipRange"`
			}
		}
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	var lines []string
	for _, e := range doc.Entries {
		if e.Schema != "olm.channel" {
			continue
		}
		line := e.Name + ":"
		for _, x := range e.Entries {
			line += " " + x.Name
			if x.Replaces != "" {
				line += ">" + x.Replaces
			}
			if len(x.Skips) > 0 {
				line += "~" + strings.Join(x.Skips, ",")
			}
			if x.SkipRange != "" {
				line += "@" + x.SkipRange
			}
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func TestRemoveRewires(t *testing.T) {
	ch := func(name, entries string) string {
		return "- schema: olm.channel\n  name: " + name + "\n  package: p\n  entries:\n" + entries
	}
	tests := []struct {
		name, channels, remove, want, err string
	}{
		{"replaces chain", ch("stable", "  - name: a\n  - name: b\n    replaces: a\n  - name: c\n    replaces: b\n"),
			"b", "stable: a c>a~b", ""},
		{"skips are inherited", ch("stable", "  - name: x\n  - name: a\n  - name: b\n    replaces: a\n    skips: [x]\n  - name: c\n    replaces: b\n"),
			"b", "stable: x a c>a~b,x", ""},
		{"a skipper inherits when nothing replaces", ch("stable", "  - name: a\n  - name: b\n    replaces: a\n  - name: c\n    skips: [b]\n"),
			"b", "stable: a c~b,a", ""},
		{"skipping and replacing", ch("stable", "  - name: a\n  - name: b\n    replaces: a\n  - name: c\n    replaces: b\n  - name: d\n    replaces: c\n    skips: [b]\n"),
			"b", "stable: a c>a~b d>c~b", ""},
		{"the head", ch("stable", "  - name: a\n  - name: b\n    replaces: a\n"),
			"b", "stable: a", ""},
		{"skipRange stays", ch("stable", "  - name: a\n  - name: b\n    replaces: a\n  - name: c\n    replaces: b\n    skipRange: '>=1.0.0 <1.1.0'\n"),
			"b", "stable: a c>a~b@>=1.0.0 <1.1.0", ""},
		{"replaced from another channel", ch("stable", "  - name: a\n  - name: b\n    replaces: a\n") + ch("fast", "  - name: c\n    replaces: b\n"),
			"b", "stable: a\nfast: c~b", ""},
		{"a channel left empty goes", ch("stable", "  - name: a\n") + ch("fast", "  - name: b\n"),
			"b", "stable: a", ""},
		{"the default channel cannot be left empty", ch("stable", "  - name: b\n"),
			"b", "", "would leave channel stable, the default channel, empty"},
		{"flow style", ch("stable", "  - {name: a}\n  - {name: b, replaces: a, skips: [x]}\n  - {name: c, replaces: b}\n"),
			"b", "stable: a c>a~b,x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl := &catalogrepo.Template{Path: "t.yaml", Data: []byte(basicText(tt.channels, "", "a", tt.remove))}
			d, err := openBasic(tmpl)
			if err != nil {
				t.Fatal(err)
			}
			err = removeBasic(d, tt.remove, "quay.io/x/"+tt.remove)
			if tt.err != "" {
				var r *Refusal
				if err == nil || !errors.As(err, &r) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want a refusal saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := d.File.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(t, out); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s\nfrom\n%s", got, tt.want, out)
			}
			if strings.Contains(string(out), "quay.io/x/"+tt.remove+"\n") {
				t.Errorf("the olm.bundle entry of %s is still there:\n%s", tt.remove, out)
			}
		})
	}
}

func TestRemoveDropsDeprecations(t *testing.T) {
	channels := "- schema: olm.channel\n  name: stable\n  package: p\n  entries:\n  - name: a\n  - name: b\n    replaces: a\n"
	deps := "- schema: olm.deprecations\n  package: p\n  entries:\n  - reference: {schema: olm.bundle, name: b}\n    message: old\n"
	for name, extra := range map[string]string{
		"the object goes": deps,
		"the entry goes":  deps + "  - reference: {schema: olm.channel, name: stable}\n    message: gone\n",
	} {
		t.Run(name, func(t *testing.T) {
			d, err := openBasic(&catalogrepo.Template{Path: "t.yaml", Data: []byte(basicText(channels, extra, "a", "b"))})
			if err != nil {
				t.Fatal(err)
			}
			if err := removeBasic(d, "b", "quay.io/x/b"); err != nil {
				t.Fatal(err)
			}
			out, err := d.File.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			s := string(out)
			if strings.Contains(s, "name: b}") || strings.Contains(s, "message: old") {
				t.Errorf("the deprecation of b is still there:\n%s", s)
			}
			if keep := strings.Contains(extra, "gone"); keep != strings.Contains(s, "message: gone") || keep != strings.Contains(s, "olm.deprecations") {
				t.Errorf("the other deprecation entry (and its object) should stay:\n%s", s)
			}
		})
	}
}
