package author

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/option"
)

// fieldsOf are the fields of the request (of the type req) an
// option.Error names, without the type, comma-separated.
func fieldsOf(oe *option.Error, req string) string {
	var out []string
	for _, n := range oe.Names() {
		out = append(out, strings.TrimPrefix(string(n), "author."+req+"."))
	}
	return strings.Join(out, ",")
}

// lifts reports whether err wraps an option.Error lifted by the option n.
func lifts(err error, n option.Name) (*option.Error, bool) {
	for _, oe := range option.All(err) {
		if oe.Kind == option.Lifts && slices.Contains(oe.Names(), n) {
			return oe, true
		}
	}
	return nil, false
}

// TestRequestsValidate: each request says what it lacks as an
// option.Error naming its fields, never a command line's flags.
func TestRequestsValidate(t *testing.T) {
	cases := []struct {
		name   string
		req    interface{ Validate() error }
		fields []string // nil: valid
		oneOf  bool
	}{
		{"release without a directory", ReleaseRequest{Image: "quay.io/x:v1"}, []string{"BundleDir"}, false},
		{"release without an image", ReleaseRequest{BundleDir: "operators/x/1.0.0"}, []string{"Image"}, false},
		{"release", ReleaseRequest{BundleDir: "operators/x/1.0.0", Image: "quay.io/x:v1"}, nil, false},
		{"promote without a channel", PromoteRequest{Bundle: "x.v1"}, []string{"Channel"}, false},
		{"promote without a bundle", PromoteRequest{Channel: "stable"}, []string{"Bundle"}, false},
		{"promote replacing nothing", PromoteRequest{Bundle: "x.v1", Channel: "stable", Replaces: new("")}, nil, false},
		{"deprecate nothing", DeprecateRequest{}, []string{"Bundle", "Channel", "Package"}, true},
		{"deprecate two things", DeprecateRequest{Bundle: "x.v1", Package: true}, []string{"Bundle", "Channel", "Package"}, true},
		{"deprecate a channel", DeprecateRequest{Channel: "alpha"}, nil, false},
		{"remove nothing", RemoveRequest{}, []string{"Bundle"}, false},
		{"default channel without one", DefaultChannelRequest{}, []string{"Channel"}, false},
		{"expand every operator", ExpandRequest{}, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.req.Validate()
			var re *option.Error
			kind := option.Missing
			if c.oneOf {
				kind = option.Conflict
			}
			switch {
			case c.fields == nil && err != nil:
				t.Fatalf("valid request refused: %v", err)
			case c.fields == nil:
			case !errors.As(err, &re) || fieldsOf(re, strings.TrimPrefix(fmt.Sprintf("%T", c.req), "author.")) != strings.Join(c.fields, ",") || re.Kind != kind:
				t.Fatalf("got %#v (%v), want an option.Error of %v", re, err, c.fields)
			case strings.Contains(err.Error(), "--"):
				t.Errorf("names a flag: %v", err)
			}
		})
	}
	if err := (ExpandRequest{Packages: []string{"widget", "../x"}}).Validate(); err == nil || !strings.Contains(err.Error(), `invalid operator name "../x"`) {
		t.Errorf("an operator name with a separator: %v", err)
	}
}

// TestRequestsValidateValues: a value a field cannot have is reported
// before any work, once, as an Invalid option.Error naming the field and
// the value; several bad values are each reported.
func TestRequestsValidateValues(t *testing.T) {
	const img = "quay.io/org/widget-bundle:v1.2.0"
	cases := []struct {
		name   string
		req    interface{ Validate() error }
		fields []string // the bad fields, in order
		says   []string
	}{
		{"an image that is no reference", ReleaseRequest{BundleDir: "d", Image: "not an image"}, []string{"Image"}, []string{`"not an image"`, "quay.io/org/operator-bundle:v1.2.0"}},
		{"an image without its registry", ReleaseRequest{BundleDir: "d", Image: "widget:1.2"}, []string{"Image"}, []string{"name the registry too"}},
		{"an image with a digest", ReleaseRequest{BundleDir: "d", Image: "quay.io/org/w@sha256:" + strings.Repeat("a", 64)}, nil, nil},
		{"a local archive", ReleaseRequest{BundleDir: "d", Image: "oci-archive:bundle.tar"}, []string{"Image"}, nil},
		{"release target values", ReleaseRequest{BundleDir: "d", Image: "bad image", Target: &repoconfig.ReleaseTarget{
			Channels: []string{"stable", "st able", ""}, Replaces: "--dry-run", Skips: []string{"w.v1", "w v2"}, SkipRange: "not a range", TemplateFile: "../basic.yaml",
		}}, []string{"Image", "Target.Channels", "Target.Channels", "Target.Replaces", "Target.Skips", "Target.SkipRange", "Target.TemplateFile"},
			[]string{`invalid channel name "st able"`, "an empty channel name in the list", `"--dry-run"`, `invalid bundle name "w v2"`, `invalid skip range "not a range"`, `invalid template "../basic.yaml"`}},
		{"a good release target", ReleaseRequest{BundleDir: "d", Image: img, Target: &repoconfig.ReleaseTarget{Channels: []string{"stable-v1.2"}, Replaces: "w.v1", SkipRange: ">=1.0.0 <1.2.0", TemplateFile: "basic.yaml"}}, nil, nil},
		{"promote values", PromoteRequest{Bundle: "w v1", Channel: "-stable", Replaces: new("x\ty"), SkipRange: "<<1"}, []string{"Bundle", "Channel", "Replaces", "SkipRange"}, nil},
		{"promote to a stream", PromoteRequest{Bundle: "w.v1", Channel: "Fast", SkipRange: "<1.0.0"}, nil, nil},
		{"deprecate a channel with a space", DeprecateRequest{Channel: "stable "}, []string{"Channel"}, nil},
		{"default channel", DefaultChannelRequest{Channel: "a\nb"}, []string{"Channel"}, nil},
		{"remove", RemoveRequest{Bundle: " w.v1"}, []string{"Bundle"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.req.Validate()
			var got []string
			var errs []error
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			} else if err != nil {
				t.Fatalf("got %v, want joined option.Errors", err)
			}
			for _, e := range errs {
				var re *option.Error
				if !errors.As(e, &re) || re.Kind != option.Invalid || len(re.Names()) != 1 {
					t.Fatalf("got %v, want Invalid option.Errors", err)
				}
				got = append(got, fieldsOf(re, strings.TrimPrefix(fmt.Sprintf("%T", c.req), "author.")))
			}
			if strings.Join(got, ",") != strings.Join(c.fields, ",") {
				t.Fatalf("bad fields %v, want %v (%v)", got, c.fields, err)
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%v does not say %q", err, s)
				}
			}
			if err != nil && strings.Contains(err.Error(), "--image") {
				t.Errorf("names a flag: %v", err)
			}
		})
	}
}

