package openshift

import (
	"fmt"
	"strings"
)

// AnnotationVersions is the bundle annotation (metadata/annotations.yaml)
// that says which OpenShift catalogs a bundle goes into: "v4.12" is 4.12
// and later, "=v4.12" only 4.12, "v4.10-v4.12" the range. The letter v is
// required and spaces and commas are not allowed, except for the two
// legacy values "v4.5,v4.6" and "v4.6,v4.5", which mean "v4.5". No
// annotation means every version.
const AnnotationVersions = "com.redhat.openshift.versions"

// ParseVersionsAnnotation reads a com.redhat.openshift.versions value. A
// value the pipelines accept but that is not written as documented (a
// legacy form, a version without its v) comes with a note saying how to
// write it.
func ParseVersionsAnnotation(s string) (r Range, note string, err error) {
	switch {
	case s == "":
		return r, "", fmt.Errorf("the value is empty: write a version such as v4.12 (4.12 and later), =v4.12 (only 4.12) or a range v4.12-v4.14, or remove the annotation")
	case s == "v4.5,v4.6" || s == "v4.6,v4.5":
		return Range{Min: Version{4, 5}, Open: true}, fmt.Sprintf("%q is a legacy form that means v4.5 (4.5 and later): write v4.5", s), nil
	case strings.Contains(s, ","):
		return r, "", fmt.Errorf("%q: commas are not allowed (the pipeline then adds the bundle to no catalog); write v4.12 (4.12 and later), =v4.12 (only 4.12) or a range v4.12-v4.14", s)
	case strings.ContainsAny(s, " \t"):
		return r, "", fmt.Errorf("%q: spaces are not allowed; write it as v4.12, =v4.12 or v4.12-v4.14", s)
	}
	r, withV, err := parseRange(s)
	if err != nil {
		return Range{}, "", err
	}
	if !withV {
		note = fmt.Sprintf("%q: the letter v must precede each version (v4.12, not 4.12)", s)
	}
	return r, note, nil
}

// parseRange reads "=v4.12", "v4.10-v4.12" or "v4.12"; withV is false
// when a version lacks its v.
func parseRange(s string) (r Range, withV bool, err error) {
	if only, ok := strings.CutPrefix(s, "="); ok {
		v, withV, err := parseVersion4(only)
		return Only(v), withV, err
	}
	if lo, hi, ok := strings.Cut(s, "-"); ok {
		a, withA, err := parseVersion4(lo)
		if err != nil {
			return r, false, err
		}
		b, withB, err := parseVersion4(hi)
		if err != nil {
			return r, false, err
		}
		if b.Less(a) {
			return r, false, fmt.Errorf("%q: the range ends (%s) before it starts (%s)", s, b, a)
		}
		return Range{Min: a, Max: b}, withA && withB, nil
	}
	v, withV, err := parseVersion4(s)
	return Range{Min: v, Open: true}, withV, err
}

// parseVersion4 reads a version of the annotation: OpenShift 4 only.
func parseVersion4(s string) (Version, bool, error) {
	v, withV, err := ParseVersion(s)
	if err == nil && v.Major != 4 {
		err = fmt.Errorf("%q: only OpenShift 4 versions are known", s)
	}
	return v, withV, err
}
