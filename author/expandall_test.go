package author

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

// edit replaces old by new in a file of the repository.
func edit(t *testing.T, r *Repo, rel, old, new string) {
	t.Helper()
	file := filepath.Join(r.Root, rel)
	data, err := os.ReadFile(file)
	if err != nil || !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s lacks %q: %v", rel, old, err)
	}
	if err := os.WriteFile(file, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRepoExpandAllMatch(t *testing.T) {
	r := testRepo(t)
	for _, check := range []bool{false, true} {
		res, err := r.Expand(context.Background(), ExpandRequest{Check: check}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Drifted() || res.Plan.Root != r.Root || res.Plan.Summary != "all catalogs of 2 operators match their templates" {
			t.Errorf("check=%v: %+v %+v", check, res, res.Plan)
		}
	}
}

func TestRepoExpandDrift(t *testing.T) {
	r := testRepo(t)
	ctx := context.Background()
	edit(t, r, "catalogs/v4.17/widget/catalog.yaml", "defaultChannel: stable", "defaultChannel: fast")
	res, err := r.Expand(ctx, ExpandRequest{Packages: []string{"gadget", "widget"}, Check: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Drifted() || len(res.Plan.Changes) != 1 || res.Plan.Changes[0].Path != "catalogs/v4.17/widget/catalog.yaml" {
		t.Fatalf("drift: %+v", res.Plan.Changes)
	}
	if want := "1 catalog differs from its template"; res.Plan.Summary != want {
		t.Errorf("summary %q, want %q", res.Plan.Summary, want)
	}
	res, err = r.Expand(ctx, ExpandRequest{Packages: []string{"widget"}}, Options{})
	if err != nil || res.Plan.Summary != "1 catalog rendered again from their templates" {
		t.Fatalf("render: %v %+v", err, res)
	}
	if err := res.Plan.Apply(); err != nil {
		t.Fatal(err)
	}
	if res, err := r.Expand(ctx, ExpandRequest{Check: true}, Options{}); err != nil || res.Drifted() {
		t.Errorf("after rendering again: %v %+v", err, res)
	}
}

func TestRepoExpandConflicts(t *testing.T) {
	r := testRepo(t)
	edit(t, r, "catalogs/v4.17/widget/catalog.yaml", "image: quay.io/example/widget-controller:v1.0.0", "image: quay.io/example/widget-controller:v1.0.0-hotfix")
	for _, check := range []bool{false, true} {
		res, err := r.Expand(context.Background(), ExpandRequest{Packages: []string{"widget"}, Check: check}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"bundle widget-operator.v1.0.0: catalogs/v4.16/widget/catalog.yaml:24 and catalogs/v4.17/widget/catalog.yaml:24 hold different copies (no majority tells which is right)"}
		if !res.Drifted() || len(res.Plan.Changes) != 0 || strings.Join(res.Conflicts, "\n") != want[0] {
			t.Fatalf("check=%v: %q %+v", check, res.Conflicts, res.Plan.Changes)
		}
		hint := strings.Contains(res.Plan.Summary, "1 bundle with copies that differ between catalogs: fix the wrong copy by hand")
		if hint != check {
			t.Errorf("check=%v: summary %q", check, res.Plan.Summary)
		}
	}
}

func TestRepoExpandStopsAtAFailure(t *testing.T) {
	r := testRepo(t)
	_, err := r.Expand(context.Background(), ExpandRequest{Packages: []string{"widget", "nosuch"}}, Options{})
	if err == nil || !strings.Contains(err.Error(), `no operator "nosuch"`) {
		t.Errorf("unknown operator: %v", err)
	}
	empty := &Repo{Root: t.TempDir()}
	if _, err := empty.Expand(context.Background(), ExpandRequest{}, Options{}); err == nil || !strings.Contains(err.Error(), "no operators/ directory") {
		t.Errorf("no operators/: %v", err)
	}
}

func TestReleaseIntoAnotherPackage(t *testing.T) {
	r := testRepo(t)
	ctx := context.Background()
	req := ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}
	_, err := open(t, r, "gadget").Release(ctx, req, Options{})
	if err == nil || !strings.Contains(err.Error(), "operators/widget/1.2.0 is a bundle directory of operator widget, not of gadget") {
		t.Errorf("release into gadget: %v", err)
	}
	p, err := r.OpenBundleDir(ctx, req.BundleDir)
	if err != nil || p.Name != "widget" {
		t.Fatalf("OpenBundleDir: %v %v", p, err)
	}
}

// TestOptionsBundles renders a template naming a bundle no catalog holds
// from the bundle Options gives.
func TestOptionsBundles(t *testing.T) {
	r := testRepo(t)
	ctx := context.Background()
	req := ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}
	plan, err := release(ctx, r, req, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The template now names the new bundle, but no committed catalog
	// holds it: keep only the template change.
	var tmpl []FileChange
	for _, c := range plan.Changes {
		if c.Kind == KindTemplate {
			tmpl = append(tmpl, c)
		}
	}
	if err := (&Plan{Root: r.Root, Changes: tmpl}).Apply(); err != nil {
		t.Fatal(err)
	}
	p := open(t, r, "widget")
	if _, err := p.Expand(ctx, Options{}); err == nil || !strings.Contains(err.Error(), "quay.io/example/w:v1.2.0") {
		t.Fatalf("offline without the bundle: %v", err)
	}
	rel, err := p.readRelease(filepath.Join(r.Root, "operators/widget/1.2.0"), req.Image, req.Target)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Expand(ctx, Options{Bundles: []declcfg.Bundle{rel.fbc}})
	if err != nil || len(got.Changes) != 2 {
		t.Fatalf("with the bundle: %v %+v", err, got)
	}
}
