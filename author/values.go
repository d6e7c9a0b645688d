package author

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/image"
)

// The values of requests, checked before a verb reads anything: each bad
// value is reported once, as a RequestError naming its field, rather than
// where it would end up (a catalog line never written).

// values collects the RequestErrors of a request's bad values.
type values struct {
	request string
	errs    []error
}

// bad records that field has a bad value; why names the value.
func (v *values) bad(field, format string, args ...any) {
	v.errs = append(v.errs, &RequestError{Request: v.request, Fields: []string{field}, Invalid: true, Why: fmt.Sprintf(format, args...)})
}

// err is every bad value's error, joined, or nil.
func (v *values) err() error { return errors.Join(v.errs...) }

// image checks a bundle's image pull spec as image references are parsed
// for pulling: a registry reference that names its registry.
func (v *values) image(field, ref string) {
	if _, err := image.ParseReference(ref, false); err != nil {
		v.bad(field, "%v (a pull spec names the registry, the repository and a tag or digest, such as quay.io/org/operator-bundle:v1.2.0)", err)
	}
}

// name checks the name of a channel or bundle (what says which): one word
// with no white space or control characters, not starting with "-" (a
// flag taken for the value). An empty name is left to the caller, for
// which it may mean "none".
func (v *values) name(field, what, name, example string) {
	switch {
	case name == "":
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		v.bad(field, "invalid %s name %q: a %s name has no spaces or control characters, such as %s", what, name, what, example)
	case strings.HasPrefix(name, "-"):
		v.bad(field, "invalid %s name %q: a %s name does not start with \"-\" (was a flag given in its place?), such as %s", what, name, what, example)
	}
}

// channels and bundles check lists of names.
func (v *values) channels(field string, names []string) {
	for _, n := range names {
		if n == "" {
			v.bad(field, "an empty channel name: give a channel such as stable")
			continue
		}
		v.channel(field, n)
	}
}

func (v *values) channel(field, name string) { v.name(field, "channel", name, "stable or fast-v1.2") }

func (v *values) bundle(field, name string) { v.name(field, "bundle", name, "my-operator.v1.2.0") }

func (v *values) bundles(field string, names []string) {
	for _, n := range names {
		if n == "" {
			v.bad(field, "an empty bundle name: give a bundle such as my-operator.v1.2.0")
			continue
		}
		v.bundle(field, n)
	}
}

// skipRange checks a skip range as OLM reads it: a semver range.
func (v *values) skipRange(field, r string) {
	if r == "" {
		return
	}
	if _, err := semver.ParseRange(r); err != nil {
		v.bad(field, "invalid skip range %q: %v (a semver range, such as \">=1.0.0 <1.2.0\")", r, err)
	}
}
