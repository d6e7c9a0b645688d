package author

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/catalogrepo/request"
	"github.com/fbcat/opm/catalogrepo/yamledit"
	"github.com/fbcat/opm/internal/suggest"
)

// PromoteRequest names a bundle and the channel it is to head. The new
// entry replaces what Replaces says and skips Skips and SkipRange.
type PromoteRequest struct {
	Bundle  string
	Channel string
	// Replaces is the bundle the new entry replaces: nil for the
	// channel's head, "" for none.
	Replaces  *string
	Skips     []string
	SkipRange string
	// NewChannel makes a channel no template has even when its name is
	// a near miss of an existing one.
	NewChannel bool
}

// Validate checks that the request names the bundle and the channel, and
// that its names can be names and its skip range is a semver range.
func (r PromoteRequest) Validate() error {
	switch {
	case r.Bundle == "":
		return request.Required("author.PromoteRequest", "Bundle", "the bundle to promote")
	case r.Channel == "":
		return request.Required("author.PromoteRequest", "Channel", "the channel the bundle is to head")
	}
	v := request.Values{Request: "author.PromoteRequest"}
	v.Bundle("Bundle", r.Bundle)
	v.Channel("Channel", r.Channel)
	if r.Replaces != nil {
		v.Bundle("Replaces", *r.Replaces)
	}
	v.Bundles("Skips", r.Skips)
	v.SkipRange("SkipRange", r.SkipRange)
	return v.Err()
}

// setsEdges reports whether the request says the new entry's edges.
func (r PromoteRequest) setsEdges() bool {
	return r.Replaces != nil || len(r.Skips) > 0 || r.SkipRange != ""
}

// replaces is the bundle the new entry replaces, given the channel's
// head ("" for a new channel).
func (r PromoteRequest) replaces(head string) string {
	if r.Replaces != nil {
		return *r.Replaces
	}
	return head
}

// Promote makes a bundle the head of a channel in every template that
// holds it: in a basic template the channel gets an entry for it that
// replaces the channel's head (the channel is made when missing); in a
// semver template the bundle is listed under the stream of that name.
// A channel no template has is refused when its name is a near miss of an
// existing channel (stabel beside stable), unless req.NewChannel.
func (p *Package) Promote(ctx context.Context, req PromoteRequest, opts Options) (*Plan, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	b, err := p.FindBundle(req.Bundle)
	if err != nil {
		return nil, err
	}
	docs, err := p.holders(b.Image)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, catalogrepo.Refuse("no template of %s lists %s (%s)", p.Dir, b.Name, b.Image)
	}
	channels := p.channelCheck(req.NewChannel)
	for _, doc := range docs {
		if _, basic := doc.(*basicDoc); basic {
			if err := channels.check(req.Channel); err != nil {
				return nil, catalogrepo.Refuse("%w", err)
			}
			break
		}
	}
	e := edited{}
	var done []string
	for _, doc := range docs {
		var changed bool
		switch d := doc.(type) {
		case *basicDoc:
			changed, err = p.promoteBasic(d, req, b.Image)
			if err == nil && changed {
				e[d.Template], err = d.File.Bytes()
			}
		case *semverDoc:
			changed, err = p.promoteSemver(d, req, b.Image)
			if err == nil && changed {
				e[d.Template], err = d.File.Bytes()
			}
		}
		if err != nil {
			return nil, err
		}
		if changed {
			done = append(done, templateOf(doc).TemplateFile)
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
		plan.Notes = append(append(plan.Notes, channels.notes()...), p.skipsNotes(req.Skips)...)
	}
	return plan, nil
}

// templateOf is the template an opened document edits.
func templateOf(doc any) *catalogrepo.Template {
	switch d := doc.(type) {
	case *basicDoc:
		return d.Template
	case *semverDoc:
		return d.Template
	}
	return nil
}

