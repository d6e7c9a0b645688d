package catalogrepo

import (
	"context"
	"testing"

	"github.com/fbcat/opm/catalogrepo/repoconfig"
)

// A basic template names each bundle by its image line, and each channel
// and channel entry by its line; a semver template its bundles' images
// (the first line when a template names one twice).
func TestTemplateLines(t *testing.T) {
	repo := &Repo{Root: "../testdata/repo"}
	widget, err := repo.Open(context.Background(), "widget")
	if err != nil {
		t.Fatal(err)
	}
	l := widget.Templates[0].Lines()
	for _, tt := range []struct {
		what      string
		got, want int
	}{
		{"image v1.1.1", l.Image("quay.io/example/widget-operator-bundle:v1.1.1"), 30},
		{"image v1.0.0", l.Image("quay.io/example/widget-operator-bundle:v1.0.0"), 17},
		{"image not named", l.Image("quay.io/example/widget-operator-bundle:v9"), 0},
		{"channel fast", l.Channel("fast"), 20},
		{"package", l.Package(), 7},
		{"entry stable v1.0.0", l.Entry("stable", "widget-operator.v1.0.0"), 13},
		{"entry fast v1.1.0", l.Entry("fast", "widget-operator.v1.1.0"), 23},
		{"entry not there", l.Entry("stable", "widget-operator.v1.1.1"), 0},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: line %d, want %d", tt.what, tt.got, tt.want)
		}
	}
	gadget, err := repo.Open(context.Background(), "gadget")
	if err != nil {
		t.Fatal(err)
	}
	l = gadget.Templates[0].Lines()
	if got := l.Image("quay.io/example/gadget-operator-bundle:v1.0.0"); got != 8 {
		t.Errorf("semver image: line %d, want 8", got)
	}
	if got := l.Entry("stable", "gadget-operator.v1.0.0"); got != 0 {
		t.Errorf("a semver template has no entries, got line %d", got)
	}
	twice := &Template{Mapping: repoconfig.Mapping{Type: repoconfig.TypeSemver}, Path: "t.yaml", Data: []byte("Schema: olm.semver\nCandidate:\n  Bundles:\n  - Image: a\nStable:\n  Bundles:\n  - Image: b\n  - Image: a\n")}
	if got := twice.Lines().Image("a"); got != 4 {
		t.Errorf("an image named twice: line %d, want 4", got)
	}
	// A template that does not parse, or does not exist, knows no line.
	for _, tm := range []*Template{{Path: "t.yaml", Data: []byte("entries: [")}, {Path: "t.yaml"}, nil} {
		if got := tm.Lines().Image("a"); got != 0 {
			t.Errorf("line %d of a template without lines", got)
		}
	}
}
