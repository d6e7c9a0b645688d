package lint

import (
	"fmt"
	"strconv"
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

func openshiftRangeBundle(c *bundleCheck) []Finding {
	b := c.b
	var out []Finding
	var rng *ocpRange
	if s, line, ok := b.annotations.get(annotationOpenShiftVersions); ok {
		r, note, err := parseVersionsAnnotation(s)
		switch {
		case err != nil:
			out = append(out, bundleFinding(ruleOpenShiftRange, Error, b, b.annotations.file, line, "%s: %v", annotationOpenShiftVersions, err))
		case note != "":
			out = append(out, bundleFinding(ruleOpenShiftRange, Warning, b, b.annotations.file, line, "%s: %s", annotationOpenShiftVersions, note))
		}
		if err == nil {
			rng = &r
		}
	}
	return append(out, maxVersionFindings(b, rng)...)
}

// maxVersionFindings checks a CSV's olm.maxOpenShiftVersion, and that it
// leaves some version of the range rng (if known).
func maxVersionFindings(b *bundle, rng *ocpRange) []Finding {
	props, line, ok := b.csvAnnotation("olm.properties")
	if !ok {
		return nil
	}
	csv := b.theCSV()
	at := func(sev Severity, format string, args ...any) Finding {
		f := objectFinding(ruleOpenShiftRange, sev, b, csv, nil, format, args...)
		if !csv.inCatalog {
			f.Line = line
		}
		return f
	}
	m, err := parseMaxOpenShift(props)
	switch {
	case err != nil:
		return []Finding{at(Error, "CSV annotation olm.properties: %v", err)}
	case m == nil:
		return nil
	}
	var out []Finding
	if m.number {
		if f, err := strconv.ParseFloat(m.text, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) != m.text {
			out = append(out, at(Warning,
				"%s is the JSON number %s, which the community pipeline reads as %s: write it as a string, \"%s\"", propertyMaxOpenShiftVersion, m.text, strconv.FormatFloat(f, 'f', -1, 64), m.text))
		}
	}
	if rng != nil && m.v.less(rng.min) {
		out = append(out, at(Error,
			"%s %s is before the first version of %s (%s): no OpenShift version is left, so the bundle goes into no catalog; raise it or correct the range", propertyMaxOpenShiftVersion, m.text, annotationOpenShiftVersions, rng))
	}
	return out
}

// openshiftRangePackage checks that each bundle of a catalog of OpenShift
// 4.x is for 4.x.
func openshiftRangePackage(c *packageCheck) []Finding {
	v := c.cat.ocp
	if v == nil {
		return nil
	}
	var out []Finding
	for _, name := range c.pkg.BundleNames() {
		cb := catalogBundle(c.pkg.Bundles[name].Decl)
		at := Finding{Rule: ruleOpenShiftRange, Severity: Error, Package: c.pkg.Name, Bundle: name}
		at.File, at.Line = cb.catalogPos()
		if d := c.cat.dirs[name]; d != nil {
			s, _, ok := d.annotations.get(annotationOpenShiftVersions)
			r, _, err := parseVersionsAnnotation(s)
			if ok && err == nil && !r.contains(*v) {
				at.Message = fmt.Sprintf("the bundle is in the OpenShift %s catalog, but its %s %s (%s, in %s) excludes %s: leave it out of the templates mapped to %s, or widen the range", v, annotationOpenShiftVersions, s, r, d.annotations.file, v, "v"+v.String())
				out = append(out, at)
				continue
			}
		}
		b := c.source(name)
		if b == nil {
			continue
		}
		props, _, _ := b.csvAnnotation("olm.properties")
		if m, err := parseMaxOpenShift(props); err == nil && m != nil && m.v.less(*v) {
			if csv := b.theCSV(); csv != nil && csv.inCatalog {
				at.Object = csv.kind + " " + csv.name
			}
			at.Message = fmt.Sprintf("the bundle is in the OpenShift %s catalog, but its CSV's %s is %s: OLM marks it incompatible with this cluster version and the pipeline leaves it out of later catalogs; remove it from this catalog or raise %s", v, propertyMaxOpenShiftVersion, m.text, propertyMaxOpenShiftVersion)
			out = append(out, at)
		}
	}
	return out
}
