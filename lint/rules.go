package lint

import (
	"fmt"
	"slices"
	"strings"
)

// Rule is one kind of check.
type Rule struct {
	// ID names the rule in findings and in --rule and --disable.
	ID string
	// Severity is the rule's default severity; a finding can have its own
	// (openshift-range reports tolerated oddities as warnings).
	Severity Severity
	// Description says in a sentence what the rule finds.
	Description string
	// Help says how to fix what it finds.
	Help string

	// bundle checks a bundle on its own (a bundle directory or image);
	// pkg checks one package of a catalog. Either may be nil.
	bundle func(*bundleCheck) []Finding
	pkg    func(*packageCheck) []Finding
}

// The rule IDs.
const (
	ruleRemovedAPI        = "removed-api"
	ruleOLMv1             = "olmv1-unsupported"
	ruleCRDUpgrade        = "crd-upgrade-unsafe"
	ruleStranded          = "stranded-upgrade"
	ruleOpenShiftRange    = "openshift-range"
	ruleDefaultDeprecated = "default-channel-deprecated"
	ruleDangling          = "dangling-reference"
	ruleCSVFields         = "csv-fields"
)

// table is every rule, in the order they are documented.
var table = []Rule{
	{
		ID: ruleRemovedAPI, Severity: Error,
		Description: "A manifest uses an API version that the Kubernetes release of one of the bundle's target OpenShift versions no longer serves",
		Help:        "Move the manifest to the API version that replaces it, or narrow the bundle's com.redhat.openshift.versions (or set olm.maxOpenShiftVersion) to the OpenShift versions that still serve it",
		bundle:      removedAPIBundle, pkg: removedAPIPackage,
	},
	{
		ID: ruleOLMv1, Severity: Warning,
		Description: "OLM v1 cannot install the bundle (install modes, webhooks, dependencies and other features it does not support)",
		Help:        "See the reason given; drop the feature OLM v1 lacks, or document that the bundle is for OLM v0 only",
		bundle:      olmv1Bundle, pkg: olmv1Package,
	},
	{
		ID: ruleCRDUpgrade, Severity: Error,
		Description: "An upgrade edge changes a CRD in a way OLM v1's CRD upgrade-safety preflight refuses (stored version removed, scope changed, field removed, type changed, new required field, enum values removed, default changed, validation tightened)",
		Help:        "Keep the old schema valid for existing objects: add a new API version (with a conversion) instead of changing a served one, relax the constraint, or make the new field optional",
		bundle:      crdUpgradeBundle, pkg: crdUpgradePackage,
	},
	{
		ID: ruleStranded, Severity: Error,
		Description: "Compared with the baseline, a bundle that could upgrade to its channel head no longer can (or its channel or package is gone)",
		Help:        "Keep an upgrade path: have an entry replace, skip or skipRange the stranded bundle, or restore the channel",
		pkg:         strandedPackage,
	},
	{
		ID: ruleOpenShiftRange, Severity: Error,
		Description: "com.redhat.openshift.versions or olm.maxOpenShiftVersion is malformed, or a bundle is in an OpenShift catalog its range excludes",
		Help:        "Write the range as v4.12 (4.12 and later), =v4.12 (only 4.12) or v4.12-v4.14, and keep each bundle out of the catalogs of versions it does not support",
		bundle:      openshiftRangeBundle, pkg: openshiftRangePackage,
	},
	{
		ID: ruleDefaultDeprecated, Severity: Warning,
		Description: "The package's default channel is deprecated",
		Help:        "Make a channel that is not deprecated the default channel (opm alpha catalog default-channel)",
		pkg:         defaultDeprecatedPackage,
	},
	{
		ID: ruleDangling, Severity: Warning,
		Description: "A channel entry replaces or skips a bundle the package does not have",
		Help:        "Correct the name, or drop the reference if the bundle was never released in this catalog",
		pkg:         danglingPackage,
	},
	{
		ID: ruleCSVFields, Severity: Warning,
		Description: "The CSV lacks or misstates what OperatorHub, the community pipeline and the good-practices validator ask for (alm-examples, capabilities, categories, icon, maintainers, links, provider, description, resource requests)",
		Help:        "Fix the CSV field named; the console shows these fields to users",
		bundle:      csvFieldsBundle, pkg: csvFieldsPackage,
	},
}

// Rules returns every rule, in the order they are documented.
func Rules() []Rule { return slices.Clone(table) }

// selectRules picks the rules to run.
func selectRules(only, disable []string) ([]Rule, error) {
	for _, id := range append(slices.Clone(only), disable...) {
		if !slices.ContainsFunc(table, func(r Rule) bool { return r.ID == id }) {
			return nil, fmt.Errorf("unknown rule %q: the rules are %s", id, strings.Join(ruleIDs(), ", "))
		}
	}
	var out []Rule
	for _, r := range table {
		if (len(only) == 0 || slices.Contains(only, r.ID)) && !slices.Contains(disable, r.ID) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no rule left to run: --disable turns off every rule --rule chose")
	}
	return out, nil
}

// ruleIDs lists the rule IDs.
func ruleIDs() []string {
	ids := make([]string, len(table))
	for i, r := range table {
		ids[i] = r.ID
	}
	return ids
}

// bundleFinding is a finding about a bundle at a place.
func bundleFinding(rule string, sev Severity, b *bundle, file string, line int, format string, args ...any) Finding {
	return Finding{Rule: rule, Severity: sev, Package: b.pkg, Bundle: b.name, File: file, Line: line, Message: fmt.Sprintf(format, args...)}
}
