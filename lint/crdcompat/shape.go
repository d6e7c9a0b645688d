package crdcompat

import (
	"fmt"
	"slices"
)

// Shape is what of a CRD decides whether an upgrade breaks installs
// whoever installs it: its scope and the versions objects may be stored
// in. OLM v0 refuses an upgrade that removes a stored version, and the
// API server one that changes the scope; the other changes Compare finds
// are OLM v1's preflight's. A Shape can be read without the CRD's schemas
// (registryv1.Skim reads one off a manifest's lines), so that upgrades
// known to be installed already (a catalog's) are checked for what
// breaks them at the cost of reading a few lines.
type Shape struct {
	// Scope is spec.scope, "" for none (v1beta1's default, Namespaced).
	Scope string
	// Stored are the versions objects may be stored in: the storage
	// version (a v1beta1 CRD's spec.version without spec.versions) and
	// those of status.storedVersions.
	Stored []string
	// Versions are the CRD's versions, by name.
	Versions []string
	// ScopeLine and VersionsLine are the lines of spec.scope and
	// spec.versions (0 when unknown), where changes of them point.
	ScopeLine, VersionsLine int
}

// InstallChanges are the changes from the old CRD to the new one that
// break installs whoever installs them: the scope changed, a stored
// version removed.
func InstallChanges(old, new Shape) []Change {
	var out []Change
	if os, ns := scopeOr(old.Scope), scopeOr(new.Scope); os != ns {
		out = append(out, Change{Kind: ScopeChanged, Line: new.ScopeLine, Message: fmt.Sprintf("scope changed from %s to %s", os, ns)})
	}
	for _, s := range old.Stored {
		if !slices.Contains(new.Versions, s) {
			out = append(out, Change{Kind: StoredVersionRemoved, Version: s, Line: new.VersionsLine, Message: "stored version removed: objects stored in it can no longer be read; keep it (served: false) until they are migrated"})
		}
	}
	return out
}

// scopeOr is a CRD's scope, Namespaced (v1beta1's default) for none.
func scopeOr(scope string) string {
	if scope == "" {
		return "Namespaced"
	}
	return scope
}

// shape is the CRD's Shape.
func (c *CRD) shape() Shape {
	s := Shape{Scope: c.scope, Stored: c.stored, ScopeLine: nodeLine(c.root.At("spec", "scope")), VersionsLine: nodeLine(c.root.At("spec", "versions"))}
	for _, v := range c.versions {
		s.Versions = append(s.Versions, v.name)
	}
	return s
}
