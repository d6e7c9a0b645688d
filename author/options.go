package author

import (
	"time"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
)

// Options are what every verb takes.
type Options struct {
	// Force overwrites catalogs that no longer match their templates.
	Force bool
	// Pull renders bundles that no committed catalog holds from their
	// images; nil keeps rendering offline.
	Pull template.BundleRenderer
	// Bundles are bundles rendered elsewhere (such as from their
	// directories), found by image before any committed catalog's copy.
	Bundles []declcfg.Bundle
	// Style is which opm's output the catalogs of edited semver
	// templates are written in (see Style).
	Style Style
}

// Style is the output of which opm release a semver catalog is written
// as: the release pipeline (add_bundle_to_fbc.py) rendered with an older
// opm (each generated channel linked on its own, no package description
// or icon) until 2026-07-21 and with opm v1.71 since (edges across minor
// channels, the package described from the default channel's head).
type Style int

const (
	// StyleAuto is what the release pipeline writes for the request:
	// StyleToday, but a release of a bundle whose CSV was created
	// before the pipeline ran opm v1.71 (its createdAt annotation) is
	// written as the pipeline then wrote it (StyleOlder), so that
	// replaying a release gives the commit the pipeline made.
	StyleAuto Style = iota
	// StyleToday is what opm v1.71 and later render.
	StyleToday
	// StyleKept is the style each catalog was committed in (see
	// Package.Match); a catalog not yet committed is written in
	// today's.
	StyleKept
	// StyleOlder is what opm releases before v1.71 rendered.
	StyleOlder
)

// pipelineToday is the first day the release pipeline rendered catalogs
// with opm v1.71: in community-operators-prod, konflux 0.2.2-rc.9 (its
// CSV created and released on 2026-07-20) is the last release in the
// older style, dotvirt-operator 0.0.27 (created 2026-07-22) the first
// in today's.
var pipelineToday = time.Date(2026, time.July, 21, 0, 0, 0, 0, time.UTC)

// styleOf is the style of catalog c under s. StyleAuto is today's here:
// Release resolves it for the bundle it releases before it renders.
func (p *Package) styleOf(c *catalogrepo.Catalog, s Style) template.Options {
	switch s {
	case StyleKept:
		return p.style(c)
	case StyleOlder:
		return perChannel
	}
	return template.Options{}
}
