package author

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/request"
	"github.com/fbcat/opm/catalogrepo/yamledit"
	"github.com/fbcat/opm/model"
)

// RemoveRequest names the bundle to remove.
type RemoveRequest struct {
	Bundle string
}

// Validate checks that the request names the bundle.
func (r RemoveRequest) Validate() error {
	if r.Bundle == "" {
		return request.Required("author.RemoveRequest", "Bundle", "the bundle to remove")
	}
	v := request.Values{Request: "author.RemoveRequest"}
	v.Bundle("Bundle", r.Bundle)
	return v.Err()
}

// Remove takes a bundle out of every template that lists it and renders
// their catalogs again. In a basic template its olm.bundle entry, its
// channel entries and the deprecations naming it go; the entries that
// replaced it now replace what it replaced and skip it and what it
// skipped (so that its installs still upgrade to them), and when nothing
// replaced it, the entries that skipped it also skip what it replaced; a
// channel left empty goes too. A semver template just stops listing it:
// it links its channels again itself.
//
// Remove refuses, unless opts.Force, a bundle that heads a channel (its
// installs would have nothing to upgrade to: release a bundle that skips
// it instead) and a change after which an install of another bundle can
// no longer reach its channel's head.
func (p *Package) Remove(ctx context.Context, req RemoveRequest, opts Options) (*Plan, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	name := req.Bundle
	b, err := p.FindBundle(name)
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
	heads := p.headsOf(name)
	if len(heads) > 0 && !opts.Force {
		return nil, catalogrepo.Refuse("%w", needForce(fmt.Sprintf("%s heads %s: its installs would be left with nothing to upgrade to. Release a bundle that replaces or skips it instead (its release-config.yaml can say skips: [%s])", name, strings.Join(heads, ", "), name)))
	}
	e := edited{}
	var from []string
	for _, doc := range docs {
		switch d := doc.(type) {
		case *basicDoc:
			err = removeBasic(d, name, b.Image)
			if err == nil {
				e[d.Template], err = d.File.Bytes()
			}
		case *semverDoc:
			err = d.removeImage(b.Image)
			if err == nil {
				e[d.Template], err = d.File.Bytes()
			}
		}
		if err != nil {
			return nil, err
		}
		from = append(from, templateOf(doc).TemplateFile)
	}
	var stranded []string
	check := func(rendered []*Expanded) error {
		for _, r := range rendered {
			for _, s := range strandedBy(r) {
				stranded = append(stranded, fmt.Sprintf("%s: %s", r.Catalog.Path, s))
			}
		}
		if len(stranded) > 0 && !opts.Force {
			return catalogrepo.Refuse("%w", needForce(fmt.Sprintf("removing %s would strand installs with no upgrade to their channel's head:\n  %s\n"+
				"release a bundle that replaces or skips them first (or, where a channel would be left with several heads, one that heads it)", name, strings.Join(stranded, "\n  "))))
		}
		return nil
	}
	plan, err := p.planChecked(ctx, e, nil, p.sourceWith(opts), opts, check)
	if err != nil {
		return nil, err
	}
	plan.Summary = fmt.Sprintf("removed %s from %s; %s rendered", name, strings.Join(from, ", "), Plural(countKind(plan, KindCatalog), "catalog"))
	if len(heads) > 0 {
		plan.Notes = append(plan.Notes, fmt.Sprintf("removed though %s headed %s: its installs have nothing to upgrade to until a bundle that skips it is released", name, strings.Join(heads, ", ")))
	}
	if len(stranded) > 0 {
		plan.Notes = append(plan.Notes, "removed though it strands these installs: "+strings.Join(stranded, "; "))
	}
	return plan, nil
}

