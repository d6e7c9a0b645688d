package main

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fbcat/opm/alpha/bundle"
	"github.com/fbcat/opm/alpha/filter"
	"github.com/fbcat/opm/author"
	"github.com/fbcat/opm/author/report"
	"github.com/fbcat/opm/catalogimage"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/lint"
	lintreport "github.com/fbcat/opm/lint/report"
	"github.com/fbcat/opm/olmv1"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/serve"
	"github.com/fbcat/opm/validate"
)

// optionTypes are the library's options and request types flagOf names
// fields of, by the names option.Name gives them.
var optionTypes = map[string]reflect.Type{
	"alpha/bundle.Options":         reflect.TypeFor[bundle.Options](),
	"alpha/bundle.Build":           reflect.TypeFor[bundle.Build](),
	"alpha/bundle.UnpackOptions":   reflect.TypeFor[bundle.UnpackOptions](),
	"alpha/filter.Selection":       reflect.TypeFor[filter.Selection](),
	"author.Options":               reflect.TypeFor[author.Options](),
	"author.Repo":                  reflect.TypeFor[*author.Repo](),
	"author.ReleaseRequest":        reflect.TypeFor[author.ReleaseRequest](),
	"author.PromoteRequest":        reflect.TypeFor[author.PromoteRequest](),
	"author.RemoveRequest":         reflect.TypeFor[author.RemoveRequest](),
	"author.DeprecateRequest":      reflect.TypeFor[author.DeprecateRequest](),
	"author.DefaultChannelRequest": reflect.TypeFor[author.DefaultChannelRequest](),
	"author/report.Options":        reflect.TypeFor[report.Options](),
	"catalogimage.Options":         reflect.TypeFor[catalogimage.Options](),
	"image.Options":                reflect.TypeFor[image.Options](),
	"lint.Options":                 reflect.TypeFor[lint.Options](),
	"lint/report.Options":          reflect.TypeFor[lintreport.Options](),
	"olmv1.ManifestOptions":        reflect.TypeFor[olmv1.ManifestOptions](),
	"olmv1.RBACOptions":            reflect.TypeFor[olmv1.RBACOptions](),
	"serve.RunOptions":             reflect.TypeFor[serve.RunOptions](),
	"validate.Options":             reflect.TypeFor[validate.Options](),
	"validate.PackageOptions":      reflect.TypeFor[validate.PackageOptions](),
	"validate.Output":              reflect.TypeFor[validate.Output](),
}

// TestFlagOfNamesFields: every option flagOf gives a flag is a field (or,
// for a step to take, a method) of a type of the library, so that a
// renamed field cannot leave a flag behind.
func TestFlagOfNamesFields(t *testing.T) {
	for name, flag := range flagOf {
		typ, rest, ok := cutType(string(name))
		if !ok {
			t.Errorf("%s (%s): no type of optionTypes", name, flag)
			continue
		}
		if _, ok := typ.MethodByName(rest); ok {
			continue
		}
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		for _, field := range strings.Split(rest, ".") {
			for typ.Kind() == reflect.Pointer {
				typ = typ.Elem()
			}
			f, ok := typ.FieldByName(field)
			if !ok {
				t.Errorf("%s (%s): %s has no field %s", name, flag, typ, field)
				break
			}
			typ = f.Type
		}
	}
}

// cutType finds the type of optionTypes a name starts with.
func cutType(name string) (reflect.Type, string, bool) {
	for prefix, typ := range optionTypes {
		if rest, ok := strings.CutPrefix(name, prefix+"."); ok {
			return typ, rest, true
		}
	}
	return nil, "", false
}

// TestSayOptions: every option.Error of a chain is said with the flags,
// and the library's error stays in the chain.
func TestSayOptions(t *testing.T) {
	pull := func(ref string) error {
		return option.Lifting("no committed catalog holds "+ref, ": pass %s to render it from its image", option.Name("author.Options.Pull"))
	}
	err := fmt.Errorf("rendering: %w", errors.Join(pull("a"), pull("b")))
	got := sayOptions(err)
	want := "rendering: no committed catalog holds a: pass --pull to render it from its image\nno committed catalog holds b: pass --pull to render it from its image"
	if got.Error() != want || !errors.Is(got, err) {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := check(author.DeprecateRequest{}); err == nil || err.Error() != "give exactly one of --bundle, --channel and --package" {
		t.Errorf("deprecate nothing: %v", err)
	}
}
