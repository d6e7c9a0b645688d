package config

import (
	"fmt"

	"github.com/fbcat/opm/lint/layout"
)

// Profile is a set of the hosted pipeline's checks that lint runs beside
// its own rules: the checks of operator-pipelines' static tests of one
// kind of catalog repository, which read operator directories
// (operators/<pkg>/ with its ci.yaml).
type Profile string

// The profiles. ProfileAuto, the default, is ProfileCommunity when a path
// linted is laid out as the community repositories are (an operator
// directory or the operators/ directory) and ProfileNone otherwise.
const (
	ProfileAuto Profile = ""
	// ProfileCommunity runs the checks of the community repositories'
	// pipeline (the static tests' common and community suites).
	ProfileCommunity Profile = "community"
	// ProfileCertified runs the checks of the certified repositories'
	// pipeline (the common and isv suites).
	ProfileCertified Profile = "certified"
	// ProfileNone runs lint's own rules only.
	ProfileNone Profile = "none"
)

// ParseProfile reads a profile name ("auto" is the default).
func ParseProfile(s string) (Profile, error) {
	switch p := Profile(s); p {
	case ProfileCommunity, ProfileCertified, ProfileNone:
		return p, nil
	case "auto":
		return ProfileAuto, nil
	}
	return "", fmt.Errorf("unknown profile %q: use community, certified, none or auto", s)
}

// Resolve is the profile a run over paths uses: p, or for ProfileAuto the
// one the paths' layout calls for.
func (p Profile) Resolve(paths []string) Profile {
	if p != ProfileAuto {
		return p
	}
	for _, path := range paths {
		if layout.IsOperatorDir(path) || len(layout.OperatorDirsIn(path)) > 0 {
			return ProfileCommunity
		}
	}
	return ProfileNone
}
