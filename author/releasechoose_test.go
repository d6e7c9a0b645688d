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

// withoutConfig is a test repository whose widget 1.2.0 has no
// release-config.yaml, and the request to release it into channels.
func withoutConfig(t *testing.T, channels ...string) (*Repo, ReleaseRequest) {
	t.Helper()
	r := testRepo(t)
	os.Remove(filepath.Join(r.Root, "operators/widget/1.2.0/release-config.yaml"))
	return r, ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0", Target: &repoconfig.ReleaseTarget{Channels: channels}}
}

// TestReleaseChoosesReplaces: without release-config.yaml and --replaces,
// the new entry replaces the channel's head, which the CSV's
// spec.replaces may name, and the plan says so.
func TestReleaseChoosesReplaces(t *testing.T) {
	r, req := withoutConfig(t, "fast", "stable")
	plan := must(t, r)(release(context.Background(), r, req, Options{}))
	want := []string{
		"no release-config.yaml: widget-operator.v1.2.0 replaces widget-operator.v1.1.1 in channel fast of basic.yaml, its ClusterServiceVersion's spec.replaces, the channel's head",
		"no release-config.yaml: widget-operator.v1.2.0 replaces widget-operator.v1.1.0 in channel stable of basic.yaml, the channel's head",
	}
	if strings.Join(plan.Notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(plan.Notes, "\n"), strings.Join(want, "\n"))
	}
	h := heads(t, r, "catalogs/v4.16/widget/catalog.yaml")
	if h["fast"] != "widget-operator.v1.2.0" || h["stable"] != "widget-operator.v1.2.0" {
		t.Errorf("heads: %v", h)
	}
}

// TestReleaseCannotChooseReplaces: where no choice is right, the refusal
// says why and needs Replaces (--replaces), before anything is rendered.
func TestReleaseCannotChooseReplaces(t *testing.T) {
	ctx := context.Background()
	csv := "operators/widget/1.2.0/manifests/widget-operator.clusterserviceversion.yaml"
	for name, tt := range map[string]struct {
		channel string
		edit    func(t *testing.T, r *Repo)
		says    string
	}{
		"two heads": {"fast", func(t *testing.T, r *Repo) {
			edit(t, r, "operators/widget/catalog-templates/basic.yaml", "  - name: widget-operator.v1.1.1\n    replaces: widget-operator.v1.1.0\n", "  - name: widget-operator.v1.1.1\n")
		}, "channel fast of basic.yaml has 2 heads (widget-operator.v1.1.0, widget-operator.v1.1.1), so what widget-operator.v1.2.0 replaces cannot be chosen"},
		"csv names no head": {"stable", func(t *testing.T, r *Repo) {
			edit(t, r, csv, "replaces: widget-operator.v1.1.1", "replaces: widget-operator.v1.0.0")
		}, "the ClusterServiceVersion of widget-operator.v1.2.0 replaces widget-operator.v1.0.0, which is in channel stable of basic.yaml but is not its head (widget-operator.v1.1.0)"},
		"older": {"fast", func(t *testing.T, r *Repo) {
			edit(t, r, csv, "name: widget-operator.v1.2.0", "name: widget-operator.v1.0.5")
			edit(t, r, csv, "version: 1.2.0", "version: 1.0.5")
		}, "widget-operator.v1.0.5 (1.0.5) is not newer than widget-operator.v1.1.1 (1.1.1), the head of channel fast of basic.yaml"},
	} {
		r, req := withoutConfig(t, tt.channel)
		tt.edit(t, r)
		_, err := release(ctx, r, req, Options{})
		if _, ok := lifts(err, targetFields[2]); !IsRefusal(err) || !ok || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: %v, want a refusal needing Replaces: %q", name, err, tt.says)
		}
	}
}

// TestReleaseConfigWithoutReplaces: a release-config.yaml that releases
// into a channel with a head and says nothing of it is refused at its
// channels key, naming the head (as the pipeline would make a second
// head), not at a line of a catalog.
func TestReleaseConfigWithoutReplaces(t *testing.T) {
	r := testRepo(t)
	rc := "operators/widget/1.2.0/release-config.yaml"
	writeFile(t, r, rc, "---\ncatalog_templates:\n  - template_name: basic.yaml\n    channels: [fast]\n")
	_, err := release(context.Background(), r, ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}, Options{})
	var ce *position.Error
	if !errors.As(err, &ce) || repoconfig.ProblemOf(err) == nil || ce.File != rc || ce.Line != 4 || !strings.Contains(ce.Text(), "channel fast of basic.yaml has head widget-operator.v1.1.1, and no replaces says what widget-operator.v1.2.0 replaces: it would be a second head; add replaces: widget-operator.v1.1.1") {
		t.Errorf("%v", err)
	}
}

