package author

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/author/repoconfig"
	"github.com/fbcat/opm/author/request"
	"github.com/fbcat/opm/author/yamledit"
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
	channels := p.channelCheck(req.NewChannel)
	for _, doc := range docs {
		if _, basic := doc.(*basicDoc); basic {
			if err := channels.check(req.Channel); err != nil {
				return nil, refuse("%w", err)
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
				e[d.t], err = d.f.Bytes()
			}
		case *semverDoc:
			changed, err = p.promoteSemver(d, req, b.Image)
			if err == nil && changed {
				e[d.t], err = d.f.Bytes()
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
		entry := entryMap(req.Bundle, req.replaces(""), req.Skips, req.SkipRange)
		return true, d.f.Append(d.entries, channelMap(d, req.Channel, pkg, entry))
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
			return false, refuse("%s (%s) is not newer than %s (%s), the head of channel %s in %s: upgrades would go backwards", req.Bundle, nv, head, hv, req.Channel, d.t.TemplateFile)
		}
	}
	entry := entryMap(req.Bundle, req.replaces(head), req.Skips, req.SkipRange)
	list := channelEntries(ch)
	if list == nil {
		return true, d.f.Set(ch, "entries", []any{entry})
	}
	return true, d.f.Append(list, entry)
}

// promoteSemver lists the bundle under the stream the channel names;
// false when it is there already and the newest there. The bundle must be
// newer than every bundle of the stream: an older one would head no
// channel.
func (p *Package) promoteSemver(d *semverDoc, req PromoteRequest, image string) (bool, error) {
	stream := repoconfig.SemverStream(req.Channel)
	if stream == "" {
		return false, refuse("%q is no channel of semver template %s%s: a semver template's bundles are promoted to %s, and it generates its channels (such as stable-v1.2) from them", req.Channel, d.t.TemplateFile, repoconfig.StreamHint(req.Channel), strings.Join(semverStreams, ", "))
	}
	if req.setsEdges() {
		return false, refuse("%w", needNoEdges(d.t.TemplateFile+" is a semver template: it computes edges from versions"))
	}
	v, ok := p.version(req.Bundle)
	newest, newestV := "", v
	for _, img := range d.images(stream) {
		b := p.bundleByImage(img)
		if b == nil || img == image {
			continue
		}
		if bv, bok := p.version(b.Name); ok && bok && bv.GTE(newestV) {
			newest, newestV = b.Name, bv
		}
	}
	listed := slices.Contains(d.images(stream), image)
	switch {
	case newest != "" && listed:
		return false, refuse("%s is already listed under %s in %s, but %s (%s) is newer there: an older bundle heads no channel", req.Bundle, stream, d.t.TemplateFile, newest, newestV)
	case newest != "":
		return false, refuse("%s (%s) is not newer than %s (%s), listed under %s in %s: in a semver template it would head no channel", req.Bundle, v, newest, newestV, stream, d.t.TemplateFile)
	case listed:
		return false, nil
	}
	return true, d.addImage(stream, image)
}

// channelMap is a new channel entry holding one entry, its keys in the
// order of the template's first channel (schema, name, package, entries
// when it has none).
func channelMap(d *basicDoc, name, pkg string, entry yamledit.Map) yamledit.Map {
	values := map[string]any{"schema": "olm.channel", "name": name, "package": pkg, "entries": []any{entry}}
	order := []string{"schema", "name", "package", "entries"}
	if chs := d.objects("olm.channel"); len(chs) > 0 {
		var keys []string
		for i := 0; i+1 < len(chs[0].Content); i += 2 {
			if _, known := values[chs[0].Content[i].Value]; known {
				keys = append(keys, chs[0].Content[i].Value)
			}
		}
		if len(keys) == len(order) {
			order = keys
		}
	}
	m := make(yamledit.Map, 0, len(order))
	for _, k := range order {
		m = append(m, yamledit.KV{Key: k, Value: values[k]})
	}
	return m
}
