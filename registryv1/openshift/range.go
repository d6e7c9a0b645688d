package openshift

// Range is a set of OpenShift versions: Min to Max inclusive or, when
// Open, Min and every later version.
type Range struct {
	Min, Max Version
	Open     bool
}

// AllVersions is every OpenShift version that has OLM catalogs: 4.1 (the
// first) and later.
func AllVersions() Range { return Range{Min: Version{4, 1}, Open: true} }

// Only is the range of one version.
func Only(v Version) Range { return Range{Min: v, Max: v} }

// Contains reports whether v is in the range.
func (r Range) Contains(v Version) bool {
	return !v.Less(r.Min) && (r.Open || !r.Max.Less(v))
}

// Empty reports whether the range holds no version.
func (r Range) Empty() bool { return !r.Open && r.Max.Less(r.Min) }

// CapAt leaves out the versions after max.
func (r Range) CapAt(max Version) Range {
	if r.Open || max.Less(r.Max) {
		r.Max, r.Open = max, false
	}
	return r
}

// FirstFrom is the first version of the range that is v or later; ok is
// false when the range ends before v.
func (r Range) FirstFrom(v Version) (first Version, ok bool) {
	if v.Less(r.Min) {
		v = r.Min
	}
	return v, r.Contains(v)
}

// String is the range for messages: "4.12 and later", "4.12" or
// "4.12-4.14".
func (r Range) String() string {
	switch {
	case r.Open:
		return r.Min.String() + " and later"
	case r.Min == r.Max:
		return r.Min.String()
	}
	return r.Min.String() + "-" + r.Max.String()
}

// Annotation is the range as com.redhat.openshift.versions writes it:
// "v4.12" (and later), "=v4.12" (only) or "v4.12-v4.14".
func (r Range) Annotation() string {
	switch {
	case r.Open:
		return "v" + r.Min.String()
	case r.Min == r.Max:
		return "=v" + r.Min.String()
	}
	return "v" + r.Min.String() + "-v" + r.Max.String()
}
