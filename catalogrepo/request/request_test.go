package request

import (
	"errors"
	"strings"
	"testing"

	"github.com/fbcat/opm/option"
)

// TestValues: each check reports a bad value once, as an Invalid
// option.Error of its field that names the value and a good one; good
// values and "" (none) pass.
func TestValues(t *testing.T) {
	v := Values{Request: "p.R"}
	v.Image("Image", "quay.io/org/bundle:v1.2.0")
	v.Image("Image", "quay.io/org/bundle@sha256:"+strings.Repeat("0", 64))
	v.Channel("Channel", "")
	v.Channels("Channels", []string{"stable", "Fast", "stable-v1.2"})
	v.Bundle("Bundle", "my-operator.v1.2.0")
	v.Bundles("Bundles", nil)
	v.SkipRange("SkipRange", "")
	v.SkipRange("SkipRange", ">=1.0.0 <1.2.0")
	v.TemplateFile("TemplateFile", "")
	v.TemplateFile("TemplateFile", "basic.yaml")
	if err := v.Err(); err != nil {
		t.Fatalf("good values refused: %v", err)
	}

	v.Image("Image", "not an image")
	v.Image("Image", "bundle:v1")
	v.Image("Image", "quay.io/org/op")
	v.Channel("Channel", "st able")
	v.Channels("Channels", []string{"stable", "", "--dry-run"})
	v.Bundle("Bundle", "a\tb")
	v.Bundles("Bundles", []string{""})
	v.SkipRange("SkipRange", "<<1.0.0")
	v.TemplateFile("TemplateFile", "../basic.yaml")
	wants := []struct{ field, says string }{
		{"Image", `invalid image reference "not an image"`},
		{"Image", `invalid image reference "bundle:v1": name the registry too`},
		{"Image", `image "quay.io/org/op" has no tag or digest: give the one the bundle is pushed as`},
		{"Channel", `invalid channel name "st able": a channel name has no spaces or control characters, such as stable or fast-v1.2`},
		{"Channels", "an empty channel name in the list"},
		{"Channels", `invalid channel name "--dry-run": a channel name does not start with "-" (was a flag given in its place?)`},
		{"Bundle", `invalid bundle name "a\tb"`},
		{"Bundles", "an empty bundle name in the list"},
		{"SkipRange", `invalid skip range "<<1.0.0"`},
		{"TemplateFile", `invalid template "../basic.yaml"`},
	}
	errs := v.Err().(interface{ Unwrap() []error }).Unwrap()
	if len(errs) != len(wants) {
		t.Fatalf("%d errors, want %d: %v", len(errs), len(wants), v.Err())
	}
	for i, w := range wants {
		var re *option.Error
		if !errors.As(errs[i], &re) || re.Kind != option.Invalid || re.Names()[0] != option.Name("p.R."+w.field) || !strings.HasPrefix(re.Error(), "R."+w.field+": ") || !strings.Contains(re.Error(), w.says) {
			t.Errorf("error %d: %v, want R.%s: ...%s...", i, errs[i], w.field, w.says)
		}
	}
}

func TestRequiredWords(t *testing.T) {
	err := Required("author.PromoteRequest", "Channel", "the channel")
	if got, want := err.Error(), "PromoteRequest.Channel is required: the channel"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := err.Say(map[option.Name]string{"author.PromoteRequest.Channel": "--to"}), "--to is required: the channel"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestIsFileName(t *testing.T) {
	for name, want := range map[string]bool{"basic.yaml": true, "a/b": false, `a\b`: false, ".": false, "..": false, "": false, "x/": false} {
		if got := IsFileName(name); got != want {
			t.Errorf("IsFileName(%q) = %v", name, got)
		}
	}
}

// BenchmarkValues is the cost of checking a release's values before any
// work: an image, two channels, a replaced bundle, a skip range.
func BenchmarkValues(b *testing.B) {
	for b.Loop() {
		v := Values{Request: "ReleaseRequest"}
		v.Image("Image", "quay.io/org/my-operator-bundle:v1.2.0")
		v.Channels("Target.Channels", []string{"stable", "fast-v1.2"})
		v.Bundle("Target.Replaces", "my-operator.v1.1.0")
		v.SkipRange("Target.SkipRange", ">=1.0.0 <1.2.0")
		if v.Err() != nil {
			b.Fatal(v.Err())
		}
	}
}
