package pipeline

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/registryv1/openshift"
)

// check_api_version_constraints (skipped for FBC operators): a CSV's
// spec.minKubeVersion against the Kubernetes releases of the OpenShift
// versions its com.redhat.openshift.versions selects. The pipeline knows
// OpenShift 4.1 to 4.17 (its table, which registryv1/openshift's
// Kubernetes releases agree with): a range selects those of them it
// holds, and "=v4.N" the nearest known version at or below 4.N (4.17 for
// any later one). A minKubeVersion above the Kubernetes release of a
// selected version is an error, as is a minKubeVersion without a range;
// a comma-separated list other than v4.5,v4.6 is a warning.

// RuleMinKubeVersion is the rule of check_api_version_constraints.
const RuleMinKubeVersion = "min-kube-version"

// pipelineLatestOpenShift is the last OpenShift version the pipeline's
// table has.
var pipelineLatestOpenShift = openshift.Version{Major: 4, Minor: 17}

// semVer is a semantic version without its pre-release and build.
type semVer struct{ major, minor, patch int }

func (v semVer) compare(o semVer) int {
	return cmp.Or(cmp.Compare(v.major, o.major), cmp.Compare(v.minor, o.minor), cmp.Compare(v.patch, o.patch))
}

func (v semVer) String() string { return fmt.Sprintf("%d.%d.%d", v.major, v.minor, v.patch) }

// optionalSemver is python-semver's pattern with optional minor and
// patch versions.
var optionalSemver = regexp.MustCompile(`^(0|[1-9]\d*)(?:\.(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?)?(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// parseSemver reads a version as the pipeline does (white space around
// it aside, minor and patch optional, pre-release and build dropped),
// with python-semver's error.
func parseSemver(s string) (semVer, error) {
	s = strings.Trim(s, pyWhitespace)
	m := optionalSemver.FindStringSubmatch(s)
	if m == nil {
		return semVer{}, fmt.Errorf("%s is not valid SemVer string", s)
	}
	var v semVer
	v.major, _ = strconv.Atoi(m[1])
	v.minor, _ = strconv.Atoi(m[2])
	v.patch, _ = strconv.Atoi(m[3])
	return v, nil
}

// parseOpenShift reads an OpenShift version of the annotation (v
// optional, patch dropped).
func parseOpenShift(s string) (semVer, error) {
	v, err := parseSemver(strings.TrimPrefix(strings.Trim(s, pyWhitespace), "v"))
	v.patch = 0
	return v, err
}

// knownOpenShift are the OpenShift versions the pipeline knows, in order.
func knownOpenShift() []semVer {
	var out []semVer
	for m := 1; m <= pipelineLatestOpenShift.Minor; m++ {
		out = append(out, semVer{4, m, 0})
	}
	return out
}

// kubernetesOf is the Kubernetes release of a known OpenShift version.
func kubernetesOf(v semVer) semVer {
	return semVer{1, openshift.Version{Major: v.major, Minor: v.minor}.KubernetesMinor(), 0}
}

// selectOpenShift is the known versions the annotation selects; warn
// says it is a comma-separated list the pipeline warns about.
func selectOpenShift(sel string) (versions []semVer, warn bool, err error) {
	known := knownOpenShift()
	between := func(lo, hi semVer) []semVer {
		return slices.DeleteFunc(slices.Clone(known), func(v semVer) bool { return v.compare(lo) < 0 || hi.compare(v) < 0 })
	}
	top := semVer{1 << 30, 0, 0}
	switch {
	case strings.Contains(sel, "-"):
		a, b, _ := strings.Cut(sel, "-")
		lo, err := parseOpenShift(a)
		if err != nil {
			return nil, false, err
		}
		hi, err := parseOpenShift(b)
		return between(lo, hi), false, err
	case strings.Contains(sel, ","):
		var list []semVer
		for _, s := range strings.Split(sel, ",") {
			v, err := parseOpenShift(s)
			if err != nil {
				return nil, false, err
			}
			list = append(list, v)
		}
		slices.SortFunc(list, semVer.compare)
		list = slices.CompactFunc(list, func(a, b semVer) bool { return a.compare(b) == 0 })
		warn = !slices.Equal(list, []semVer{{4, 5, 0}, {4, 6, 0}})
		return between(list[0], top), warn, nil
	case strings.HasPrefix(sel, "="):
		v, err := parseOpenShift(sel[1:])
		if err != nil {
			return nil, false, err
		}
		closest := known[0]
		for _, k := range known {
			if k.compare(v) <= 0 {
				closest = k
			}
		}
		return []semVer{closest}, false, nil
	}
	v, err := parseOpenShift(sel)
	return between(v, top), false, err
}

// minKubeVersion is check_api_version_constraints for a bundle.
func minKubeVersion(o *Operator, b *Bundle) []finding.Finding {
	mk := b.csv("spec", "minKubeVersion")
	if o.fbc() || !truthy(mk) {
		return nil
	}
	min, err := parseSemver(pyStr(mk))
	if err != nil {
		return []finding.Finding{atCSV(RuleMinKubeVersion, finding.Error, b, mk, "Invalid minKubeVersion: %v", err)}
	}
	ann, line := b.annotation("com.redhat.openshift.versions")
	if !truthy(ann) {
		return []finding.Finding{atCSV(RuleMinKubeVersion, finding.Error, b, mk,
			"minKubeVersion is set to %s but com.redhat.openshift.versions is not set (%s)", min, b.AnnotationsFile)}
	}
	versions, warn, err := selectOpenShift(strings.Trim(pyStr(ann), pyWhitespace))
	if err != nil {
		return []finding.Finding{inBundle(RuleMinKubeVersion, finding.Error, b, b.AnnotationsFile, line, "Invalid com.redhat.openshift.versions: %v", err)}
	}
	var out []finding.Finding
	if warn {
		out = append(out, inBundle(RuleMinKubeVersion, finding.Warning, b, b.AnnotationsFile, line,
			"Comma separated list of versions in com.redhat.openshift.versions is only supported for v4.5 and v4.6"))
	}
	var conflicting []string
	for _, v := range versions {
		if kubernetesOf(v).compare(min) < 0 {
			conflicting = append(conflicting, fmt.Sprintf("%d.%d", v.major, v.minor))
		}
	}
	if len(conflicting) > 0 {
		out = append(out, atCSV(RuleMinKubeVersion, finding.Error, b, mk,
			"OCP version(s) %s conflict with minKubeVersion=%s (com.redhat.openshift.versions %q)", strings.Join(conflicting, ","), min, pyStr(ann)))
	}
	return out
}
