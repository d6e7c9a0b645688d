package lint

import (
	"fmt"
	"slices"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/registryv1/openshift"
)

// openshift-range: a malformed com.redhat.openshift.versions or
// olm.maxOpenShiftVersion (an error), one the pipeline tolerates but that
// is not written as documented (a warning), and a bundle in a catalog of
// an OpenShift version its range excludes.
//
// Which versions a catalog's bundle is for is known from its bundle
// directory (found in the operator directory by CSV name) or, without
// one, from the olm.maxOpenShiftVersion of its CSV (in olm.bundle.object
// or olm.csv.metadata): catalogs do not keep bundle annotations.
const ruleOpenShiftRange = "openshift-range"

func openshiftRangeBundle(c *bundleCheck) []finding.Finding {
	b := c.b
	var out []finding.Finding
	var rng *openshift.Range
	if s, line, ok := b.annotations.Get(openshift.AnnotationVersions); ok {
		r, note, err := openshift.ParseVersionsAnnotation(s)
		switch {
		case err != nil:
			out = append(out, bundleFinding(ruleOpenShiftRange, finding.Error, b, b.annotationsFile(), line, "%s: %v", openshift.AnnotationVersions, err))
		case note != "":
			out = append(out, bundleFinding(ruleOpenShiftRange, finding.Warning, b, b.annotationsFile(), line, "%s: %s", openshift.AnnotationVersions, note))
		}
		if err == nil {
			rng = &r
		}
	}
	return append(out, maxVersionFindings(b, rng)...)
}

// maxVersionFindings checks a CSV's olm.maxOpenShiftVersion, and that it
// leaves some version of the range rng (if known).
func maxVersionFindings(b *bundle, rng *openshift.Range) []finding.Finding {
	props, line, ok := b.csvAnnotation("olm.properties")
	if !ok {
		return nil
	}
	csv := b.theCSV()
	at := func(sev finding.Severity, format string, args ...any) finding.Finding {
		f := objectFinding(ruleOpenShiftRange, sev, b, csv, nil, format, args...)
		if !csv.inCatalog {
			f.Line = line
		}
		return f
	}
	m, err := openshift.ParseMaxVersion(props)
	switch {
	case err != nil:
		return []finding.Finding{at(finding.Error, "CSV annotation olm.properties: %v", err)}
	case m == nil:
		return nil
	}
	var out []finding.Finding
	if read, ok := m.Misread(); ok {
		out = append(out, at(finding.Warning,
			"%s is the JSON number %s, which the community pipeline reads as %s: write it as a string, \"%s\"", openshift.PropertyMaxVersion, m.Text, read, m.Text))
	}
	if rng != nil && m.Version.Less(rng.Min) {
		out = append(out, at(finding.Error,
			"%s %s is before the first version of %s (%s): no OpenShift version is left, so the bundle goes into no catalog; raise it or correct the range", openshift.PropertyMaxVersion, m.Text, openshift.AnnotationVersions, rng))
	}
	return out
}

// openshiftRangePackage checks that each bundle of a catalog of OpenShift
// 4.x is for 4.x. OLM installs from a catalog whatever a bundle's
// com.redhat.openshift.versions says (nothing installs by that
// annotation), so a range that leaves out some of the catalogs a bundle
// is released into is a warning; one that leaves out every one of them
// is an error: the annotation and the catalogs cannot both be right. OLM
// does enforce olm.maxOpenShiftVersion (a cluster with the bundle
// installed does not upgrade past it): a bundle in a catalog of a later
// version is an error. The messages do not name the catalog's version,
// so that the same problem in several catalogs is one finding naming
// them (Finding.Catalogs).
func openshiftRangePackage(c *packageCheck) []finding.Finding {
	v := c.cat.ocp
	if v == nil {
		return nil
	}
	var out []finding.Finding
	for _, name := range c.pkg.BundleNames() {
		cb := catalogBundle(c.pkg.Bundles[name].Decl)
		at := finding.Finding{Rule: ruleOpenShiftRange, Severity: finding.Error, Package: c.pkg.Name, Bundle: name}
		at.File, at.Line = cb.catalogPos()
		if f, ok := rangeExcludes(c, name, *v, at); ok {
			out = append(out, f)
			continue
		}
		b := c.source(name)
		if b == nil {
			continue
		}
		props, _, _ := b.csvAnnotation("olm.properties")
		if m, err := openshift.ParseMaxVersion(props); err == nil && m != nil && m.Version.Less(*v) {
			if csv := b.theCSV(); csv != nil && csv.inCatalog {
				at.Object = csv.kind + " " + csv.name
			}
			at.Message = fmt.Sprintf("the bundle is in catalogs of OpenShift versions after its CSV's %s %s: OLM marks it incompatible with those clusters (and keeps a cluster that has it installed from upgrading past %s), and the pipeline leaves it out of later catalogs; remove it from these catalogs or raise %s", openshift.PropertyMaxVersion, m.Text, m.Text, openshift.PropertyMaxVersion)
			out = append(out, at)
		}
	}
	return out
}

// rangeExcludes is the finding of a bundle directory's
// com.redhat.openshift.versions that excludes the catalog's version v: a
// warning, or an error when it excludes every catalog of the operator
// directory the bundle is in.
func rangeExcludes(c *packageCheck, name string, v openshift.Version, at finding.Finding) (finding.Finding, bool) {
	d := c.cat.dirs[name]
	if d == nil {
		return at, false
	}
	s, _, ok := d.annotations.Get(openshift.AnnotationVersions)
	r, _, err := openshift.ParseVersionsAnnotation(s)
	if !ok || err != nil || r.Contains(v) {
		return at, false
	}
	what := fmt.Sprintf("its %s %s (%s, in %s)", openshift.AnnotationVersions, s, r, d.annotationsFile())
	if slices.ContainsFunc(c.cat.released[name], r.Contains) {
		at.Severity = finding.Warning
		at.Message = fmt.Sprintf("%s leaves out the OpenShift versions of these catalogs: OLM installs the bundle from them all the same (nothing installs by that annotation); take it out of their templates, or widen the range", what)
		return at, true
	}
	at.Message = fmt.Sprintf("%s leaves out every OpenShift catalog the bundle is released into: the annotation and the catalogs cannot both be right; correct the range, or release the bundle into the catalogs of the versions it is for", what)
	return at, true
}
