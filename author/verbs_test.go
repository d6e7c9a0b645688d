package author

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/model"
	"github.com/fbcat/opm/validate"
)

// testRepo copies testdata/repo (widget: a basic template with comments,
// catalogs v4.16 and v4.17; gadget: a semver template, catalog v4.18).
func testRepo(t *testing.T) *Repo {
	t.Helper()
	return &Repo{Root: catalogrepotest.Copy(t, "../testdata/repo")}
}

func open(t *testing.T, r *Repo, name string) *Package {
	t.Helper()
	p, err := r.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// apply writes a plan and checks that every catalog then matches its
// template again.
func apply(t *testing.T, r *Repo, plan *Plan, err error) *Plan {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"widget", "gadget"} {
		p := open(t, r, name)
		check, err := p.Expand(context.Background(), Options{})
		if err != nil {
			t.Fatalf("after the plan, %s does not render: %v", name, err)
		}
		if len(check.Changes) > 0 {
			t.Fatalf("after the plan, %s does not match its templates: %v", name, check.Changes)
		}
	}
	return plan
}

// release releases a bundle into the operator its directory belongs to.
func release(ctx context.Context, r *Repo, req ReleaseRequest, opts Options) (*Plan, error) {
	p, err := r.OpenBundleDir(ctx, req.BundleDir)
	if err != nil {
		return nil, err
	}
	return p.Release(ctx, req, opts)
}

