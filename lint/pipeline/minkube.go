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

// parseOpenShift reads an OpenShift version of the annotation as the
// pipeline does, with python-semver (v optional, minor optional, patch,
// pre-release and build dropped).
func parseOpenShift(s string) (openshift.Version, error) {
	v, err := parseSemver(strings.TrimPrefix(strings.Trim(s, pyWhitespace), "v"))
	return openshift.Version{Major: v.major, Minor: v.minor}, err
}

// selectOpenShift is the versions the pipeline knows (4.1 to
// pipelineLatestOpenShift) that the annotation selects; warn says it is a
// comma-separated list the pipeline warns about.
func selectOpenShift(sel string) (versions []openshift.Version, warn bool, err error) {
	known := openshift.AllVersions().CapAt(pipelineLatestOpenShift)
	in := func(r openshift.Range) (out []openshift.Version) {
		for v := known.Min; known.Contains(v); v.Minor++ {
			if r.Contains(v) {
				out = append(out, v)
			}
		}
		return out
	}
	switch {
	case strings.Contains(sel, "-"):
		a, b, _ := strings.Cut(sel, "-")
		lo, err := parseOpenShift(a)
		if err != nil {
			return nil, false, err
		}
		hi, err := parseOpenShift(b)
		return in(openshift.Range{Min: lo, Max: hi}), false, err
	case strings.Contains(sel, ","):
		var list []openshift.Version
		for _, s := range strings.Split(sel, ",") {
			v, err := parseOpenShift(s)
			if err != nil {
				return nil, false, err
			}
			list = append(list, v)
		}
		slices.SortFunc(list, openshift.Version.Compare)
		list = slices.Compact(list)
		warn = !slices.Equal(list, []openshift.Version{{Major: 4, Minor: 5}, {Major: 4, Minor: 6}})
		return in(openshift.Range{Min: list[0], Open: true}), warn, nil
	case strings.HasPrefix(sel, "="):
		v, err := parseOpenShift(sel[1:])
		if err != nil {
			return nil, false, err
		}
		// the nearest known version at or below v (the first known one
		// when v is before it)
		closest := known.CapAt(v).Max
		if closest.Less(known.Min) {
			closest = known.Min
		}
		return []openshift.Version{closest}, false, nil
	}
	v, err := parseOpenShift(sel)
	return in(openshift.Range{Min: v, Open: true}), false, err
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
		if (semVer{1, v.KubernetesMinor(), 0}).compare(min) < 0 {
			conflicting = append(conflicting, v.String())
		}
	}
	if len(conflicting) > 0 {
		out = append(out, atCSV(RuleMinKubeVersion, finding.Error, b, mk,
			"OCP version(s) %s conflict with minKubeVersion=%s (com.redhat.openshift.versions %q)", strings.Join(conflicting, ","), min, pyStr(ann)))
	}
	return out
}
