package author

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/author/yamledit"
)

// PromoteRequest names a bundle and the channel it is to head. Replaces,
// Skips and SkipRange, when any is set, are the new entry's edges instead
// of replacing the channel's head.
type PromoteRequest struct {
	Bundle    string
	Channel   string
	Replaces  string
	Skips     []string
	SkipRange string
}

func (r PromoteRequest) override() bool {
	return r.Replaces != "" || len(r.Skips) > 0 || r.SkipRange != ""
}

// Promote makes a bundle the head of a channel in every template that
// holds it: in a basic template the channel gets an entry for it that
// replaces the channel's head (the channel is made when missing); in a
// semver template the bundle is listed under the stream of that name.
func (p *Package) Promote(ctx context.Context, req PromoteRequest, opts Options) (*Plan, error) {
	b, err := p.findBundle(req.Bundle)
	if err != nil {
		return nil, err
	}
	docs, err := p.holders(b.Image)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, refuse("no template of %s lists %s (%s)", p.Dir, b.Name, b.Image)
	}
	e := edited{}
	var done []string
	for _, doc := range docs {
		var changed bool
		switch d := doc.(type) {
		case *basicDoc:
			changed, err = p.promoteBasic(d, req, b.Image)
			if err == nil && changed {
				e[d.t], err = d.f.Bytes()
			}
		case *semverDoc:
			changed, err = promoteSemver(d, req, b.Image)
			if err == nil && changed {
				e[d.t], err = d.f.Bytes()
			}
		}
		if err != nil {
			return nil, err
		}
		if changed {
			done = append(done, templateOf(doc).Template)
		}
	}
	plan, err := p.plan(ctx, e, p.sourceWith(opts), opts)
	if err != nil {
		return nil, err
	}
	if len(done) == 0 {
		plan.Summary = fmt.Sprintf("%s already heads %s in every template that lists it: nothing to do", req.Bundle, req.Channel)
	} else {
		plan.Summary = fmt.Sprintf("promoted %s to %s in %s; %s rendered", req.Bundle, req.Channel, strings.Join(done, ", "), Plural(countKind(plan, KindCatalog), "catalog"))
	}
	return plan, nil
}

// sourceWith is the package's bundle source with the options' puller.
func (p *Package) sourceWith(opts Options) *Bundles {
	src := p.NewBundles()
	src.Pull = opts.Pull
	return src
}

// templateOf is the template an opened document edits.
func templateOf(doc any) *Template {
	switch d := doc.(type) {
	case *basicDoc:
		return d.t
	case *semverDoc:
		return d.t
	}
	return nil
}

// promoteBasic adds the bundle at the head of a basic template's
// channel; false when it heads it already.
func (p *Package) promoteBasic(d *basicDoc, req PromoteRequest, image string) (bool, error) {
	ch := d.channel(req.Channel)
	if ch == nil {
		pkg := str(d.pkg(), "name")
		if pkg == "" {
			pkg = p.FBCPackage()
		}
		entry := entryMap(req.Bundle, req.Replaces, req.Skips, req.SkipRange)
		return true, d.f.Append(d.entries, yamledit.Map{
			{Key: "schema", Value: "olm.channel"}, {Key: "name", Value: req.Channel}, {Key: "package", Value: pkg},
			{Key: "entries", Value: []any{entry}},
		})
	}
	heads := channelHeads(ch)
	if e := entryNamed(ch, req.Bundle); e != nil {
		if slices.Equal(heads, []string{req.Bundle}) {
			return false, nil
		}
		return false, refuse("%s:%d: %s is already in channel %s but is not its head (%s): remove it from the channel first, or promote a newer bundle", d.t.Path, e.Line, req.Bundle, req.Channel, strings.Join(heads, ", "))
	}
	if len(heads) != 1 {
		return false, refuse("%s:%d: channel %s has %d heads (%s): fix the channel before promoting into it", d.t.Path, ch.Line, req.Channel, len(heads), strings.Join(heads, ", "))
	}
	head := heads[0]
	if nv, ok := p.version(req.Bundle); ok {
		if hv, ok := p.version(head); ok && nv.LTE(hv) {
			return false, refuse("%s (%s) is not newer than %s (%s), the head of channel %s in %s: upgrades would go backwards", req.Bundle, nv, head, hv, req.Channel, d.t.Template)
		}
	}
	entry := entryMap(req.Bundle, head, nil, "")
	if req.override() {
		entry = entryMap(req.Bundle, req.Replaces, req.Skips, req.SkipRange)
	}
	list := channelEntries(ch)
	if list == nil {
		return true, d.f.Set(ch, "entries", []any{entry})
	}
	return true, d.f.Append(list, entry)
}

// promoteSemver lists the bundle under the stream the channel names;
// false when it is there already.
func promoteSemver(d *semverDoc, req PromoteRequest, image string) (bool, error) {
	stream := semverStream(req.Channel)
	if stream == "" {
		return false, refuse("%q is no channel of semver template %s: a semver template's bundles are promoted to %s, and it generates its channels (such as stable-v1.2) from them", req.Channel, d.t.Template, strings.Join(semverStreams, ", "))
	}
	if req.override() {
		return false, refuse("%s is a semver template: it computes edges from versions, so --replaces, --skips and --skip-range do not apply", d.t.Template)
	}
	if slices.Contains(d.images(stream), image) {
		return false, nil
	}
	return true, d.addImage(stream, image)
}
