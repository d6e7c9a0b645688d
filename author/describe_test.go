package author

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/render"
)

// TestSemverPackageDescribedOffline: a semver catalog committed without
// the package's description (as opm before v1.65 rendered it) still
// matches its template, and the next release describes the package from
// the CSV of the default channel's head, as upstream does: read from the
// head's bundle directory, or, without one, from its olm.csv.metadata.
func TestSemverPackageDescribedOffline(t *testing.T) {
	for _, withDir := range []bool{true, false} {
		ctx := context.Background()
		r := testRepo(t)
		cat := "catalogs/v4.18/gadget/catalog.yaml"
		const desc = "description: |\n  Runs gadgets on Kubernetes.\n"
		if !strings.Contains(read(t, r, cat), desc) {
			t.Fatal("testdata: the gadget catalog has no description")
		}
		writeFile(t, r, cat, strings.Replace(read(t, r, cat), desc, "", 1))
		if !withDir {
			if err := os.RemoveAll(filepath.Join(r.Root, "operators/gadget/1.0.1")); err != nil {
				t.Fatal(err)
			}
		}
		check, err := open(t, r, "gadget").Expand(ctx, Options{})
		if err != nil || len(check.Changes) != 0 {
			t.Fatalf("an undescribed package is no drift: %v %v", err, check)
		}
		must(t, r)(release(ctx, r, ReleaseRequest{BundleDir: "operators/gadget/1.1.0-rc.1", Image: "quay.io/example/g:rc1"}, Options{}))
		if !strings.Contains(read(t, r, cat), "defaultChannel: stable-v1.0\n"+desc) {
			t.Errorf("bundle directory %v: the release does not describe the package:\n%.300s", withDir, read(t, r, cat))
		}
	}
}

// iconCSV gives a bundle directory's CSV an icon (base64 of "icon") and
// the description desc.
func iconCSV(t *testing.T, r *Repo, dir, desc string) {
	t.Helper()
	rel := dir + "/manifests/gadget-operator.clusterserviceversion.yaml"
	s := strings.Replace(read(t, r, rel), "  description: |\n    Runs gadgets on Kubernetes.\n",
		"  description: "+desc+"\n  icon:\n  - base64data: aWNvbg==\n    mediatype: image/png\n", 1)
	writeFile(t, r, rel, s)
}

// TestSemverPackageDescribedByReleasedHead: a release that makes a new
// default channel, headed by the bundle released, describes the package
// from the released bundle's CSV, icon included, as upstream does.
func TestSemverPackageDescribedByReleasedHead(t *testing.T) {
	ctx := context.Background()
	r := testRepo(t)
	if err := os.CopyFS(filepath.Join(r.Root, "operators/gadget/1.1.0"), os.DirFS(filepath.Join(r.Root, "operators/gadget/1.0.1"))); err != nil {
		t.Fatal(err)
	}
	rel := "operators/gadget/1.1.0/manifests/gadget-operator.clusterserviceversion.yaml"
	writeFile(t, r, rel, strings.ReplaceAll(read(t, r, rel), "1.0.1", "1.1.0"))
	iconCSV(t, r, "operators/gadget/1.1.0", "Gadgets, new.")
	must(t, r)(release(ctx, r, ReleaseRequest{BundleDir: "operators/gadget/1.1.0", Image: "quay.io/example/gadget-operator-bundle:v1.1.0"}, Options{}))
	const want = "defaultChannel: stable-v1.1\ndescription: Gadgets, new.\nicon:\n  base64data: aWNvbg==\n  mediatype: image/png\nname: gadget-operator\n"
	if got := read(t, r, "catalogs/v4.18/gadget/catalog.yaml"); !strings.Contains(got, want) {
		t.Errorf("package:\n%.300s\nwant %q", got, want)
	}
}