// TestFirstReleaseSlips: the first release of a package, into templates
// that do not exist yet, refuses a near miss of a conventional channel
// name (at its line, with the name meant) unless NewChannel, as any
// release does; a semver template's near miss of a stream too.
func TestFirstReleaseSlips(t *testing.T) {
	ctx := context.Background()
	first := func(t *testing.T, template, channels string) (*Repo, ReleaseRequest) {
		r := testRepo(t)
		for _, f := range []string{"operators/widget/catalog-templates", "catalogs/v4.16/widget", "catalogs/v4.17/widget"} {
			os.RemoveAll(filepath.Join(r.Root, f))
		}
		if template == "semver.yaml" {
			edit(t, r, "operators/widget/ci.yaml", "template_name: basic.yaml\n      type: olm.template.basic", "template_name: semver.yaml\n      type: olm.semver")
		}
		writeFile(t, r, "operators/widget/1.0.0/release-config.yaml", "---\ncatalog_templates:\n  - template_name: "+template+"\n    channels: "+channels+"\n")
		return r, ReleaseRequest{BundleDir: "operators/widget/1.0.0", Image: "quay.io/example/w:v1.0.0"}
	}
	r, req := first(t, "basic.yaml", "[lapha, aFst]")
	_, err := release(ctx, r, req, Options{})
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if _, ok := lifts(err, "author.ReleaseRequest.NewChannel"); !ok || !strings.Contains(msg, `operators/widget/1.0.0/release-config.yaml:4: channel "lapha" is in no template of operators/widget: did you mean alpha?`) ||
		!strings.Contains(msg, `operators/widget/1.0.0/release-config.yaml:4: channel "aFst" is in no template of operators/widget: did you mean fast?`) {
		t.Errorf("a first release into lapha and aFst: %v", err)
	}
	req.NewChannel = true
	plan, err := release(ctx, r, req, Options{})
	if err != nil || !strings.Contains(strings.Join(plan.Notes, "\n"), "channel lapha is new") {
		t.Errorf("with NewChannel: %v %v", err, plan)
	}

	r, req = first(t, "semver.yaml", "[aFst, Stable]")
	if _, err := release(ctx, r, req, Options{}); err == nil || !strings.Contains(err.Error(), `release-config.yaml:4: "aFst" is no channel of semver template semver.yaml (did you mean Fast?)`) {
		t.Errorf("a semver first release into aFst: %v", err)
	}
	r, req = first(t, "basic.yaml", "[alpha, Stable]")
	if _, err := release(ctx, r, req, Options{}); err != nil {
		t.Errorf("conventional names in a first release: %v", err)
	}
}

// TestReleaseListsEveryProblem: every problem of release-config.yaml is
// in the refusal, each at its line.
func TestReleaseListsEveryProblem(t *testing.T) {
	r := testRepo(t)
	rc := "operators/widget/1.2.0/release-config.yaml"
	writeFile(t, r, rc, "---\ncatalog_templates:\n  - template_name: basic.yaml\n    channels: [fast]\n    replace: widget-operator.v1.1.1\n    replaces: widget-operator.v1.1.2\n")
	_, err := release(context.Background(), r, ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}, Options{})
	if err == nil || !IsRefusal(err) || err.Error() != rc+`:5: unknown key "replace" in a catalog_templates entry: did you mean replaces?`+"\n"+
		rc+`:6: replaces "widget-operator.v1.1.2" names no bundle of package "widget-operator": did you mean widget-operator.v1.1.1?` {
		t.Errorf("%v", err)
	}
}

// TestReleaseIntoChannelListingIt: a channel whose entry for the bundle
// was added by hand is refused at that entry, with or without
// release-config.yaml, rather than answered with a choice of what the
// bundle replaces (it would replace itself, or be older than itself).
func TestReleaseIntoChannelListingIt(t *testing.T) {
	const tmpl = "operators/widget/catalog-templates/basic.yaml"
	const want = tmpl + ":27: channel fast already has an entry for widget-operator.v1.2.0"
	listed := func(t *testing.T, r *Repo) {
		edit(t, r, tmpl, "    replaces: widget-operator.v1.1.0\n- schema: olm.bundle\n  image: quay.io/example/widget-operator-bundle:v1.1.0\n",
			"    replaces: widget-operator.v1.1.0\n  - name: widget-operator.v1.2.0\n    replaces: widget-operator.v1.1.1\n- schema: olm.bundle\n  image: quay.io/example/widget-operator-bundle:v1.1.0\n")
	}
	r, req := withoutConfig(t, "fast")
	listed(t, r)
	if _, err := release(context.Background(), r, req, Options{}); !IsRefusal(err) || !strings.Contains(err.Error(), want) {
		t.Errorf("without release-config.yaml: %v, want %q", err, want)
	}
	r = testRepo(t)
	writeFile(t, r, "operators/widget/1.2.0/release-config.yaml", "---\ncatalog_templates:\n  - template_name: basic.yaml\n    channels: [fast]\n")
	listed(t, r)
	if _, err := release(context.Background(), r, ReleaseRequest{BundleDir: "operators/widget/1.2.0", Image: "quay.io/example/w:v1.2.0"}, Options{}); !IsRefusal(err) || !strings.Contains(err.Error(), want) {
		t.Errorf("release-config.yaml without replaces: %v, want %q", err, want)
	}
}
