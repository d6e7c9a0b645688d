package author

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/catalogrepo/request"
	"github.com/fbcat/opm/catalogrepo/yamledit"
	"github.com/fbcat/opm/position"
)

// ReleaseRequest is what to release: a bundle directory and the image it
// is pushed as. Where it goes comes from the directory's
// release-config.yaml, or, without one, from Target.
type ReleaseRequest struct {
	BundleDir string
	Image     string
	// Target is used when the bundle directory has no
	// release-config.yaml; Target.Template "" means every mapped
	// template.
	Target *repoconfig.ReleaseTarget
	// NewChannel makes channels no template has even when their names
	// are near misses of existing ones (see Package.Release).
	NewChannel bool
}

// Validate checks that the request gives what a release needs, the
// bundle directory and the image, and that its values can be what they
// are for: the image a pull spec that names its registry, and Target's
// channels and bundles names, its skip range a semver range. Where the
// bundle goes depends on the directory (its release-config.yaml, or else
// Target), which Release checks.
func (r ReleaseRequest) Validate() error {
	switch {
	case r.BundleDir == "":
		return request.Required("author.ReleaseRequest", "BundleDir", "the bundle's directory, operators/<pkg>/<version>")
	case r.Image == "":
		return request.Required("author.ReleaseRequest", "Image", "the pull spec the bundle is (or will be) pushed as")
	}
	v := request.Values{Request: "author.ReleaseRequest"}
	v.Image("Image", r.Image)
	if t := r.Target; t != nil {
		v.Channels("Target.Channels", t.Channels)
		v.Bundle("Target.Replaces", t.Replaces)
		v.Bundles("Target.Skips", t.Skips)
		v.SkipRange("Target.SkipRange", t.SkipRange)
		v.TemplateFile("Target.TemplateFile", t.TemplateFile)
	}
	return v.Err()
}

// Release adds a bundle to the templates its release-config.yaml (or the
// request) names, as the community release pipeline does, and renders
// the catalogs of those templates again: a basic template gets the
// channels it lacks, an olm.bundle entry with the image and an entry
// {name, replaces, skips, skipRange} in each channel (and the default
// channel when given); a semver template gets {Image: ...} in each
// stream named. The bundle directory must be one of the package's (see
// Repo.OpenBundleDir). A channel no template of the package has is made
// (and noted), but a near miss of an existing one (stabel beside stable)
// is refused unless req.NewChannel.
func (p *Package) Release(ctx context.Context, req ReleaseRequest, opts Options) (*Plan, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	dir, pkgName, err := p.Repo.BundleDir(req.BundleDir)
	if err != nil {
		return nil, needRoot(err)
	}
	if pkgName != p.Name {
		return nil, fmt.Errorf("%s is a bundle directory of operator %s, not of %s", req.BundleDir, pkgName, p.Name)
	}
	rel, err := p.readRelease(dir, req.Image, req.Target)
	if err != nil {
		return nil, err
	}
	if err := p.checkNotReleased(rel); err != nil {
		return nil, err
	}
	notes, err := p.checkTargets(rel, req.NewChannel)
	if err != nil {
		return nil, err
	}
	notes = append(slices.Clone(rel.notes), notes...)
	e, base := edited{}, based{}
	var where []string
	semver := false // a semver template is edited: Style matters
	channels := p.channelCheck(req.NewChannel)
	for _, target := range rel.rc.Targets {
		t, err := p.Template(target.TemplateFile)
		if err != nil {
			return nil, err
		}
		var data []byte
		var chose []string
		if t.Kind() == template.Semver {
			semver = true
			var listed []byte
			data, listed, err = releaseSemver(t, target, rel)
			if listed != nil {
				base[t] = listed
				notes = append(notes, fmt.Sprintf("%s already listed %s: its catalogs are rendered with it", t.TemplateFile, rel.fbc.Image))
			}
		} else {
			data, chose, err = p.releaseBasic(t, target, rel, channels)
		}
		if err != nil {
			return nil, err
		}
		e[t] = data
		notes = append(notes, chose...)
		where = append(where, fmt.Sprintf("%s (%s)", t.TemplateFile, strings.Join(target.Channels, ", ")))
	}
	src := p.sourceWith(opts)
	src.Add(&rel.fbc)
	if semver && opts.Style == StyleAuto && !rel.built.IsZero() && rel.built.Before(pipelineToday) {
		opts.Style = StyleOlder
		notes = append(notes, fmt.Sprintf("%s was built on %s (its CSV's createdAt), before the release pipeline rendered with opm v1.71 (%s): semver catalogs are written as the pipeline then wrote them (each channel linked on its own, no package description)",
			rel.fbc.Name, rel.built.Format(time.DateOnly), pipelineToday.Format(time.DateOnly)))
	}
	plan, err := p.planChecked(ctx, e, base, src, opts, nil)
	if err != nil {
		return nil, err
	}
	plan.Summary = fmt.Sprintf("released %s into %s; %s rendered", rel.fbc.Name, strings.Join(where, ", "), Plural(countKind(plan, KindCatalog), "catalog"))
	plan.Notes = append(append(plan.Notes, notes...), channels.notes()...)
	return plan, nil
}

// checkTargets checks where the bundle goes (its release-config.yaml, or
// the request's Target) with repoconfig's Check, the one check of
// release-config.yaml that lint makes too, and refuses with every problem
// it finds, each at its key's line: a channel that is a near miss of an
// existing or a conventional one needs newChannel. Its warnings are
// returned as notes.
func (p *Package) checkTargets(rel *released, newChannel bool) ([]string, error) {
	var notes []string
	var errs []error
	for _, e := range rel.rc.Check(p.ReleaseFacts()) {
		pr := repoconfig.ProblemOf(e)
		switch {
		case pr.Warning:
			notes = append(notes, e.Error())
		case errors.Is(e, repoconfig.ErrNearMissChannel):
			if !newChannel {
				ne := needNewChannel(pr.Msg, "author.ReleaseRequest.NewChannel")
				errs = append(errs, &position.Error{File: e.File, Line: e.Line, Err: &repoconfig.Problem{Key: pr.Key, Near: pr.Near, Msg: ne.Error(), Err: ne}})
			}
		default:
			errs = append(errs, e)
		}
	}
	return notes, errors.Join(errs...)
}

