package crdcompat

// Compare lists the unsafe changes from the old CRD to the new one: those
// of the CRD, those of each version both have, and the problems of the
// new CRD's served versions that the old CRD's did not have (see
// newServedChanges).
func Compare(old, new *CRD) []Change {
	out := InstallChanges(old.shape(), new.shape())
	for _, ov := range old.versions {
		if nv := new.version(ov.name); nv != nil {
			out = append(out, compareVersions(ov, nv)...)
		}
	}
	return append(out, newServedChanges(old, new)...)
}