// TestEmptyRequestsChangeNothing: the verbs check their requests
// themselves: an empty DeprecateRequest does not deprecate the whole
// package, an empty PromoteRequest promotes nothing.
func TestEmptyRequestsChangeNothing(t *testing.T) {
	r := testRepo(t)
	ctx := context.Background()
	p := open(t, r, "widget")
	verbs := map[string]func() (*Plan, error){
		"deprecate": func() (*Plan, error) { return p.Deprecate(ctx, DeprecateRequest{}, Options{}) },
		"promote": func() (*Plan, error) {
			return p.Promote(ctx, PromoteRequest{Bundle: "widget-operator.v1.1.1"}, Options{})
		},
		"remove":          func() (*Plan, error) { return p.Remove(ctx, RemoveRequest{}, Options{}) },
		"default-channel": func() (*Plan, error) { return p.SetDefaultChannel(ctx, DefaultChannelRequest{}, Options{}) },
		"release": func() (*Plan, error) {
			return p.Release(ctx, ReleaseRequest{BundleDir: "operators/widget/1.2.0"}, Options{})
		},
	}
	for name, verb := range verbs {
		plan, err := verb()
		var re *option.Error
		if plan != nil || !errors.As(err, &re) || re.Kind == option.Lifts {
			t.Errorf("%s: plan %v, error %v: want an option.Error", name, plan, err)
		}
		if IsRefusal(err) {
			t.Errorf("%s: a mistake of the caller is not a refusal: %v", name, err)
		}
	}
	if _, err := r.Expand(ctx, ExpandRequest{Packages: []string{""}}, Options{}); err == nil {
		t.Error("expanding an operator with no name: no error")
	}
}

// TestPromoteReplaces: Replaces nil replaces the channel's head, "" makes
// an entry that replaces nothing (here it skips the others instead).
func TestPromoteReplaces(t *testing.T) {
	for _, c := range []struct {
		replaces *string
		skips    []string
		want     string
	}{
		{nil, nil, "replaces: widget-operator.v1.1.0"},
		{new(""), []string{"widget-operator.v1.1.0", "widget-operator.v1.0.0"}, ""},
		{new("widget-operator.v1.0.0"), []string{"widget-operator.v1.1.0"}, "replaces: widget-operator.v1.0.0"},
	} {
		r := testRepo(t)
		req := PromoteRequest{Bundle: "widget-operator.v1.1.1", Channel: "stable", Replaces: c.replaces, Skips: c.skips}
		plan, err := open(t, r, "widget").Promote(context.Background(), req, Options{})
		if err != nil {
			t.Fatal(err)
		}
		entry := entryText(plan, "widget-operator.v1.1.1")
		if !strings.Contains(entry, c.want) || (c.want == "" && strings.Contains(entry, "replaces")) {
			t.Errorf("Replaces %v: entry %q, want %q", c.replaces, entry, c.want)
		}
	}
}

// entryText is the text of bundle's entry in channel stable of the
// plan's new template: the lines after "- name: bundle" up to the next
// entry.
func entryText(plan *Plan, bundle string) string {
	for _, c := range plan.Changes {
		if c.Kind != KindTemplate {
			continue
		}
		text := string(c.NewText())
		_, text, _ = strings.Cut(text, "  name: stable\n")
		text, _, _ = strings.Cut(text, "\n- schema:")
		_, entry, found := strings.Cut(text, "- name: "+bundle+"\n")
		if !found {
			continue
		}
		entry, _, _ = strings.Cut(entry, "- ")
		return entry
	}
	return ""
}
