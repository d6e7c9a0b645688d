package graph

import (
	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/model"
)

// versions holds the semantic version of every bundle of the catalog, by
// package and bundle name. Releases play no part in the drawing, as in
// upstream's.
type versions map[*model.Package]map[string]semver.Version

// readVersions reads the version of every bundle; it fails, naming every
// bundle whose olm.package property gives none, because upstream refuses
// to draw such a catalog.
func readVersions(c *model.Catalog) (versions, error) {
	vs := make(versions, len(c.Packages))
	var problems declcfg.ErrorList
	for _, p := range c.Packages {
		byName := make(map[string]semver.Version, len(p.Bundles))
		for name, b := range p.Bundles {
			v, err := b.Version()
			if err != nil {
				problems = append(problems, asError(err))
				continue
			}
			byName[name] = v.Version
		}
		vs[p] = byName
	}
	if len(problems) > 0 {
		problems.Sort()
		return nil, problems
	}
	return vs, nil
}

// of returns the version of the package's bundle of that name; a name
// that is no bundle of the package counts as 0.0.0, as upstream's do.
func (vs versions) of(p *model.Package, name string) semver.Version { return vs[p][name] }

// asError makes err a *declcfg.Error for an ErrorList.
func asError(err error) *declcfg.Error {
	if e, ok := err.(*declcfg.Error); ok {
		return e
	}
	return &declcfg.Error{Message: err.Error()}
}
