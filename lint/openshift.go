package lint

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// OpenShift versions, as the community and certified pipelines read them.
//
// com.redhat.openshift.versions (metadata/annotations.yaml) says which
// OpenShift catalogs a bundle goes into: "v4.12" is 4.12 and later,
// "=v4.12" only 4.12, "v4.10-v4.12" the range; the letter v is required
// and spaces and commas are not allowed, except for the two legacy values
// "v4.5,v4.6" and "v4.6,v4.5", which mean "v4.5". No annotation means
// every version. A CSV's olm.maxOpenShiftVersion property (in its
// olm.properties annotation) caps the range: the pipeline leaves the
// bundle out of catalogs of later versions, and OLM blocks cluster
// upgrades past it.

// annotationOpenShiftVersions is the bundle annotation.
const annotationOpenShiftVersions = "com.redhat.openshift.versions"

// propertyMaxOpenShiftVersion is the CSV property that caps the versions.
const propertyMaxOpenShiftVersion = "olm.maxOpenShiftVersion"

// ocp is an OpenShift version, major.minor.
type ocp struct{ major, minor int }

func (v ocp) String() string { return fmt.Sprintf("%d.%d", v.major, v.minor) }

func (v ocp) less(o ocp) bool {
	return v.major < o.major || v.major == o.major && v.minor < o.minor
}

// kube is the Kubernetes minor version OpenShift 4.N runs: 1.(N+13).
func (v ocp) kube() int { return v.minor + 13 }

// ocpForKube is the first OpenShift version that runs Kubernetes 1.minor.
func ocpForKube(minor int) ocp { return ocp{4, minor - 13} }

// firstOCP is the first OpenShift 4 release OLM catalogs exist for.
var firstOCP = ocp{4, 1}

// ocpRange is a set of OpenShift versions: min to max inclusive, or min
// and later when open.
type ocpRange struct {
	min, max ocp
	open     bool
}

// allVersions is every OpenShift version.
var allVersions = ocpRange{min: firstOCP, open: true}

func (r ocpRange) contains(v ocp) bool {
	return !v.less(r.min) && (r.open || !r.max.less(v))
}

// empty reports whether the range holds no version.
func (r ocpRange) empty() bool { return !r.open && r.max.less(r.min) }

// capAt removes the versions after max.
func (r ocpRange) capAt(max ocp) ocpRange {
	if r.open || max.less(r.max) {
		r.max, r.open = max, false
	}
	return r
}

// from is the first version of the range that is v or later; ok is false
// when the range ends before v.
func (r ocpRange) from(v ocp) (first ocp, ok bool) {
	if v.less(r.min) {
		v = r.min
	}
	return v, r.contains(v)
}

func (r ocpRange) String() string {
	switch {
	case r.open:
		return r.min.String() + " and later"
	case r.min == r.max:
		return r.min.String()
	}
	return r.min.String() + "-" + r.max.String()
}

var versionRE = regexp.MustCompile(`^(v?)(\d+)\.(\d+)$`)

// parseOCP reads "v4.12" (or "4.12", noted in noV).
func parseOCP(s string) (v ocp, noV bool, err error) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return v, false, fmt.Errorf("%q is not an OpenShift version such as v4.12", s)
	}
	v.major, _ = strconv.Atoi(m[2])
	v.minor, _ = strconv.Atoi(m[3])
	if v.major != 4 {
		return v, false, fmt.Errorf("%q: only OpenShift 4 versions are known", s)
	}
	return v, m[1] == "", nil
}

// parseVersionsAnnotation reads a com.redhat.openshift.versions value. A
// value the pipeline accepts but that is not written as documented comes
// with a note saying how to write it.
func parseVersionsAnnotation(s string) (r ocpRange, note string, err error) {
	switch {
	case s == "":
		return r, "", fmt.Errorf("the value is empty: write a version such as v4.12 (4.12 and later), =v4.12 (only 4.12) or a range v4.12-v4.14, or remove the annotation")
	case s == "v4.5,v4.6" || s == "v4.6,v4.5":
		return ocpRange{min: ocp{4, 5}, open: true}, fmt.Sprintf("%q is a legacy form that means v4.5 (4.5 and later): write v4.5", s), nil
	case strings.Contains(s, ","):
		return r, "", fmt.Errorf("%q: commas are not allowed (the pipeline then adds the bundle to no catalog); write v4.12 (4.12 and later), =v4.12 (only 4.12) or a range v4.12-v4.14", s)
	case strings.ContainsAny(s, " \t"):
		return r, "", fmt.Errorf("%q: spaces are not allowed; write it as v4.12, =v4.12 or v4.12-v4.14", s)
	}
	var noV bool
	if only, ok := strings.CutPrefix(s, "="); ok {
		v, nv, err := parseOCP(only)
		if err != nil {
			return r, "", err
		}
		r, noV = ocpRange{min: v, max: v}, nv
	} else if lo, hi, ok := strings.Cut(s, "-"); ok {
		a, nva, err := parseOCP(lo)
		if err != nil {
			return r, "", err
		}
		b, nvb, err := parseOCP(hi)
		if err != nil {
			return r, "", err
		}
		if b.less(a) {
			return r, "", fmt.Errorf("%q: the range ends (%s) before it starts (%s)", s, b, a)
		}
		r, noV = ocpRange{min: a, max: b}, nva || nvb
	} else {
		v, nv, err := parseOCP(s)
		if err != nil {
			return r, "", err
		}
		r, noV = ocpRange{min: v, open: true}, nv
	}
	if noV {
		note = fmt.Sprintf("%q: the letter v must precede each version (v4.12, not 4.12)", s)
	}
	return r, note, nil
}

// maxOpenShift is a CSV's olm.maxOpenShiftVersion, if it has one.
type maxOpenShift struct {
	v    ocp
	text string // as written
	// number is set when the value is a JSON number, which reads 4.10 as
	// 4.1.
	number bool
}

// parseMaxOpenShift finds olm.maxOpenShiftVersion in a CSV's
// olm.properties annotation (a JSON list of {type, value}). It returns
// nil when there is none. OLM reads the value's text, quotes trimmed, as
// a version ("4.12", "4.12.0", "v4.12"); it refuses a second one.
func parseMaxOpenShift(olmProperties string) (*maxOpenShift, error) {
	if strings.TrimSpace(olmProperties) == "" {
		return nil, nil
	}
	var props []struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(olmProperties), &props); err != nil {
		return nil, fmt.Errorf("the olm.properties annotation is not a JSON list of properties: %w", err)
	}
	var found *maxOpenShift
	for _, p := range props {
		if p.Type != propertyMaxOpenShiftVersion {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("olm.properties defines %s twice; OLM refuses that: keep one", propertyMaxOpenShiftVersion)
		}
		text := strings.TrimSpace(string(p.Value))
		found = &maxOpenShift{text: strings.Trim(text, `"`), number: !strings.HasPrefix(text, `"`)}
		s := strings.TrimPrefix(found.text, "v")
		if parts := strings.Split(s, "."); len(parts) == 3 {
			s = parts[0] + "." + parts[1] // a patch version says nothing more
		}
		v, _, err := parseOCP(s)
		if err != nil {
			return nil, fmt.Errorf("%s %s is not an OpenShift version such as \"4.12\"", propertyMaxOpenShiftVersion, text)
		}
		found.v = v
	}
	return found, nil
}
