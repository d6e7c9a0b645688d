package author

import (
	"fmt"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/internal/suggest"
)

// checkEntries refuses a basic template (text data) whose channel lists
// a bundle that none of its olm.bundle entries renders to, naming the
// template's line of that entry: validating the rendered catalog would
// name a line of a catalog (one that may not exist yet), not the line
// to fix.
func checkEntries(t *catalogrepo.Template, data []byte, cfg *declcfg.DeclarativeConfig) error {
	names := make(map[string]bool, len(cfg.Bundles))
	for i := range cfg.Bundles {
		names[cfg.Bundles[i].Name] = true
	}
	for _, ch := range cfg.Channels {
		for _, e := range ch.Entries {
			if names[e.Name] {
				continue
			}
			return catalogrepo.Refuse("%s: channel %s lists %s, but no olm.bundle entry of the template is that bundle: add an olm.bundle entry with its image, or remove the channel's entry%s",
				entryPlace(t, data, ch.Name, e.Name), ch.Name, e.Name, bundleHint(e.Name, cfg))
		}
	}
	return nil
}

// entryPlace is "file:line" of a channel's entry in a template, or the
// file alone when it cannot be found.
func entryPlace(t *catalogrepo.Template, data []byte, channel, name string) string {
	d, err := openBasic(&catalogrepo.Template{Mapping: t.Mapping, Path: t.Path, Data: data})
	if err != nil {
		return t.Path
	}
	if ch := d.Channel(channel); ch != nil {
		if e := catalogrepo.EntryNamed(ch, name); e != nil {
			return fmt.Sprintf("%s:%d", t.Path, e.Line)
		}
		return fmt.Sprintf("%s:%d", t.Path, ch.Line)
	}
	return t.Path
}

// bundleHint is " (did you mean ...?)" naming the bundles of a rendered
// catalog nearest to a name (see suggest.Versioned), or "".
func bundleHint(name string, cfg *declcfg.DeclarativeConfig) string {
	versions := map[string]semver.Version{}
	var names []string
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		names = append(names, b.Name)
		if pp, ok := catalogrepo.PackageProperty(b); ok {
			if v, err := semver.Parse(pp.Version); err == nil {
				versions[b.Name] = v
			}
		}
	}
	version := func(n string) (semver.Version, bool) {
		v, ok := versions[n]
		return v, ok
	}
	if near := suggest.Versioned(name, names, version); len(near) > 0 {
		return fmt.Sprintf(" (did you mean %s?)", suggest.Or(near))
	}
	return ""
}
