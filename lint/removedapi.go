package lint

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/registryv1/openshift"
)

// removed-api: a manifest whose API version the Kubernetes release of one
// of the bundle's target OpenShift versions no longer serves. OpenShift
// 4.N runs Kubernetes 1.(N+13); the removals are in removedAPIs.
const ruleRemovedAPI = "removed-api"

// targets is the OpenShift versions a bundle is for, and how they were
// found, for messages.
type targets struct {
	rng openshift.Range
	why string
}

// bundleTargets is the OpenShift versions a bundle directory targets: its
// com.redhat.openshift.versions (every version without one, or when it is
// malformed: openshift-range reports that), capped by its CSV's
// olm.maxOpenShiftVersion.
func bundleTargets(b *bundle) targets {
	t := targets{rng: openshift.AllVersions(), why: "every OpenShift version (no " + openshift.AnnotationVersions + ")"}
	if s, _, ok := b.annotations.Get(openshift.AnnotationVersions); ok {
		if r, _, err := openshift.ParseVersionsAnnotation(s); err == nil {
			t = targets{rng: r, why: fmt.Sprintf("OpenShift %s (%s %s)", r, openshift.AnnotationVersions, s)}
		}
	} else if b.annotations == nil {
		t.why = "every OpenShift version (its annotations are not known)"
	}
	return capTargets(b, t)
}

// capTargets applies the CSV's olm.maxOpenShiftVersion.
func capTargets(b *bundle, t targets) targets {
	props, _, _ := b.csvAnnotation("olm.properties")
	if m, err := openshift.ParseMaxVersion(props); err == nil && m != nil {
		t.rng = t.rng.CapAt(m.Version)
		t.why = fmt.Sprintf("%s, capped by %s %s", t.why, openshift.PropertyMaxVersion, m.Text)
	}
	return t
}

func removedAPIBundle(c *bundleCheck) []finding.Finding {
	return removedFindings(c.b, bundleTargets(c.b), nil)
}

// removedAPIPackage checks the bundles of a catalog against the catalog's
// OpenShift version (every version for a catalog outside catalogs/v4.x/).
// Bundles with a directory in the operator directory are left to the
// bundle check, which knows their annotations and points at the manifest.
// In a catalog of an OpenShift version the message does not name the
// version: the fix is the same in each catalog that lacks the API, and
// the finding names them (Finding.Catalogs).
func removedAPIPackage(c *packageCheck) []finding.Finding {
	var out []finding.Finding
	for _, name := range c.pkg.BundleNames() {
		if c.cat.dirs[name] != nil || !hasObjects(c.pkg.Bundles[name].Decl) {
			continue
		}
		b := c.bundle(name)
		if b == nil {
			continue
		}
		t := targets{rng: openshift.AllVersions(), why: "every OpenShift version (a catalog outside catalogs/v4.x/)"}
		if v := c.cat.ocp; v != nil {
			t = targets{rng: openshift.Only(*v)}
		}
		out = append(out, removedFindings(b, capTargets(b, t), c.cat.ocp)...)
	}
	return out
}

// removedFindings reports each object of b that some target version lacks.
// inCatalog is the version of the catalog b is in, if any.
func removedFindings(b *bundle, t targets, inCatalog *openshift.Version) []finding.Finding {
	if t.rng.Empty() {
		return nil
	}
	var out []finding.Finding
	for _, o := range b.objects {
		r := removedIndex[o.apiVersion+" "+o.kind]
		if r == nil {
			continue
		}
		first, ok := t.rng.FirstFrom(openshift.ForKubernetesMinor(r.removedIn))
		if !ok {
			continue
		}
		var msg string
		if inCatalog != nil {
			msg = fmt.Sprintf("%s %s %q: Kubernetes 1.%d stopped serving %s, so OpenShift %s and later lack it, and the bundle is in catalogs of those versions. %s",
				o.apiVersion, o.kind, o.name, r.removedIn, o.apiVersion, openshift.ForKubernetesMinor(r.removedIn), removedFix(r, t, first, inCatalog))
		} else {
			msg = fmt.Sprintf("%s %s %q: Kubernetes 1.%d stopped serving %s, so OpenShift %s and later lack it; the bundle targets %s. %s",
				o.apiVersion, o.kind, o.name, r.removedIn, o.apiVersion, first, t.why, removedFix(r, t, first, inCatalog))
		}
		f := objectFinding(ruleRemovedAPI, finding.Error, b, o, o.get("apiVersion"), "%s", msg)
		f.Causes = []string{finding.CauseAPIRemoved(o.kind, o.name)}
		out = append(out, f)
	}
	return out
}

// removedFix says how to fix a removed API: move to its replacement, or
// stop targeting the versions that lack it.
func removedFix(r *removedAPI, t targets, first openshift.Version, inCatalog *openshift.Version) string {
	var fixes []string
	if r.replacement != "" {
		fixes = append(fixes, fmt.Sprintf("Use %s (served since Kubernetes 1.%d)", r.replacement, r.since))
	}
	last := openshift.Version{Major: first.Major, Minor: first.Minor - 1}
	switch {
	case inCatalog != nil:
		fixes = append(fixes, "leave the bundle out of these catalogs")
	case !last.Less(t.rng.Min):
		capped := openshift.Range{Min: t.rng.Min, Max: last}
		fixes = append(fixes, fmt.Sprintf("limit the bundle to OpenShift %s (%s %s, or %s %q)",
			capped, openshift.AnnotationVersions, capped.Annotation(), openshift.PropertyMaxVersion, last.String()))
	}
	msg := strings.Join(fixes, ", or ")
	if r.note != "" {
		msg += " (" + r.note + ")"
	}
	return msg
}
