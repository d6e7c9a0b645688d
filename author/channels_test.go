package author

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/position"
)

// writeFile replaces a file of a test repository.
func writeFile(t *testing.T, r *Repo, rel, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.Root, rel), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPromoteNearMissChannel(t *testing.T) {
	ctx := context.Background()
	r := testRepo(t)
	p := open(t, r, "widget")
	req := PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stabel"}
	plan, err := p.Promote(ctx, req, Options{})
	if !IsRefusal(err) || plan != nil || !strings.Contains(err.Error(), `channel "stabel" is in no template of operators/widget: did you mean stable?`) {
		t.Fatalf("a near miss of stable: %v %v", plan, err)
	}
	if _, err := p.Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "Fast"}, Options{}); err == nil || !strings.Contains(err.Error(), "did you mean fast?") {
		t.Errorf("a channel differing in case only: %v", err)
	}
	req.NewChannel = true
	plan = must(t, r)(p.Promote(ctx, req, Options{}))
	if len(plan.Notes) != 1 || plan.Notes[0] != "channel stabel is new: no template of operators/widget had it" {
		t.Errorf("notes: %q", plan.Notes)
	}
	p = open(t, r, "widget")
	plan = must(t, r)(p.Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "preview"}, Options{}))
	if len(plan.Notes) != 1 || !strings.Contains(plan.Notes[0], "channel preview is new") {
		t.Errorf("a genuinely new channel is noted: %q", plan.Notes)
	}
	// A semver template's streams: the hint names the stream.
	g := open(t, r, "gadget")
	_, err = g.Promote(ctx, PromoteRequest{Bundle: "gadget-operator.v1.0.1", Channel: "Fsat"}, Options{})
	if err == nil || !strings.Contains(err.Error(), `"Fsat" is no channel of semver template semver.yaml (did you mean Fast?)`) {
		t.Errorf("semver near miss: %v", err)
	}
}

func TestReleaseNearMissChannel(t *testing.T) {
	ctx := context.Background()
	r := testRepo(t)
	rc := "operators/widget/1.2.0/release-config.yaml"
	writeFile(t, r, rc, "---\ncatalog_templates:\n  - template_name: basic.yaml\n    replaces: widget-operator.v1.1.1\n    channels:\n      - fast\n      - stabel\n")
	req := ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}
	plan, err := release(ctx, r, req, Options{})
	var ce *position.Error
	if !errors.As(err, &ce) || repoconfig.ProblemOf(err) == nil || plan != nil || ce.File != rc || ce.Line != 5 || !strings.Contains(ce.Text(), "did you mean stable?") {
		t.Fatalf("a near miss in release-config.yaml must be refused at its channels key (line 5): %v", err)
	}
	req.NewChannel = true
	plan = must(t, r)(release(ctx, r, req, Options{}))
	if len(plan.Notes) != 1 || !strings.Contains(plan.Notes[0], "channel stabel is new") {
		t.Errorf("notes: %q", plan.Notes)
	}
	// A genuinely new channel works without the flag, as the pipeline's does.
	r = testRepo(t)
	writeFile(t, r, rc, "---\ncatalog_templates:\n  - template_name: basic.yaml\n    channels: [preview]\n")
	plan = must(t, r)(release(ctx, r, ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}, Options{}))
	if len(plan.Notes) != 1 || !strings.Contains(plan.Notes[0], "channel preview is new") {
		t.Errorf("notes: %q", plan.Notes)
	}
}

func TestReleaseConfigErrorsAtTheirKeys(t *testing.T) {
	ctx := context.Background()
	r := testRepo(t)
	rc := "operators/widget/1.2.0/release-config.yaml"
	for text, line := range map[string]int{
		"catalog_templates:\n  - channels: [fast]\n    template_name: nope.yaml\n":                           3,
		"catalog_templates:\n  - template_name: basic.yaml\n    channels: [fast]\n    replaces: widget.v1\n": 4,
		"catalog_templates:\n  - template_name: basic.yaml\n    channels: []\n":                              3,
	} {
		writeFile(t, r, rc, text)
		_, err := release(ctx, r, ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}, Options{})
		var ce *position.Error
		if !errors.As(err, &ce) || repoconfig.ProblemOf(err) == nil || ce.Line != line {
			t.Errorf("%s: %v, want an error at line %d", text, err, line)
		}
	}
}

func TestBundleDirNamedOffItsVersion(t *testing.T) {
	r := testRepo(t)
	src, dst := filepath.Join(r.Root, "operators/widget/1.2.0"), filepath.Join(r.Root, "operators/widget/0.0.4")
	if err := os.Rename(src, dst); err != nil {
		t.Fatal(err)
	}
	plan := must(t, r)(release(context.Background(), r, ReleaseRequest{BundleDir: "operators/widget/0.0.4", Image: "quay.io/example/w:v1.2.0"}, Options{}))
	if len(plan.Notes) != 1 || !strings.Contains(plan.Notes[0], "bundle directory operators/widget/0.0.4 holds widget-operator.v1.2.0, version 1.2.0") {
		t.Errorf("a directory named off its version is a warning: %q", plan.Notes)
	}
}

// must applies a verb's plan (see apply).
func must(t *testing.T, r *Repo) func(*Plan, error) *Plan {
	return func(plan *Plan, err error) *Plan {
		t.Helper()
		return apply(t, r, plan, err)
	}
}
