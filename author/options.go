package author

import (
	"github.com/fbcat/opm/alpha/template"
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
	// KeepStyle renders the catalogs of edited templates in the style
	// they were committed in (see Package.Match): a semver catalog an
	// older opm rendered (each channel linked on its own, no package
	// description) as that opm did, which the release pipeline did until
	// it ran opm v1.71. Without it, every catalog written is what opm
	// v1.71 and later render, as the pipeline writes it today.
	KeepStyle bool
}
