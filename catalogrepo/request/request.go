// Package request is what the authoring verbs' requests share: the
// checks of the values requests carry (image references, channel and
// bundle names, skip ranges, template file names), made before a verb
// reads anything, each bad value reported once as an option.Error that
// names the request's field.
package request

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"

	"github.com/blang/semver/v4"
	"github.com/distribution/reference"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/option"
)

// Required is the error of a field of request (its package and type,
// such as "author.PromoteRequest") that must be given; why says what it
// is for.
func Required(request, field, why string) *option.Error {
	return option.Required(option.Name(request+"."+field), why)
}

// Values collects the bad values of a request's fields.
type Values struct {
	Request string // the request's package and type, such as "author.PromoteRequest"
	bad     []Bad
}

// Bad is a field with a value it cannot have: Why names the value, what
// is wrong with it and what a good one looks like.
type Bad struct{ Field, Why string }

// Bad records that field has a bad value; why names the value.
func (v *Values) Bad(field, format string, args ...any) {
	v.bad = append(v.bad, Bad{Field: field, Why: fmt.Sprintf(format, args...)})
}

// Err is every bad value's option.Error (Invalid), joined, or nil.
func (v *Values) Err() error {
	errs := make([]error, len(v.bad))
	for i, b := range v.bad {
		errs[i] = option.Invalidf(option.Name(v.Request+"."+b.Field), "%s", b.Why)
	}
	return errors.Join(errs...)
}

// Invalid are the bad values, in the order found.
func (v *Values) Invalid() []Bad { return v.bad }

// Image checks a bundle's image pull spec as image references are parsed
// for pulling (a registry reference that names its registry), with the
// tag or digest it is pushed as.
func (v *Values) Image(field, ref string) {
	const example = "such as quay.io/org/operator-bundle:v1.2.0"
	if _, err := image.ParseReference(ref, false); err != nil {
		v.Bad(field, "%v (a pull spec names the registry, the repository and a tag or digest, %s)", err, example)
		return
	}
	// A catalog pins the bundle it lists: a reference without a tag
	// would be pulled as :latest, whatever that is then.
	if named, err := reference.ParseNamed(ref); err == nil {
		_, tagged := named.(reference.Tagged)
		_, digested := named.(reference.Digested)
		if !tagged && !digested {
			v.Bad(field, "image %q has no tag or digest: give the one the bundle is pushed as, %s or @sha256:...", ref, example)
		}
	}
}

// name checks the name of a channel or bundle (what says which): one word
// with no white space or control characters, not starting with "-" (a
// flag taken for the value). An empty name is left to the caller, for
// which it may mean "none".
func (v *Values) name(field, what, name, example string) {
	switch {
	case name == "":
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		v.Bad(field, "invalid %s name %q: a %s name has no spaces or control characters, such as %s", what, name, what, example)
	case strings.HasPrefix(name, "-"):
		v.Bad(field, "invalid %s name %q: a %s name does not start with \"-\" (was a flag given in its place?), such as %s", what, name, what, example)
	}
}

// Channel and Bundle check a name ("" is none); Channels and Bundles a
// list of names, none of them empty.
func (v *Values) Channel(field, name string) { v.name(field, "channel", name, "stable or fast-v1.2") }

func (v *Values) Bundle(field, name string) { v.name(field, "bundle", name, "my-operator.v1.2.0") }

func (v *Values) Channels(field string, names []string) { v.names(field, "channel", names, v.Channel) }

func (v *Values) Bundles(field string, names []string) { v.names(field, "bundle", names, v.Bundle) }

func (v *Values) names(field, what string, names []string, check func(field, name string)) {
	for _, n := range names {
		if n == "" {
			v.Bad(field, "an empty %s name in the list", what)
			continue
		}
		check(field, n)
	}
}

// SkipRange checks a skip range as OLM reads it: a semver range ("" is
// none).
func (v *Values) SkipRange(field, r string) {
	if r == "" {
		return
	}
	if _, err := semver.ParseRange(r); err != nil {
		v.Bad(field, "invalid skip range %q: %v (a semver range, such as \">=1.0.0 <1.2.0\")", r, err)
	}
}

// TemplateFile checks the file name of a template of catalog-templates/
// ("" is none).
func (v *Values) TemplateFile(field, name string) {
	if name != "" && !IsFileName(name) {
		v.Bad(field, "invalid template %q: give the file name of a template in catalog-templates/, such as basic.yaml", name)
	}
}

// IsFileName reports whether name is a file name without a directory.
func IsFileName(name string) bool {
	return !strings.ContainsAny(name, `/\`) && name != "." && name != ".." && path.Clean(name) == name
}
