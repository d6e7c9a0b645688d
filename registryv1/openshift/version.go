package openshift

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
)

// Version is an OpenShift release, major.minor.
type Version struct{ Major, Minor int }

// String is the version as "4.17".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// Compare orders versions by major, then minor.
func (v Version) Compare(o Version) int {
	return cmp.Or(cmp.Compare(v.Major, o.Major), cmp.Compare(v.Minor, o.Minor))
}

// Less reports whether v comes before o.
func (v Version) Less(o Version) bool { return v.Compare(o) < 0 }

// KubernetesMinor is the minor version of the Kubernetes release that
// OpenShift 4.N runs: 1.(N+13) from 4.3 on (4.3 skipped Kubernetes 1.15),
// 1.13 for 4.1 and 1.14 for 4.2. It is meaningful for OpenShift 4 only.
func (v Version) KubernetesMinor() int {
	if v.Major == 4 && v.Minor < 3 {
		return v.Minor + kubernetesOffset - 1
	}
	return v.Minor + kubernetesOffset
}

// ForKubernetesMinor is the first OpenShift 4 release that runs
// Kubernetes 1.minor or a later one (4.3 for 1.15, which no release
// ran).
func ForKubernetesMinor(minor int) Version {
	if minor < 16 {
		return Version{4, max(1, minor-kubernetesOffset+1)}
	}
	return Version{4, minor - kubernetesOffset}
}

// kubernetesOffset is how far OpenShift 4's minor versions are behind
// those of the Kubernetes releases they run, from 4.3 on.
const kubernetesOffset = 13

// versionRE is a version as written in catalog names, annotations and
// properties: "v4.17" or "4.17".
var versionRE = regexp.MustCompile(`^(v?)(\d+)\.(\d+)$`)

// ParseVersion reads an OpenShift version written "v4.17" or "4.17" (of
// any major version); withV says whether the letter v was written.
func ParseVersion(s string) (v Version, withV bool, err error) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return Version{}, false, fmt.Errorf("%q is not an OpenShift version such as v4.12", s)
	}
	// A number too big for an int reads as the largest int, which no
	// caller takes for a real release.
	v.Major, _ = strconv.Atoi(m[2])
	v.Minor, _ = strconv.Atoi(m[3])
	return v, m[1] == "v", nil
}
