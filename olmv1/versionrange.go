// Version ranges as a ClusterExtension's spec.source.catalog.version
// takes them. operator-controller reads them with Masterminds semver, so
// this does too: the same operators (=, !=, >, <, ~, ^, wildcards,
// hyphen ranges, || and commas) with the same pre-release rules.

package olmv1

import (
	"fmt"

	mmsemver "github.com/Masterminds/semver/v3"
	"github.com/blang/semver/v4"
)

// versionRange is a parsed range; the nil range holds every version.
type versionRange struct{ c *mmsemver.Constraints }

// parseVersionRange parses a range; "" is every version.
func parseVersionRange(s string) (versionRange, error) {
	if s == "" {
		return versionRange{}, nil
	}
	c, err := mmsemver.NewConstraint(s)
	if err != nil {
		return versionRange{}, fmt.Errorf("invalid version range %q: %w (write it as a ClusterExtension's spec.source.catalog.version, e.g. \">=1.2.0 <2.0.0\" or \"1.2.x\")", s, err)
	}
	return versionRange{c}, nil
}

// contains reports whether v is in the range.
func (r versionRange) contains(v semver.Version) bool {
	if r.c == nil {
		return true
	}
	mv, err := mmsemver.StrictNewVersion(v.String())
	return err == nil && r.c.Check(mv)
}