// removeBasic takes a bundle out of a basic template.
func removeBasic(d *basicDoc, name, image string) error {
	def := yamledit.String(d.Package(), "defaultChannel")
	for _, item := range slices.Clone(d.Entries.Content) {
		switch yamledit.String(item, "schema") {
		case "olm.bundle":
			if yamledit.String(item, "image") == image {
				if err := d.File.Remove(d.Entries, item); err != nil {
					return err
				}
			}
		case "olm.channel":
			if err := d.rewire(item, name, def); err != nil {
				return err
			}
		case "olm.deprecations":
			if err := d.dropDeprecation(item, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// rewire removes a bundle's entry from a channel and the edges naming it,
// keeping the paths that went through it.
func (d *basicDoc) rewire(ch *yaml.Node, name, defaultChannel string) error {
	list := catalogrepo.ChannelEntries(ch)
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	gone := catalogrepo.EntryNamed(ch, name)
	var prevReplaces string
	var prevSkips []string
	if gone != nil {
		if len(list.Content) == 1 {
			if yamledit.String(ch, "name") == defaultChannel {
				return catalogrepo.Refuse("%s:%d: removing %s would leave channel %s, the default channel, empty: set another default channel first (opm alpha catalog default-channel)", d.Template.Path, gone.Line, name, defaultChannel)
			}
			return d.File.Remove(d.Entries, ch)
		}
		prevReplaces, prevSkips = yamledit.String(gone, "replaces"), yamledit.Strings(gone, "skips")
		if err := d.File.Remove(list, gone); err != nil {
			return err
		}
	}
	replaced := false
	for _, e := range list.Content {
		if e != gone && yamledit.String(e, "replaces") == name {
			replaced = true
		}
	}
	for _, e := range list.Content {
		if e == gone {
			continue
		}
		var err error
		switch {
		case yamledit.String(e, "replaces") == name:
			err = d.inherit(e, name, prevReplaces, prevSkips)
		case slices.Contains(yamledit.Strings(e, "skips"), name) && !replaced && gone != nil:
			err = d.setSkips(e, yamledit.String(e, "replaces"), append([]string{prevReplaces}, prevSkips...))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// inherit makes an entry that replaced a removed bundle replace what that
// bundle replaced (in this channel; nothing when it was not in it) and
// skip it and what it skipped.
func (d *basicDoc) inherit(e *yaml.Node, name, replaces string, skips []string) error {
	var err error
	if replaces == "" {
		err = d.File.Delete(e, "replaces")
	} else {
		err = d.File.Set(e, "replaces", replaces)
	}
	if err != nil {
		return err
	}
	return d.setSkips(e, replaces, append([]string{name}, skips...))
}

// setSkips adds names to an entry's skips (no duplicates, nor replaces,
// the entry's replaces once edited).
func (d *basicDoc) setSkips(e *yaml.Node, replaces string, add []string) error {
	old := yamledit.Strings(e, "skips")
	var skips []string
	for _, s := range append(slices.Clone(old), add...) {
		if s != "" && s != replaces && !slices.Contains(skips, s) {
			skips = append(skips, s)
		}
	}
	if slices.Equal(skips, old) {
		return nil
	}
	return d.File.Set(e, "skips", toAny(skips))
}

// headsOf lists, as "channel C of catalog V", the channels of committed
// catalogs that a bundle heads.
func (p *Package) headsOf(name string) []string {
	var out []string
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		m, _ := model.New(c.Config, model.Options{})
		for _, pkg := range m.Packages {
			for _, ch := range pkg.ChannelNames() {
				if h, err := pkg.Channels[ch].Head(); err == nil && h == name {
					out = append(out, fmt.Sprintf("channel %s of %s", ch, c.Name))
				}
			}
		}
	}
	return out
}

// dropDeprecation removes the entries of a deprecations object that name
// the bundle (the object itself when none is left).
func (d *basicDoc) dropDeprecation(dep *yaml.Node, name string) error {
	_, list := yamledit.Lookup(dep, "entries")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	var drop []*yaml.Node
	for _, e := range list.Content {
		_, ref := yamledit.Lookup(e, "reference")
		if yamledit.String(ref, "schema") == "olm.bundle" && yamledit.String(ref, "name") == name {
			drop = append(drop, e)
		}
	}
	if len(drop) > 0 && len(drop) == len(list.Content) {
		return d.File.Remove(d.Entries, dep)
	}
	for _, e := range drop {
		if err := d.File.Remove(list, e); err != nil {
			return err
		}
	}
	return nil
}

// strandedBy lists, as "channel C: bundle", the entries of a rendered
// catalog that cannot reach their channel's head but could in the
// committed catalog.
func strandedBy(r *Expanded) []string {
	if r.Catalog.Config == nil {
		return nil
	}
	before, _ := model.New(r.Catalog.Config, model.Options{})
	after, _ := model.New(r.Config, model.Options{})
	var out []string
	for name, pa := range after.Packages {
		pb := before.Packages[name]
		for _, chName := range pa.ChannelNames() {
			could := map[string]bool{}
			if pb != nil && pb.Channels[chName] != nil {
				cb := pb.Channels[chName]
				bad := cb.Unreachable()
				for _, e := range cb.Decl.Entries {
					could[e.Name] = !slices.Contains(bad, e.Name)
				}
			}
			for _, n := range pa.Channels[chName].Unreachable() {
				if could[n] {
					out = append(out, fmt.Sprintf("channel %s: %s", chName, n))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}
