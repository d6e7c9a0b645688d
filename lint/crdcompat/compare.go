package crdcompat

import "fmt"

// Compare lists the unsafe changes from the old CRD to the new one: those
// of the CRD, those of each version both have, and the problems of the
// new CRD's served versions that the old CRD's did not have (see
// newServedChanges).
func Compare(old, new *CRD) []Change {
	var out []Change
	if old.scope != new.scope {
		out = append(out, Change{Kind: ScopeChanged, Line: nodeLine(new.root.At("spec", "scope")), Message: fmt.Sprintf("scope changed from %s to %s", old.scope, new.scope)})
	}
	for _, s := range old.stored {
		if new.version(s) == nil {
			out = append(out, Change{Kind: StoredVersionRemoved, Version: s, Line: nodeLine(new.root.At("spec", "versions")), Message: "stored version removed: objects stored in it can no longer be read; keep it (served: false) until they are migrated"})
		}
	}
	for _, ov := range old.versions {
		if nv := new.version(ov.name); nv != nil {
			out = append(out, compareVersions(ov, nv)...)
		}
	}
	return append(out, newServedChanges(old, new)...)
}