// promoteBasic adds the bundle at the head of a basic template's
// channel; false when it heads it already.
func (p *Package) promoteBasic(d *basicDoc, req PromoteRequest, image string) (bool, error) {
	ch := d.Channel(req.Channel)
	if ch == nil {
		pkg := yamledit.String(d.Package(), "name")
		if pkg == "" {
			pkg = p.FBCPackage()
		}
		entry := entryMap(req.Bundle, req.replaces(""), req.Skips, req.SkipRange)
		return true, d.File.Append(d.Entries, channelMap(d, req.Channel, pkg, entry))
	}
	heads := channelHeads(ch)
	if e := catalogrepo.EntryNamed(ch, req.Bundle); e != nil {
		if slices.Equal(heads, []string{req.Bundle}) {
			return false, nil
		}
		return false, catalogrepo.Refuse("%s:%d: %s is already in channel %s but is not its head (%s): remove it from the channel first, or promote a newer bundle", d.Template.Path, e.Line, req.Bundle, req.Channel, strings.Join(heads, ", "))
	}
	if len(heads) != 1 {
		return false, catalogrepo.Refuse("%s:%d: channel %s has %d heads (%s): fix the channel before promoting into it", d.Template.Path, ch.Line, req.Channel, len(heads), strings.Join(heads, ", "))
	}
	head := heads[0]
	if nv, ok := p.BundleVersion(req.Bundle); ok {
		if hv, ok := p.BundleVersion(head); ok && nv.LTE(hv) {
			return false, catalogrepo.Refuse("%s (%s) is not newer than %s (%s), the head of channel %s in %s: upgrades would go backwards", req.Bundle, nv, head, hv, req.Channel, d.Template.TemplateFile)
		}
	}
	entry := entryMap(req.Bundle, req.replaces(head), req.Skips, req.SkipRange)
	list := catalogrepo.ChannelEntries(ch)
	if list == nil {
		return true, d.File.Set(ch, "entries", []any{entry})
	}
	return true, d.File.Append(list, entry)
}

// promoteSemver lists the bundle under the stream the channel names;
// false when it is there already and the newest there. The bundle must be
// newer than every bundle of the stream: an older one would head no
// channel.
func (p *Package) promoteSemver(d *semverDoc, req PromoteRequest, image string) (bool, error) {
	stream := repoconfig.SemverStream(req.Channel)
	if stream == "" {
		return false, catalogrepo.Refuse("%q is no channel of semver template %s%s: a semver template's bundles are promoted to %s, and it generates its channels (such as stable-v1.2) from them", req.Channel, d.Template.TemplateFile, repoconfig.StreamHint(req.Channel), strings.Join(template.SemverStreams, ", "))
	}
	if req.setsEdges() {
		return false, catalogrepo.Refuse("%w", needNoEdges(d.Template.TemplateFile+" is a semver template: it computes edges from versions"))
	}
	v, ok := p.BundleVersion(req.Bundle)
	newest, newestV := "", v
	for _, img := range d.Images(stream) {
		b := p.BundleByImage(img)
		if b == nil || img == image {
			continue
		}
		if bv, bok := p.BundleVersion(b.Name); ok && bok && bv.GTE(newestV) {
			newest, newestV = b.Name, bv
		}
	}
	listed := slices.Contains(d.Images(stream), image)
	switch {
	case newest != "" && listed:
		return false, catalogrepo.Refuse("%s is already listed under %s in %s, but %s (%s) is newer there: an older bundle heads no channel", req.Bundle, stream, d.Template.TemplateFile, newest, newestV)
	case newest != "":
		return false, catalogrepo.Refuse("%s (%s) is not newer than %s (%s), listed under %s in %s: in a semver template it would head no channel", req.Bundle, v, newest, newestV, stream, d.Template.TemplateFile)
	case listed:
		return false, nil
	}
	return true, d.addImage(stream, image)
}

// skipsNotes notes each skipped bundle that no catalog holds and whose
// name is a near miss of one that it does: skipping a bundle that is not
// there is allowed (one removed long ago), so it is written as given.
func (p *Package) skipsNotes(skips []string) []string {
	var notes []string
	names := p.BundleNames()
	for _, s := range skips {
		if !slices.Contains(names, s) {
			if near := suggest.Near(s, names); len(near) > 0 {
				notes = append(notes, fmt.Sprintf("skips names %s, which no catalog of %s holds: did you mean %s? (written as given)", s, p.Dir, suggest.Or(near)))
			}
		}
	}
	return notes
}