// TestSemverPackageDescribedFromAnotherCatalog: without the head's bundle
// directory, its CSV is read from a catalog that keeps its objects (one
// for OpenShift before 4.17), and the migrated catalog's package gets
// its icon too.
func TestSemverPackageDescribedFromAnotherCatalog(t *testing.T) {
	ctx := context.Background()
	r := testRepo(t)
	iconCSV(t, r, "operators/gadget/1.0.1", "Gadgets.")
	ci := "operators/gadget/ci.yaml"
	writeFile(t, r, ci, strings.Replace(read(t, r, ci), "catalog_names: [v4.18]", "catalog_names: [v4.16, v4.18]", 1))
	if err := os.MkdirAll(filepath.Join(r.Root, "catalogs/v4.16/gadget"), 0o755); err != nil {
		t.Fatal(err)
	}
	var dirs Options // the bundles, as the catalog that keeps their objects has them
	for _, v := range []string{"0.9.0", "1.0.0", "1.0.1"} {
		b, err := render.BundleFromDir(filepath.Join(r.Root, "operators/gadget", v), "quay.io/example/gadget-operator-bundle:v"+v)
		if err != nil {
			t.Fatal(err)
		}
		dirs.Bundles = append(dirs.Bundles, *b)
	}
	res, err := r.Expand(ctx, ExpandRequest{Packages: []string{"gadget"}}, dirs)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, r, res.Plan, nil)
	if err := os.RemoveAll(filepath.Join(r.Root, "operators/gadget/1.0.1")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, r, "catalogs/v4.18/gadget/catalog.yaml", strings.Replace(read(t, r, "catalogs/v4.18/gadget/catalog.yaml"), "icon:\n  base64data: aWNvbg==\n  mediatype: image/png\n", "", 1))
	res, err = r.Expand(ctx, ExpandRequest{Packages: []string{"gadget"}}, Options{})
	if err != nil || len(res.Plan.Changes) != 1 || len(res.Plan.Incomplete) != 0 {
		t.Fatalf("%v %+v", err, res.Plan)
	}
	apply(t, r, res.Plan, nil)
	if got := read(t, r, "catalogs/v4.18/gadget/catalog.yaml"); !strings.Contains(got, "description: Gadgets.\nicon:\n  base64data: aWNvbg==\n") {
		t.Errorf("package:\n%.300s", got)
	}
}

// TestSemverIconOnlyInImage: when only the image holds the head's CSV
// (its directory gone, every copy migrated), the description comes from
// its olm.csv.metadata, the catalog's icon is kept, and the plan says
// what it was made without (Options.Pull); pulling reads both from the
// image.
func TestSemverIconOnlyInImage(t *testing.T) {
	ctx := context.Background()
	r := testRepo(t)
	const cat = "catalogs/v4.18/gadget/catalog.yaml"
	for _, dir := range []string{"1.0.0", "1.0.1"} {
		if err := os.RemoveAll(filepath.Join(r.Root, "operators/gadget", dir)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, r, cat, strings.Replace(read(t, r, cat), "name: gadget-operator\nschema: olm.package\n",
		"icon:\n  base64data: b2xk\n  mediatype: image/png\nname: gadget-operator\nschema: olm.package\n", 1))
	if check, err := open(t, r, "gadget").Expand(ctx, Options{}); err != nil || len(check.Changes) != 0 {
		t.Fatalf("the committed icon is no drift: %v %+v", err, check)
	}
	// Removing the head makes gadget-operator.v1.0.0 the head.
	plan, err := open(t, r, "gadget").Remove(ctx, RemoveRequest{Bundle: "gadget-operator.v1.0.1"}, Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Incomplete) != 1 || !slices.Contains(plan.Incomplete[0].Names(), optionPull) ||
		plan.Incomplete[0].Problem != cat+": the package's icon comes from the ClusterServiceVersion of gadget-operator.v1.0.0, the head of the default channel stable-v1.0, "+
			"which only its image quay.io/example/gadget-operator-bundle:v1.0.0 holds (no bundle directory has it and no committed catalog keeps its objects), so the icon already in the catalog was kept" {
		t.Errorf("incomplete: %v", plan.Incomplete)
	}
	text := string(plan.Changes[1].NewText())
	if !strings.Contains(text, "description: |\n  Runs gadgets on Kubernetes.\nicon:\n  base64data: b2xk\n") {
		t.Errorf("package:\n%.300s", text)
	}
	pull := csvPull{"quay.io/example/gadget-operator-bundle:v1.0.0": `{"kind":"ClusterServiceVersion","spec":{"description":"pulled","icon":[{"base64data":"aWNvbg==","mediatype":"image/png"}]}}`}
	plan, err = open(t, r, "gadget").Remove(ctx, RemoveRequest{Bundle: "gadget-operator.v1.0.1"}, Options{Force: true, Pull: pull})
	if err != nil || len(plan.Incomplete) != 0 {
		t.Fatalf("pulling: %v %v", err, plan.Incomplete)
	}
	if text := string(plan.Changes[1].NewText()); !strings.Contains(text, "description: pulled\nicon:\n  base64data: aWNvbg==\n") {
		t.Errorf("pulled package:\n%.300s", text)
	}
}

// csvPull renders the given images, as bundles with only the given CSVs.
type csvPull map[string]string

func (f csvPull) RenderBundle(_ context.Context, ref string) (*template.Bundle, error) {
	csv, ok := f[ref]
	if !ok {
		return nil, fmt.Errorf("no image %s", ref)
	}
	return &template.Bundle{CSV: []byte(csv)}, nil
}