// countKind counts the changes of a kind.
func countKind(p *Plan, kind string) int {
	n := 0
	for _, c := range p.Changes {
		if c.Kind == kind {
			n++
		}
	}
	return n
}

// checkNotReleased refuses a bundle whose image or name a template or
// catalog of the package already has.
func (p *Package) checkNotReleased(rel *released) error {
	for _, c := range p.Catalogs {
		if c.Config == nil {
			continue
		}
		for _, b := range c.Config.Bundles {
			switch {
			case b.Image == rel.fbc.Image:
				return catalogrepo.Refuse("%s is already released: %s holds it as %s", rel.fbc.Image, c.Path, b.Name)
			case b.Name == rel.fbc.Name:
				return catalogrepo.Refuse("%s is already released: %s holds it, as image %s", rel.fbc.Name, c.Path, b.Image)
			}
		}
	}
	return nil
}

// releaseBasic adds the bundle to a basic template (made when missing),
// and says what it chose for the bundle (see chooseReplaces).
func (p *Package) releaseBasic(t *catalogrepo.Template, target repoconfig.ReleaseTarget, rel *released, channels *channelCheck) ([]byte, []string, error) {
	data := t.Data
	if data == nil {
		data = []byte("---\nschema: olm.template.basic\nentries:\n")
	}
	d, err := openBasic(&catalogrepo.Template{Mapping: t.Mapping, Path: t.Path, Data: data})
	if err != nil {
		return nil, nil, err
	}
	if d.Package() == nil {
		def := target.DefaultChannel
		if def == "" {
			def = target.Channels[0]
		}
		if err := d.File.Append(d.Entries, yamledit.Map{{Key: "schema", Value: "olm.package"}, {Key: "name", Value: rel.pkg}, {Key: "defaultChannel", Value: def}}); err != nil {
			return nil, nil, err
		}
	} else if target.DefaultChannel != "" {
		if err := d.File.Set(d.Package(), "defaultChannel", target.DefaultChannel); err != nil {
			return nil, nil, err
		}
	}
	var chose []string
	for _, name := range target.Channels {
		replaces, note, err := p.chooseReplaces(d, name, target, rel)
		if err != nil {
			return nil, nil, err
		}
		if note != "" {
			chose = append(chose, note)
		}
		channels.note(name)
		if err := d.addEntry(name, rel.pkg, entryMap(rel.fbc.Name, replaces, target.Skips, target.SkipRange)); err != nil {
			return nil, nil, err
		}
	}
	if !d.Holds(rel.fbc.Image) {
		if err := d.File.Append(d.Entries, yamledit.Map{{Key: "schema", Value: "olm.bundle"}, {Key: "image", Value: rel.fbc.Image}}); err != nil {
			return nil, nil, err
		}
	}
	out, err := d.File.Bytes()
	return out, chose, err
}

// addEntry appends an entry to a channel, making the channel when the
// template has none of that name.
func (d *basicDoc) addEntry(channel, pkg string, entry yamledit.Map) error {
	ch := d.Channel(channel)
	if ch == nil {
		return d.File.Append(d.Entries, channelMap(d, channel, pkg, entry))
	}
	name := entry[0].Value.(string)
	if e := catalogrepo.EntryNamed(ch, name); e != nil {
		return catalogrepo.Refuse("%s:%d: channel %s already has an entry for %s", d.Template.Path, e.Line, channel, name)
	}
	list := catalogrepo.ChannelEntries(ch)
	if list == nil {
		return d.File.Set(ch, "entries", []any{entry})
	}
	return d.File.Append(list, entry)
}

// releaseSemver adds the bundle's image to the streams a semver template
// (made when missing) releases it into (checkTargets checked that the
// channels name streams). A template that lists the image already (put
// there by hand, its catalogs not rendered) is also returned without it,
// as base: its catalogs are checked against that and rendered with it,
// as the release pipeline renders them.
func releaseSemver(t *catalogrepo.Template, target repoconfig.ReleaseTarget, rel *released) (data, base []byte, err error) {
	data = t.Data
	if data == nil {
		data = []byte("---\nSchema: olm.semver\nGenerateMajorChannels: true\nGenerateMinorChannels: true\n")
	}
	if t.Data != nil {
		if base, err = withoutImage(t, rel.fbc.Image); err != nil {
			return nil, nil, err
		}
	}
	d, err := openSemver(&catalogrepo.Template{Mapping: t.Mapping, Path: t.Path, Data: data})
	if err != nil {
		return nil, nil, err
	}
	for _, ch := range target.Channels {
		stream := repoconfig.SemverStream(ch)
		if stream == "" || slices.Contains(d.Images(stream), rel.fbc.Image) {
			continue
		}
		if err := d.addImage(stream, rel.fbc.Image); err != nil {
			return nil, nil, err
		}
	}
	data, err = d.File.Bytes()
	return data, base, err
}

// withoutImage is a semver template's text without an image, nil when it
// does not list it.
func withoutImage(t *catalogrepo.Template, image string) ([]byte, error) {
	d, err := openSemver(t)
	if err != nil || !d.Holds(image) {
		return nil, err
	}
	if err := d.removeImage(image); err != nil {
		return nil, err
	}
	return d.File.Bytes()
}
