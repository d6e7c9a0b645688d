// The bundle being released: read from its directory, with where it goes.

package author

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/catalogrepo"
	"github.com/fbcat/opm/catalogrepo/repoconfig"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

// released is the bundle being released: its blob (rendered from its
// directory with the image) and where it goes.
type released struct {
	fbc declcfg.Bundle
	pkg string // the FBC package
	// rc says where it goes: its release-config.yaml, or the request's
	// Target (rc.File "").
	rc    *repoconfig.ReleaseConfig
	notes []string // what the user should know about the directory
	// csvReplaces and version are the CSV's spec.replaces and version.
	csvReplaces string
	version     semver.Version
	// built is the day the CSV says the bundle was made (its
	// createdAt annotation); zero when it does not say.
	built time.Time
}

// readRelease renders the bundle directory with the image and reads where
// it goes: its release-config.yaml, or else target (a ReleaseRequest's).
func (p *Package) readRelease(dir, image string, target *repoconfig.ReleaseTarget) (*released, error) {
	rel := path.Join(p.Dir, filepath.Base(dir))
	if err := render.BundleWithoutMetadata(dir); err != nil {
		return nil, catalogrepo.Refuse("%w", err)
	}
	fbc, err := render.BundleFromDir(dir, image)
	if err != nil {
		return nil, catalogrepo.Refuse("%w", err)
	}
	pp, _ := catalogrepo.PackageProperty(fbc)
	if !strings.Contains(fbc.Name, pp.Version) {
		return nil, catalogrepo.Refuse("bundle directory %s holds a ClusterServiceVersion named %s, version %s: its name does not carry its version (name it %s.v%s)", rel, fbc.Name, pp.Version, fbc.Package, pp.Version)
	}
	out := &released{fbc: *fbc, pkg: fbc.Package, version: bundleVersion(fbc)}
	out.csvReplaces, out.built = csvFacts(fbc)
	if base := filepath.Base(dir); base != pp.Version && base != "v"+pp.Version {
		// The release pipeline releases it all the same: a warning.
		out.notes = append(out.notes, fmt.Sprintf("bundle directory %s holds %s, version %s: a bundle's directory is usually named after its version (operators/%s/%s)", rel, fbc.Name, pp.Version, p.Name, pp.Version))
	}
	if fbcPkg := p.FBCPackage(); fbcPkg != "" && fbcPkg != fbc.Package {
		return nil, catalogrepo.Refuse("bundle directory %s is a bundle of package %q, but the catalogs of %s hold package %q", rel, fbc.Package, p.Dir, fbcPkg)
	}
	cfgFile := path.Join(rel, "release-config.yaml")
	data, err := os.ReadFile(filepath.Join(dir, "release-config.yaml"))
	switch {
	case err == nil && target != nil:
		return nil, needNoTarget(cfgFile + " says where the bundle is released")
	case err == nil:
		rc, err := repoconfig.ParseReleaseConfig(cfgFile, data)
		if rc == nil {
			return nil, err
		}
		out.rc = rc // its mistakes are checkTargets'
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case target == nil || len(target.Channels) == 0:
		return nil, needTarget(rel + " has no release-config.yaml")
	case target.TemplateFile != "":
		out.rc = &repoconfig.ReleaseConfig{Targets: []repoconfig.ReleaseTarget{*target}}
	default:
		out.rc = &repoconfig.ReleaseConfig{}
		for _, t := range p.Templates {
			one := *target
			one.TemplateFile = t.TemplateFile
			out.rc.Targets = append(out.rc.Targets, one)
		}
	}
	return out, nil
}

// csvFacts are the spec.replaces of a rendered bundle's
// ClusterServiceVersion ("" when it has none) and the day its createdAt
// annotation names (zero when it names none: the annotation is free
// text, though tools write an RFC 3339 time or a date first).
func csvFacts(b *declcfg.Bundle) (replaces string, built time.Time) {
	objects, err := b.Objects()
	if err != nil {
		return "", time.Time{}
	}
	i := declcfg.CSVIndex(objects)
	if i < 0 {
		return "", time.Time{}
	}
	var csv struct {
		Metadata struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
		Spec struct {
			Replaces string `json:"replaces"`
		} `json:"spec"`
	}
	if json.Unmarshal(objects[i], &csv) != nil {
		return "", time.Time{}
	}
	if day := strings.TrimSpace(csv.Metadata.Annotations["createdAt"]); len(day) >= 10 {
		built, _ = time.Parse(time.DateOnly, day[:10])
	}
	return csv.Spec.Replaces, built
}

// bundleVersion is the version of a rendered bundle's olm.package
// property (zero when it has none that parses).
func bundleVersion(b *declcfg.Bundle) semver.Version {
	pp, _ := catalogrepo.PackageProperty(b)
	v, _ := semver.Parse(pp.Version)
	return v
}
