package author

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/request"
	"github.com/fbcat/opm/catalogrepo/yamledit"
	"github.com/fbcat/opm/internal/suggest"
)

// DefaultChannelRequest names the channel to make the package's default.
type DefaultChannelRequest struct {
	Channel string
}

// Validate checks that the request names the channel.
func (r DefaultChannelRequest) Validate() error {
	if r.Channel == "" {
		return request.Required("author.DefaultChannelRequest", "Channel", "the channel to make the default")
	}
	v := request.Values{Request: "author.DefaultChannelRequest"}
	v.Channel("Channel", r.Channel)
	return v.Err()
}

// SetDefaultChannel sets the default channel of the package in every
// mapped template. The channel must exist in each of them; semver
// templates choose their default channel themselves and are refused.
// Nothing changes when anything is refused.
func (p *Package) SetDefaultChannel(ctx context.Context, req DefaultChannelRequest, opts Options) (*Plan, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	channel := req.Channel
	e := edited{}
	var missing []string
	var docs []*basicDoc
	basics, semverOnes, err := p.openTemplates()
	if err != nil {
		return nil, err
	}
	for _, d := range basics {
		t := d.Template
		if d.Channel(channel) == nil {
			missing = append(missing, t.TemplateFile)
			continue
		}
		if d.Package() == nil {
			return nil, catalogrepo.Refuse("%s has no olm.package entry to set the default channel of", t.Path)
		}
		docs = append(docs, d)
	}
	switch {
	case len(semverOnes) > 0:
		return nil, catalogrepo.Refuse("cannot set the default channel to %s: semver templates (%s) choose their default channel themselves, the most stable and newest channel they generate (defaultChannelTypePreference: major or minor picks which kind)", channel, strings.Join(semverOnes, ", "))
	case len(missing) > 0:
		return nil, p.notEveryTemplate(channel, basics, missing)
	case len(docs) == 0:
		return nil, catalogrepo.Refuse("%s maps no template that exists", p.CI.File)
	}
	for _, d := range docs {
		if yamledit.String(d.Package(), "defaultChannel") == channel {
			continue
		}
		if err := d.File.Set(d.Package(), "defaultChannel", channel); err != nil {
			return nil, err
		}
		if e[d.Template], err = d.File.Bytes(); err != nil {
			return nil, err
		}
	}
	plan, err := p.plan(ctx, e, p.sourceWith(opts), opts)
	if err != nil {
		return nil, err
	}
	if len(e) == 0 {
		plan.Summary = fmt.Sprintf("%s is already the default channel of %s", channel, p.Name)
	} else {
		plan.Summary = fmt.Sprintf("set the default channel of %s to %s in %s; %s rendered", p.Name, channel, Plural(len(e), "template"), Plural(countKind(plan, KindCatalog), "catalog"))
	}
	return plan, nil
}

// notEveryTemplate refuses a default channel that the templates named
// missing lack: a name no template has as an unknown channel, with the
// channels there are (each once); one some templates lack, naming them
// and the channels every template has.
func (p *Package) notEveryTemplate(channel string, basics []*basicDoc, missing []string) error {
	common := p.TemplateChannels()
	if len(missing) == len(basics) {
		return catalogrepo.UnknownName("channel", channel, nil, common, "no template of %s has channel %q", p.Dir, channel)
	}
	for _, d := range basics {
		common = slices.DeleteFunc(common, func(c string) bool { return d.Channel(c) == nil })
	}
	all := "none is in all of them"
	if len(common) > 0 {
		all = "the channels all of them have: " + suggest.List(common)
	}
	return catalogrepo.Refuse("channel %q is not in %s: the default channel must be a channel of every template (%s)", channel, strings.Join(missing, ", "), all)
}
