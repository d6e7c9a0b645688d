package author

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/catalogrepo/request"
	"github.com/fbcat/opm/catalogrepo/yamledit"
	"github.com/fbcat/opm/option"
)

// DeprecateRequest names what to deprecate: one of a bundle, a channel or
// the whole package, with the message OLM shows.
type DeprecateRequest struct {
	Bundle  string
	Channel string
	Package bool
	Message string // "" for a default message naming what is deprecated
}

// Validate checks that the request names exactly one thing to deprecate.
func (r DeprecateRequest) Validate() error {
	n := 0
	for _, given := range []bool{r.Bundle != "", r.Channel != "", r.Package} {
		if given {
			n++
		}
	}
	if n != 1 {
		return option.OneOf("author.DeprecateRequest.Bundle", "author.DeprecateRequest.Channel", "author.DeprecateRequest.Package")
	}
	v := request.Values{Request: "author.DeprecateRequest"}
	v.Bundle("Bundle", r.Bundle)
	v.Channel("Channel", r.Channel)
	return v.Err()
}

// reference is the olm.deprecations reference of the request, and a
// default message.
func (r DeprecateRequest) reference() (yamledit.Map, string) {
	switch {
	case r.Bundle != "":
		return yamledit.Map{{Key: "schema", Value: "olm.bundle"}, {Key: "name", Value: r.Bundle}}, fmt.Sprintf("%s is deprecated.", r.Bundle)
	case r.Channel != "":
		return yamledit.Map{{Key: "schema", Value: "olm.channel"}, {Key: "name", Value: r.Channel}}, fmt.Sprintf("The %s channel is deprecated.", r.Channel)
	}
	return yamledit.Map{{Key: "schema", Value: "olm.package"}}, "This package is deprecated."
}

// Deprecate writes an olm.deprecations entry into the basic templates
// the request concerns (those that list the bundle or have the channel;
// all of them for the package), or updates the message of an entry that
// is there. Semver templates cannot hold deprecations: a package whose
// templates are all semver ones is refused with what to do instead.
func (p *Package) Deprecate(ctx context.Context, req DeprecateRequest, opts Options) (*Plan, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	ref, msg := req.reference()
	if req.Message != "" {
		msg = req.Message
	}
	image := ""
	if req.Bundle != "" {
		b, err := p.FindBundle(req.Bundle)
		if err != nil {
			return nil, err
		}
		image = b.Image
	}
	e := edited{}
	var done []string
	basics, semverOnes, err := p.openTemplates()
	if err != nil {
		return nil, err
	}
	if channels := p.TemplateChannels(); req.Channel != "" && len(basics) > 0 && !slices.Contains(channels, req.Channel) {
		return nil, catalogrepo.UnknownName("channel", req.Channel, nil, channels, "no basic template of %s has channel %q", p.Dir, req.Channel)
	}
	for _, d := range basics {
		t := d.Template
		if (image != "" && !d.Holds(image)) || (req.Channel != "" && d.Channel(req.Channel) == nil) {
			continue
		}
		if err := d.deprecate(p.pkgName(d), ref, msg); err != nil {
			return nil, err
		}
		if e[t], err = d.File.Bytes(); err != nil {
			return nil, err
		}
		done = append(done, t.TemplateFile)
	}
	if len(done) == 0 {
		if len(semverOnes) > 0 {
			return nil, catalogrepo.Refuse("semver templates cannot hold deprecations (%s): olm.deprecations can only be written into a basic template. Convert the template: opm alpha convert-template basic catalogs/<version>/%s/catalog.yaml -o yaml > %s/catalog-templates/<name>.yaml, map it with type %s in %s, then deprecate", strings.Join(semverOnes, ", "), p.Name, p.Dir, repoconfig.TypeBasic, p.CI.File)
		}
		what := "channel " + req.Channel
		if req.Bundle != "" {
			what = req.Bundle
		}
		return nil, catalogrepo.Refuse("no basic template of %s has %s", p.Dir, what)
	}
	plan, err := p.plan(ctx, e, p.sourceWith(opts), opts)
	if err != nil {
		return nil, err
	}
	plan.Summary = fmt.Sprintf("deprecated %s in %s; %s rendered", refText(req), strings.Join(done, ", "), Plural(countKind(plan, KindCatalog), "catalog"))
	if len(semverOnes) > 0 {
		plan.Notes = append(plan.Notes, fmt.Sprintf("semver templates cannot hold deprecations: %s left as they are", strings.Join(semverOnes, ", ")))
	}
	return plan, nil
}

func refText(r DeprecateRequest) string {
	switch {
	case r.Bundle != "":
		return "bundle " + r.Bundle
	case r.Channel != "":
		return "channel " + r.Channel
	}
	return "the package"
}

// pkgName is the package a basic template's objects belong to.
func (p *Package) pkgName(d *basicDoc) string {
	if n := yamledit.String(d.Package(), "name"); n != "" {
		return n
	}
	return p.FBCPackage()
}

// deprecate adds (or updates) an entry of the package's olm.deprecations
// object, making the object when there is none.
func (d *basicDoc) deprecate(pkg string, ref yamledit.Map, msg string) error {
	entry := yamledit.Map{{Key: "reference", Value: ref}, {Key: "message", Value: msg}}
	for _, dep := range d.Objects("olm.deprecations") {
		if yamledit.String(dep, "package") != pkg {
			continue
		}
		_, list := yamledit.Lookup(dep, "entries")
		if list == nil || list.Kind != yaml.SequenceNode {
			return d.File.Set(dep, "entries", []any{entry})
		}
		for _, e := range list.Content {
			if _, r := yamledit.Lookup(e, "reference"); sameReference(r, ref) {
				if yamledit.String(e, "message") == msg {
					return nil
				}
				return d.File.Set(e, "message", msg)
			}
		}
		return d.File.Append(list, entry)
	}
	return d.File.Append(d.Entries, yamledit.Map{
		{Key: "schema", Value: "olm.deprecations"}, {Key: "package", Value: pkg}, {Key: "entries", Value: []any{entry}},
	})
}

// sameReference reports whether a reference node names what ref does.
func sameReference(n *yaml.Node, ref yamledit.Map) bool {
	if n == nil {
		return false
	}
	for _, kv := range ref {
		if yamledit.String(n, kv.Key) != kv.Value.(string) {
			return false
		}
	}
	return len(ref) > 1 || yamledit.String(n, "name") == ""
}
