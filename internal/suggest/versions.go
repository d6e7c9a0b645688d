package suggest

import (
	"regexp"

	"github.com/blang/semver/v4"
)

// nameVersion reads the version a name ends in (widget.v1.2.3, widget.v9,
// 1.2.0), if it does.
var nameVersion = regexp.MustCompile(`(?:^|[.-])v?(\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$`)

// Versioned lists the names (of bundles, whose versions version gives) a
// mistyped bundle name most likely meant: when the name ends in a
// version, the bundles of that version (the rest was mistyped), else the
// bundles just below and just above it in version order; when it ends in
// none, or no bundle has a version, the names Near it.
func Versioned(name string, names []string, version func(string) (semver.Version, bool)) []string {
	m := nameVersion.FindStringSubmatch(name)
	if m == nil {
		return Near(name, names)
	}
	want, err := semver.ParseTolerant(m[1])
	if err != nil {
		return Near(name, names)
	}
	var below, above, same []string
	var belowV, aboveV semver.Version
	for _, n := range names {
		v, ok := version(n)
		switch {
		case !ok:
		case v.Equals(want):
			same = append(same, n)
		case v.LT(want) && (below == nil || v.GT(belowV)):
			below, belowV = []string{n}, v
		case v.GT(want) && (above == nil || v.LT(aboveV)):
			above, aboveV = []string{n}, v
		}
	}
	if len(same) > 0 {
		return same[:min(MaxNear, len(same))]
	}
	if best := append(below, above...); len(best) > 0 {
		return best
	}
	return Near(name, names)
}

// NameVersion is the version a name ends in (widget.v1.2.3 is 1.2.3), if
// it ends in one: for Versioned, where only names are known.
func NameVersion(name string) (semver.Version, bool) {
	m := nameVersion.FindStringSubmatch(name)
	if m == nil {
		return semver.Version{}, false
	}
	v, err := semver.ParseTolerant(m[1])
	return v, err == nil
}
