package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
)

// csv-crd-mismatch: the CSV owns a CRD version the bundle's own CRD
// manifests do not serve, or requires one of a CRD they define but do not
// serve in that version. OLM v0 installs the bundle's CRDs, then checks
// the CSV's requirements against the cluster (operator-lifecycle-manager,
// pkg/controller/operators/olm/requirements.go, requirementStatus): for
// each CRD the CSV owns or requires, the CRD of that name must exist
// ("CRD is not present") and list the CSV's version with served: true
// ("CRD version not served"); until then the CSV stays Pending
// (RequirementsNotMet) and the operator is never deployed. A required CRD
// the bundle does not carry comes from another operator, which the
// resolver picks; one it carries is the one the cluster gets. OLM v1
// cannot read such a bundle at all (olmv1-unsupported says so). One
// finding per CSV entry, at the entry (in a catalog, at the bundle's name,
// naming the CSV).
const ruleCSVCRDs = "csv-crd-mismatch"

func csvCRDsBundle(c *bundleCheck) []finding.Finding {
	return csvCRDFindings(c.b, "")
}

// csvCRDsPackage checks the catalog's bundles that carry their manifests
// (olm.bundle.object). Bundles with a directory in the operator directory
// are left to the bundle check, which points into their manifests.
func csvCRDsPackage(c *packageCheck) []finding.Finding {
	var out []finding.Finding
	for _, name := range c.pkg.BundleNames() {
		if c.cat.dirs[name] != nil {
			continue
		}
		mb := c.pkg.Bundles[name]
		if mb.Decl == nil || !hasObjects(mb.Decl) {
			continue // its CRDs are only in its image
		}
		if b := c.bundle(name); b != nil {
			out = append(out, csvCRDFindings(b, firstChannel(c, name))...)
		}
	}
	return out
}

// csvCRDFindings checks each CRD entry of the bundle's CSV (owned, and
// required ones the bundle carries) against its CRD manifests.
func csvCRDFindings(b *bundle, channel string) []finding.Finding {
	csv := b.csv
	if csv == nil || csv.partial || csv.root() == nil {
		return nil
	}
	crds := b.crdObjects()
	var out []finding.Finding
	for _, role := range []string{"owned", "required"} {
		list := csv.get("spec", "customresourcedefinitions", role)
		if list == nil || list.Kind != value.Array {
			continue
		}
		for i := range list.Items {
			entry := &list.Items[i]
			name, version := entry.StringAt("name"), entry.StringAt("version")
			crd := crds[name]
			if crd == nil && role == "required" {
				continue // another operator provides it
			}
			problem := crdVersionProblem(crd, name, version)
			if problem == "" {
				continue
			}
			verb := map[string]string{"owned": "owns", "required": "requires"}[role]
			f := objectFinding(ruleCSVCRDs, finding.Error, b, csv, entry,
				"the CSV %s CRD %s version %q, %s: OLM cannot install the bundle (OLM v0 keeps the CSV pending, its requirement not met: %s)",
				verb, name, version, problem, olmv0Status(crd))
			f.Channel = channel
			f.Causes = []string{finding.CauseCRDVersions(name)}
			out = append(out, f)
		}
	}
	return out
}

// crdVersionProblem says what is wrong with a CSV entry's CRD and
// version, "" when the bundle's CRD serves that version.
func crdVersionProblem(crd *object, name, version string) string {
	if crd == nil {
		return "but the bundle has no manifest of that CRD"
	}
	versions, served := crd.crdVersions()
	switch {
	case version == "":
		return "no version at all"
	case !slices.Contains(versions, version):
		return fmt.Sprintf("which the bundle's CRD does not define (it has %s)", quoteList(versions))
	case !served[version]:
		return "which the bundle's CRD does not serve (served: false)"
	}
	return ""
}

// olmv0Status is the requirement status OLM v0 gives the CSV.
func olmv0Status(crd *object) string {
	if crd == nil {
		return `"CRD is not present"`
	}
	return `"CRD version not served"`
}

// crdVersionsOf lists the versions of a CRD manifest as the cluster has
// them, and which are served: apiextensions.k8s.io/v1's spec.versions; a
// v1beta1 CRD's spec.versions or, without them, its spec.version (served,
// as the API server converts it).
func crdVersionsOf(root *value.Value) (names []string, served map[string]bool) {
	served = map[string]bool{}
	if vs := root.At("spec", "versions"); vs != nil && vs.Kind == value.Array && len(vs.Items) > 0 {
		for i := range vs.Items {
			name := vs.Items[i].StringAt("name")
			names = append(names, name)
			if s := vs.Items[i].At("served"); s != nil && s.Kind == value.Bool && s.Bool {
				served[name] = true
			}
		}
		return names, served
	}
	if v := root.StringAt("spec", "version"); v != "" {
		return []string{v}, map[string]bool{v: true}
	}
	return nil, served
}

// quoteList is "a", "b", or "none".
func quoteList(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
