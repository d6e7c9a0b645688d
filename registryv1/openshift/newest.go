package openshift

// Newest is the newest OpenShift release with OLM catalogs that this
// package knows of (4.21). Versions after it are read and compared like
// any other; only the question of an open range's latest version needs
// a last release, and that answer ages: a later release runs a later
// Kubernetes.
func Newest() Version { return Version{4, 21} }

// Latest is the latest version of the range: its end or, for an open
// range, Newest (the range's first version when that is later still).
func (r Range) Latest() Version {
	switch {
	case !r.Open:
		return r.Max
	case Newest().Less(r.Min):
		return r.Min
	}
	return Newest()
}
