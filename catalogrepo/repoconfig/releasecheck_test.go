package repoconfig

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// widgetFacts: a basic template with channels stable and fast, a semver
// template, a template mapped but not written yet (a first release), and
// three bundles.
var widgetFacts = ReleaseFacts{
	Operator: "operators/widget",
	CIFile:   "operators/widget/ci.yaml",
	Templates: []TemplateFacts{
		{Name: "basic.yaml", Type: TypeBasic, Channels: []string{"fast", "stable"}},
		{Name: "semver.yaml", Type: TypeSemver},
		{Name: "new.yaml", Type: TypeBasic},
	},
	Bundles: []string{"widget.v1.0.0", "widget.v1.1.0", "widget.v1.1.1"},
}

// TestCheckEveryProblem: one file with a problem of each kind gets all of
// them, in line order, each at its key's line, naming what was meant.
func TestCheckEveryProblem(t *testing.T) {
	text := `catalog_template: []
catalog_templates:
- template_name: basic.yaml
  channels: [fast, stabel, preview]
  replace: widget.v1.1.1
  replaces: widget.v1.1.2
  skips: [widget.v1.0.0, widgt.v1.1.0, widget.v0.1.0]
  skipRange: '>=1.0 <<1.1'
  defaultChannel: beta
- template_name: semver.yaml
  channels: [Fsat, Stable]
  replaces: widget.v1.1.1
- template_name: new.yaml
  channels: [lapha, aFst]
- template_name: basci.yaml
  channels: [fast]
- template_name: basic.yaml
  channels: [fast]
`
	rc, err := ParseReleaseConfig("rc.yaml", []byte(text))
	if rc == nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Error("ParseReleaseConfig: the file's own mistakes are its error")
	}
	want := []struct {
		line    int
		key     string
		says    string
		near    string
		warning bool
		slip    bool
	}{
		{1, "catalog_template", `unknown key "catalog_template": did you mean catalog_templates?`, "catalog_templates", false, false},
		{4, "channels", `channel "stabel" is in no template of operators/widget: did you mean stable?`, "stable", false, true},
		{5, "replace", `unknown key "replace" in a catalog_templates entry: did you mean replaces?`, "replaces", false, false},
		{6, "replaces", `replaces "widget.v1.1.2" names no bundle of operators/widget: did you mean widget.v1.1.1?`, "widget.v1.1.1", false, false},
		{7, "skips", "skips names widgt.v1.1.0, which no catalog of operators/widget holds: did you mean widget.v1.1.0? (written as given)", "widget.v1.1.0", true, false},
		{8, "skipRange", `skipRange: invalid skip range ">=1.0 <<1.1"`, "", false, false},
		{9, "defaultChannel", `default channel "beta" is none of the channels of basic.yaml (fast, preview, stabel, stable): a package's default channel must have a bundle`, "", false, false},
		{11, "channels", `"Fsat" is no channel of semver template semver.yaml (did you mean Fast?)`, "Fast", false, false},
		{12, "replaces", "semver.yaml is a semver template: it computes edges and the default channel from versions, so replaces is not used", "", true, false},
		{14, "channels", `channel "lapha" is in no template of operators/widget: did you mean alpha?`, "alpha", false, true},
		{14, "channels", `channel "aFst" is in no template of operators/widget: did you mean fast?`, "fast", false, true},
		{15, "template_name", `operators/widget/ci.yaml maps no template "basci.yaml" in fbc.catalog_mapping: did you mean basic.yaml?`, "basic.yaml", false, false},
		{17, "template_name", `template "basic.yaml" is listed twice (also at line 3)`, "", false, false},
	}
	got := rc.Check(widgetFacts)
	var dump strings.Builder
	for _, e := range got {
		p := ProblemOf(e)
		fmt.Fprintf(&dump, "\n  %s [%s] near=%v warning=%v", e, p.Key, p.Near, p.Warning)
	}
	if len(got) != len(want) {
		t.Fatalf("%d problems, want %d:%s", len(got), len(want), dump.String())
	}
	for i, w := range want {
		e, p := got[i], ProblemOf(got[i])
		if e.File != "rc.yaml" || e.Line != w.line || p.Key != w.key || !strings.Contains(p.Msg, w.says) ||
			strings.Join(p.Near, ",") != w.near || p.Warning != w.warning || errors.Is(e, ErrNearMissChannel) != w.slip {
			t.Errorf("problem %d: %s [%s] near=%v warning=%v slip=%v\nwant line %d [%s] %q near=%s warning=%v slip=%v",
				i, e, p.Key, p.Near, p.Warning, errors.Is(e, ErrNearMissChannel), w.line, w.key, w.says, w.near, w.warning, w.slip)
		}
	}
}

// TestCheckClean: a good file, a genuinely new channel, a conventional
// name in a first release, and a name differing from one by a version are
// no problems.
func TestCheckClean(t *testing.T) {
	text := "merge: false\ncatalog_templates:\n- template_name: basic.yaml\n  channels: [fast, fast-2, candidate]\n  replaces: widget.v1.1.1\n  skips: [widget.v0.0.1]\n  defaultChannel: fast-2\n- template_name: semver.yaml\n  channels: [candidate, Stable]\n- template_name: new.yaml\n  channels: [Stable, preview]\n"
	rc, err := ParseReleaseConfig("rc.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := rc.Check(widgetFacts); len(got) > 0 {
		t.Errorf("problems: %v", got)
	}
}

// TestCheckTargetsGivenOtherwise: targets not read from a file (a command
// line's flags) are checked the same, their problems without a file.
func TestCheckTargetsGivenOtherwise(t *testing.T) {
	rc := &ReleaseConfig{Targets: []ReleaseTarget{{TemplateFile: "new.yaml", Channels: []string{"stabel"}}}}
	got := rc.Check(widgetFacts)
	if len(got) != 1 || got[0].Error() != `channel "stabel" is in no template of operators/widget: did you mean stable?` || !errors.Is(got[0], ErrNearMissChannel) {
		t.Errorf("problems: %v", got)
	}
}

func TestNearMissChannel(t *testing.T) {
	for _, tt := range []struct {
		name     string
		existing []string
		want     string
	}{
		{"lapha", nil, "alpha"},
		{"stabel", []string{"release-1.7"}, "stable"},
		{"Fast", nil, ""},                  // a semver stream's name
		{"Fast", []string{"fast"}, "fast"}, // but a near miss of an existing one
		{"fast-3", nil, ""},                // a version of fast
		{"release-1.8", []string{"release-1.7"}, ""},
		{"relase-1.7", []string{"release-1.7"}, "release-1.7"},
		{"stable", nil, ""},
		{"candiate", []string{"candidate-v1"}, "candidate"},
	} {
		if got := strings.Join(NearMissChannel(tt.name, tt.existing), ","); got != tt.want {
			t.Errorf("NearMissChannel(%q, %v) = %q, want %q", tt.name, tt.existing, got, tt.want)
		}
	}
}
