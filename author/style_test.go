package author

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const gadgetCatalog = "catalogs/v4.18/gadget/catalog.yaml"

// olderStyle writes gadget's catalog as the release pipeline's opm
// wrote semver catalogs until July 2026 (each channel linked on its own,
// no package description), and checks that render --check accepts it.
func olderStyle(t *testing.T, r *Repo) string {
	t.Helper()
	ctx := context.Background()
	p := open(t, r, "gadget")
	c := p.Catalogs[0]
	older, err := p.expandCatalog(ctx, c, c.Template.Data, p.NewBundles(), perChannel)
	if err != nil {
		t.Fatal(err)
	}
	data, err := older.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if described(string(data)) || string(data) == read(t, r, gadgetCatalog) {
		t.Fatalf("testdata: the older style is today's:\n%.300s", data)
	}
	writeFile(t, r, gadgetCatalog, string(data))
	res, err := r.Expand(ctx, ExpandRequest{Packages: []string{"gadget"}, Check: true}, Options{})
	if err != nil || res.Drifted() || len(res.Differences) != 0 || len(res.Plan.Changes) != 0 {
		t.Fatalf("render --check does not accept the older style: %v %+v", err, res)
	}
	return string(data)
}

// gadgetMinor adds the bundle directory operators/gadget/1.1.0, released
// into Stable: a second minor version of stable-v1, which the two styles
// link differently.
func gadgetMinor(t *testing.T, r *Repo) ReleaseRequest {
	t.Helper()
	dir := "operators/gadget/1.1.0"
	if err := os.CopyFS(filepath.Join(r.Root, dir), os.DirFS(filepath.Join(r.Root, "operators/gadget/1.0.1"))); err != nil {
		t.Fatal(err)
	}
	csv := dir + "/manifests/gadget-operator.clusterserviceversion.yaml"
	writeFile(t, r, csv, strings.ReplaceAll(read(t, r, csv), "1.0.1", "1.1.0"))
	return ReleaseRequest{BundleDir: dir, Image: "quay.io/example/gadget-operator-bundle:v1.1.0"}
}

// TestReleaseWritesTodaysStyle: a release writes what opm v1.71 and
// later render, which the release pipeline writes, whatever the style
// the catalog was committed in: into a catalog in the older style it
// gives the very bytes it gives into one in today's. StyleKept keeps
// the older style, which render --check accepts afterwards too.
func TestReleaseWritesTodaysStyle(t *testing.T) {
	ctx := context.Background()
	today := testRepo(t)
	must(t, today)(release(ctx, today, gadgetMinor(t, today), Options{}))
	want := read(t, today, gadgetCatalog)
	const linked = "- name: gadget-operator.v1.1.0\n  replaces: gadget-operator.v1.0.1\n  skips:\n  - gadget-operator.v1.0.0\nname: stable-v1.1\n"
	if !described(want) || !strings.Contains(want, linked) {
		t.Fatalf("today's style: no description, or stable-v1.1 not linked to 1.0.1:\n%s", want)
	}

	older := testRepo(t)
	olderStyle(t, older)
	req := gadgetMinor(t, older)
	must(t, older)(release(ctx, older, req, Options{}))
	if got := read(t, older, gadgetCatalog); got != want {
		t.Errorf("released into the older style:\n%s\nwant today's:\n%s", got, want)
	}

	kept := testRepo(t)
	olderStyle(t, kept)
	must(t, kept)(release(ctx, kept, gadgetMinor(t, kept), Options{Style: StyleKept}))
	got := read(t, kept, gadgetCatalog)
	if described(got) || !strings.Contains(got, "- name: gadget-operator.v1.1.0\nname: stable-v1.1\n") {
		t.Errorf("StyleKept did not keep the older style:\n%s", got)
	}

	again := testRepo(t)
	must(t, again)(release(ctx, again, gadgetMinor(t, again), Options{Style: StyleKept}))
	if got := read(t, again, gadgetCatalog); got != want {
		t.Errorf("StyleKept on a catalog in today's style:\n%s\nwant:\n%s", got, want)
	}
}

// TestRemoveWritesTodaysStyle: the other verbs that render a semver
// catalog again write today's style too (remove here), or keep the
// older one with StyleKept.
func TestRemoveWritesTodaysStyle(t *testing.T) {
	ctx := context.Background()
	for _, keep := range []bool{false, true} {
		r := testRepo(t)
		olderStyle(t, r)
		p := open(t, r, "gadget")
		style := StyleAuto
		if keep {
			style = StyleKept
		}
		must(t, r)(p.Remove(ctx, RemoveRequest{Bundle: "gadget-operator.v1.0.0"}, Options{Style: style}))
		got := read(t, r, gadgetCatalog)
		if d := described(got); d == keep {
			t.Errorf("kept %v: described %v:\n%.400s", keep, d, got)
		}
	}
}

// described reports whether a catalog's package (its first document)
// has a description.
func described(catalog string) bool {
	pkg, _, _ := strings.Cut(strings.TrimPrefix(catalog, "---\n"), "---\n")
	return strings.Contains(pkg, "\ndescription:")
}

// TestReleaseOfAnOlderBundleWritesThePipelinesStyleThen: a bundle whose
// CSV was created before the release pipeline ran opm v1.71 is released
// as the pipeline then released it (StyleAuto), into a catalog in either
// style, with a note that says why; StyleToday writes today's style.
func TestReleaseOfAnOlderBundleWritesThePipelinesStyleThen(t *testing.T) {
	ctx := context.Background()
	built := func(r *Repo, createdAt string) ReleaseRequest {
		req := gadgetMinor(t, r)
		csv := req.BundleDir + "/manifests/gadget-operator.clusterserviceversion.yaml"
		writeFile(t, r, csv, strings.Replace(read(t, r, csv), "  annotations:\n", "  annotations:\n    createdAt: \""+createdAt+"\"\n", 1))
		return req
	}
	for _, older := range []bool{false, true} {
		r := testRepo(t)
		if older {
			olderStyle(t, r)
		}
		plan := must(t, r)(release(ctx, r, built(r, "2026-04-13T08:00:00Z"), Options{}))
		got := read(t, r, gadgetCatalog)
		if described(got) || !strings.Contains(got, "- name: gadget-operator.v1.1.0\nname: stable-v1.1\n") {
			t.Errorf("committed in the older style %v: a bundle built on 2026-04-13 not released in the pipeline's style then:\n%s", older, got)
		}
		if n := strings.Join(plan.Notes, "\n"); !strings.Contains(n, "built on 2026-04-13 (its CSV's createdAt), before the release pipeline rendered with opm v1.71 (2026-07-21)") {
			t.Errorf("notes do not say why the older style was written:\n%s", n)
		}
	}
	for _, c := range []struct {
		createdAt string
		opts      Options
	}{{"2026-04-13 08:00:00", Options{Style: StyleToday}}, {"2026-07-22T01:02:03Z", Options{}}, {"last spring", Options{}}} {
		r := testRepo(t)
		olderStyle(t, r)
		must(t, r)(release(ctx, r, built(r, c.createdAt), c.opts))
		if !described(read(t, r, gadgetCatalog)) {
			t.Errorf("createdAt %q, %+v: not released in today's style", c.createdAt, c.opts)
		}
	}
}
