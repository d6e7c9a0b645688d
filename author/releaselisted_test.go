package author

import (
	"context"
	"strings"
	"testing"
)

// TestReleaseListedByHand: a semver template that lists the image being
// released already (added by hand, its catalogs not rendered) is left as
// it is, and its catalogs are rendered with the bundle, as the release
// pipeline renders them; the committed catalogs are checked against the
// template without it, so they are no drift.
func TestReleaseListedByHand(t *testing.T) {
	ctx := context.Background()
	r := testRepo(t)
	const tmpl = "operators/gadget/catalog-templates/semver.yaml"
	const cat = "catalogs/v4.18/gadget/catalog.yaml"
	const image = "quay.io/example/g:rc1"
	writeFile(t, r, tmpl, read(t, r, tmpl)+"Candidate:\n  Bundles:\n  - Image: "+image+"\n")
	before := read(t, r, tmpl)
	plan := must(t, r)(release(ctx, r, ReleaseRequest{BundleDir: "operators/gadget/1.1.0-rc.1", Image: image}, Options{}))
	if len(plan.Changes) != 1 || plan.Changes[0].Path != cat {
		t.Errorf("changes %+v, want the catalog alone", plan.Changes)
	}
	if read(t, r, tmpl) != before {
		t.Errorf("the template changed:\n%s", read(t, r, tmpl))
	}
	if !strings.Contains(read(t, r, cat), "image: "+image+"\n") {
		t.Error("the catalog does not hold the bundle")
	}
	if want := "semver.yaml already listed " + image + ": its catalogs are rendered with it"; !strings.Contains(strings.Join(plan.Notes, "\n"), want) {
		t.Errorf("notes %q, want %q", plan.Notes, want)
	}
}