func read(t *testing.T, r *Repo, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.Root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// heads is the head of each channel of a committed catalog.
func heads(t *testing.T, r *Repo, rel string) map[string]string {
	t.Helper()
	res, err := catalogrepo.ValidateFile(context.Background(), rel, []byte(read(t, r, rel)), validate.Options{KeepConfig: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Config == nil {
		t.Fatalf("loading %s: %v", rel, res.Problems)
	}
	m, _ := model.New(res.Config, model.Options{})
	out := map[string]string{}
	for _, p := range m.Packages {
		for name, ch := range p.Channels {
			out[name], _ = ch.Head()
		}
	}
	return out
}

func TestReleaseWithReleaseConfig(t *testing.T) {
	r := testRepo(t)
	plan, err := release(context.Background(), r, ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}, Options{})
	// The diff reads the committed texts: it is made before Apply.
	var diff bytes.Buffer
	if err == nil {
		if err := plan.Diff(&diff); err != nil || !strings.Contains(diff.String(), "+++ b/catalogs/v4.16/widget/catalog.yaml") {
			t.Errorf("diff: %v\n%s", err, diff.String())
		}
	}
	apply(t, r, plan, err)
	if _, err := plan.OldText(plan.Changes[0]); err == nil || !strings.Contains(err.Error(), "changed while opm was working on it") {
		t.Errorf("the old text of an applied change: %v", err)
	}
	if len(plan.Changes) != 3 || plan.Changes[0].Kind != KindTemplate {
		t.Fatalf("changes: %+v", plan.Changes)
	}
	tmpl := read(t, r, "operators/widget/catalog-templates/basic.yaml")
	for _, want := range []string{"# fast gets every release first", "defaultChannel: stable  # most users", "  - name: widget-operator.v1.2.0\n    replaces: widget-operator.v1.1.1\n", "- schema: olm.bundle\n  image: quay.io/example/w:v1.2.0\n"} {
		if !strings.Contains(tmpl, want) {
			t.Errorf("the template lacks %q:\n%s", want, tmpl)
		}
	}
	if h := heads(t, r, "catalogs/v4.17/widget/catalog.yaml"); h["fast"] != "widget-operator.v1.2.0" {
		t.Errorf("heads after the release: %v", h)
	}
}

func TestReleaseWithFlags(t *testing.T) {
	r := testRepo(t)
	os.Remove(filepath.Join(r.Root, "operators/gadget/1.1.0-rc.1/release-config.yaml"))
	req := ReleaseRequest{BundleDir: filepath.Join(r.Root, "operators/gadget/1.1.0-rc.1"), Image: "quay.io/example/g:rc1",
		Target: &repoconfig.ReleaseTarget{Channels: []string{"candidate"}, Replaces: "gadget-operator.v1.0.1"}}
	plan, err := release(context.Background(), r, req, Options{})
	apply(t, r, plan, err)
	if !strings.Contains(read(t, r, "operators/gadget/catalog-templates/semver.yaml"), "Candidate:\n  Bundles:\n  - Image: quay.io/example/g:rc1\n") {
		t.Errorf("semver template:\n%s", read(t, r, "operators/gadget/catalog-templates/semver.yaml"))
	}
	if len(plan.Notes) != 1 || !strings.Contains(plan.Notes[0], "semver template") {
		t.Errorf("a semver template ignores replaces: notes %q", plan.Notes)
	}
}

func TestReleaseMakesMissingTemplates(t *testing.T) {
	r := testRepo(t)
	for _, f := range []string{"operators/widget/catalog-templates", "catalogs/v4.16/widget", "catalogs/v4.17/widget"} {
		os.RemoveAll(filepath.Join(r.Root, f))
	}
	plan, err := release(context.Background(), r, ReleaseRequest{BundleDir: "operators/widget/1.0.0", Image: "quay.io/example/w:v1.0.0"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	for _, c := range plan.Changes {
		if !c.Created {
			t.Errorf("%s: want a new file", c.Path)
		}
	}
	if tmpl := read(t, r, "operators/widget/catalog-templates/basic.yaml"); !strings.Contains(tmpl, "defaultChannel: stable") {
		t.Errorf("new template:\n%s", tmpl)
	}
}

func TestReleaseRefusals(t *testing.T) {
	r := testRepo(t)
	ctx := context.Background()
	tests := []struct {
		name string
		req  ReleaseRequest
		want string
	}{
		{"released", ReleaseRequest{BundleDir: "operators/widget/1.1.1", Image: "quay.io/example/widget-operator-bundle:v1.1.1"}, "is already released"},
		{"not a bundle dir", ReleaseRequest{BundleDir: "operators/widget", Image: "quay.io/example/widget-operator-bundle:v9"}, "is not a bundle directory of this repository"},
		{"missing", ReleaseRequest{BundleDir: "operators/widget/9.9.9", Image: "quay.io/example/widget-operator-bundle:v9"}, "no such file"},
		{"flags and release-config", ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/widget-operator-bundle:v9", Target: &repoconfig.ReleaseTarget{Channels: []string{"fast"}}}, "says where the bundle is released"},
	}
	for _, tt := range tests {
		if _, err := release(ctx, r, tt.req, Options{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestPromoteAndDefaultChannel(t *testing.T) {
	r := testRepo(t)
	ctx := context.Background()
	plan, err := open(t, r, "widget").Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable"}, Options{})
	apply(t, r, plan, err)
	if h := heads(t, r, "catalogs/v4.16/widget/catalog.yaml"); h["stable"] != "widget-operator.v1.1.1" {
		t.Errorf("heads after promote: %v", h)
	}
	plan, err = open(t, r, "widget").Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "preview", Replaces: new("")}, Options{})
	apply(t, r, plan, err)
	plan, err = open(t, r, "widget").SetDefaultChannel(ctx, DefaultChannelRequest{Channel: "fast"}, Options{})
	apply(t, r, plan, err)
	if !strings.Contains(read(t, r, "catalogs/v4.17/widget/catalog.yaml"), "defaultChannel: fast") {
		t.Error("the default channel was not set")
	}
	plan, err = open(t, r, "widget").SetDefaultChannel(ctx, DefaultChannelRequest{Channel: "fast"}, Options{})
	if err != nil || len(plan.Changes) != 0 || !strings.Contains(plan.Summary, "already") {
		t.Errorf("setting it again: %v %+v", err, plan)
	}
	if _, err := open(t, r, "gadget").SetDefaultChannel(ctx, DefaultChannelRequest{Channel: "stable-v1"}, Options{}); !IsRefusal(err) {
		t.Errorf("semver default channel: %v", err)
	}
	plan, err = open(t, r, "gadget").Promote(ctx, PromoteRequest{Bundle: "gadget-operator.v1.0.1", Channel: "fast"}, Options{})
	apply(t, r, plan, err)
	if _, err := open(t, r, "gadget").Promote(ctx, PromoteRequest{Bundle: "gadget-operator.v1.0.1", Channel: "fast", Skips: []string{"x"}}, Options{}); !IsRefusal(err) {
		t.Errorf("semver promote with edges: %v", err)
	}
}

func TestDeprecateAndRemove(t *testing.T) {
	r := testRepo(t)
	ctx := context.Background()
	for _, req := range []DeprecateRequest{{Bundle: "widget-operator.v1.0.0"}, {Channel: "fast", Message: "gone"}, {Package: true}, {Channel: "fast", Message: "really gone"}} {
		plan, err := open(t, r, "widget").Deprecate(ctx, req, Options{})
		apply(t, r, plan, err)
	}
	tmpl := read(t, r, "operators/widget/catalog-templates/basic.yaml")
	for _, want := range []string{"message: widget-operator.v1.0.0 is deprecated.", "message: really gone", "message: This package is deprecated."} {
		if !strings.Contains(tmpl, want) {
			t.Errorf("template lacks %q:\n%s", want, tmpl)
		}
	}
	if _, err := open(t, r, "gadget").Deprecate(ctx, DeprecateRequest{Bundle: "gadget-operator.v0.9.0"}, Options{}); err == nil || !strings.Contains(err.Error(), "semver templates cannot hold deprecations") {
		t.Errorf("semver deprecate: %v", err)
	}
	plan, err := open(t, r, "widget").Remove(ctx, RemoveRequest{Bundle: "widget-operator.v1.0.0"}, Options{})
	apply(t, r, plan, err)
	if strings.Contains(read(t, r, "operators/widget/catalog-templates/basic.yaml"), "name: widget-operator.v1.0.0") {
		t.Error("the deprecation of the removed bundle is still in the template")
	}
	if _, err := open(t, r, "widget").Remove(ctx, RemoveRequest{Bundle: "widget-operator.v1.1.1"}, Options{}); err == nil || !strings.Contains(err.Error(), "heads channel fast") {
		t.Errorf("removing a head: %v", err)
	}
	plan, err = open(t, r, "gadget").Remove(ctx, RemoveRequest{Bundle: "gadget-operator.v1.0.0"}, Options{})
	apply(t, r, plan, err)
}

func TestDriftAndForce(t *testing.T) {
	r := testRepo(t)
	ctx := context.Background()
	cat := filepath.Join(r.Root, "catalogs/v4.17/widget/catalog.yaml")
	data, _ := os.ReadFile(cat)
	os.WriteFile(cat, bytes.Replace(data, []byte("defaultChannel: stable"), []byte("defaultChannel: fast"), 1), 0o644)
	_, err := open(t, r, "widget").Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable"}, Options{})
	var refusal *Refusal
	if !errors.As(err, &refusal) || !strings.Contains(err.Error(), "catalogs/v4.17/widget/catalog.yaml") {
		t.Fatalf("drift: %v", err)
	}
	plan, err := open(t, r, "widget").Expand(ctx, Options{})
	if err != nil || len(plan.Changes) != 1 || plan.Changes[0].Path != "catalogs/v4.17/widget/catalog.yaml" {
		t.Fatalf("render of a drifted catalog: %v %+v", err, plan)
	}
	plan, err = open(t, r, "widget").Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable"}, Options{Force: true})
	apply(t, r, plan, err)
}

func TestApplyRefusesChangedFiles(t *testing.T) {
	r := testRepo(t)
	plan, err := open(t, r, "widget").Promote(context.Background(), PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := read(t, r, "catalogs/v4.16/widget/catalog.yaml")
	os.WriteFile(filepath.Join(r.Root, "catalogs/v4.17/widget/catalog.yaml"), []byte("edited meanwhile\n"), 0o644)
	if err := plan.Apply(); err == nil || !strings.Contains(err.Error(), "changed while opm was working on it") {
		t.Fatalf("Apply: %v", err)
	}
	if read(t, r, "catalogs/v4.16/widget/catalog.yaml") != before {
		t.Error("a file was written although Apply failed")
	}
	entries, _ := os.ReadDir(filepath.Join(r.Root, "catalogs/v4.16/widget"))
	if len(entries) != 1 {
		t.Errorf("temporary files were left behind: %v", entries)
	}
}
