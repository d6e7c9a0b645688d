package lint

import (
	"slices"

	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/option"
)

// Rule is one kind of check.
type Rule struct {
	// ID names the rule in findings, in Options.Rules and Disable, and
	// in the configuration.
	ID string
	// Severity is the rule's default severity; a finding can have its own
	// (openshift-range reports tolerated oddities as warnings).
	Severity finding.Severity
	// Description says in a sentence what the rule finds.
	Description string
	// Help says how to fix what it finds.
	Help string
	// Check names the hosted pipeline's check the rule stands for
	// (operator-pipelines' static tests, such as check_operator_name);
	// "" for lint's own rules. Such a rule runs in the profiles that
	// have the check (see Profile).
	Check string

	// bundle checks a bundle on its own (a bundle directory or image);
	// pkg checks one package of a catalog. Either may be nil.
	bundle func(*bundleCheck) []finding.Finding
	pkg    func(*packageCheck) []finding.Finding
	// The pipeline's checks run on operator directories: operator checks
	// the operator as a whole, inOperator each of its bundle directories
	// knowing the others, and mapped each catalog its ci.yaml maps.
	operator   func(*operatorCheck) []finding.Finding
	inOperator func(*operatorCheck, *bundle) []finding.Finding
	mapped     func(*operatorCheck, *catalog) []finding.Finding
	// profiles are the profiles that run the rule; nil for every one
	// (lint's own rules).
	profiles []config.Profile
	// breaksInstall says that what the rule finds breaks an install or an
	// upgrade from a catalog: its errors stand on history too (see
	// history.go); other rules' are warnings there.
	breaksInstall bool
}

// ownRules are lint's own rules.
var ownRules = []Rule{
	{
		ID: ruleRemovedAPI, Severity: finding.Error,
		Description: "A manifest uses an API version that the Kubernetes release of one of the bundle's target OpenShift versions no longer serves",
		Help:        "Move the manifest to the API version that replaces it, or narrow the bundle's com.redhat.openshift.versions (or set olm.maxOpenShiftVersion) to the OpenShift versions that still serve it",
		bundle:      removedAPIBundle, pkg: removedAPIPackage,
		breaksInstall: true,
	},
	{
		ID: ruleOLMv1, Severity: finding.Warning, // breaks installs when OLM v1 installs: see linter.breaksInstall
		Description: "OLM v1 cannot install the bundle (install modes, webhooks, dependencies and other features it does not support); an error when the target is OLM v1",
		Help:        "See the reason given; drop the feature OLM v1 lacks, or document that the bundle is for OLM v0 only",
		bundle:      olmv1Bundle, pkg: olmv1Package,
	},
	{
		ID: ruleCRDUpgrade, Severity: finding.Error,
		Description: "An upgrade edge changes a CRD in a way that breaks stored objects: a stored version or the scope changes (an error: OLM v0 refuses it too), or a change only OLM v1's CRD upgrade-safety preflight refuses (field removed, type changed, new required field, enum values removed, default changed, validation tightened: a warning unless the target is OLM v1)",
		Help:        "Keep the old schema valid for existing objects: add a new API version (with a conversion) instead of changing a served one, relax the constraint, or make the new field optional",
		bundle:      crdUpgradeBundle, pkg: crdUpgradePackage,
		breaksInstall: true,
	},
	{
		ID: ruleCSVCRDs, Severity: finding.Error,
		Description: "The CSV owns a CRD version its bundle's CRD manifests do not define or serve (or requires one of a CRD the bundle carries): OLM v0 leaves the CSV pending (requirement not met) and OLM v1 cannot read the bundle",
		Help:        "Name in spec.customresourcedefinitions the versions the bundle's CRDs serve: when a CRD version is renamed or stops being served, update the CSV's owned entry (and alm-examples) with it",
		bundle:      csvCRDsBundle, pkg: csvCRDsPackage,
		breaksInstall: true,
	},
	{
		ID: ruleStranded, Severity: finding.Error,
		Description:   "Compared with the baseline, a bundle that could upgrade to its channel head no longer can (or its channel or package is gone)",
		Help:          "Keep an upgrade path: have an entry replace, skip or skipRange the stranded bundle, or restore the channel",
		pkg:           strandedPackage,
		breaksInstall: true,
	},
	{
		ID: ruleOpenShiftRange, Severity: finding.Error,
		Description: "com.redhat.openshift.versions or olm.maxOpenShiftVersion is malformed, or a bundle is in OpenShift catalogs its range excludes (a warning: OLM installs by the catalog, not by that annotation; an error when the range excludes every catalog the bundle is in) or of versions after its olm.maxOpenShiftVersion, which OLM enforces",
		Help:        "Write the range as v4.12 (4.12 and later), =v4.12 (only 4.12) or v4.12-v4.14, and keep each bundle out of the templates of catalogs of versions it does not support, or widen its range",
		bundle:      openshiftRangeBundle, pkg: openshiftRangePackage,
	},
	{
		ID: ruleDefaultDeprecated, Severity: finding.Warning,
		Description: "The package's default channel is deprecated",
		Help:        "Make a channel that is not deprecated the default channel (opm alpha catalog default-channel)",
		pkg:         defaultDeprecatedPackage,
	},
	{
		ID: ruleDangling, Severity: finding.Warning,
		Description: "A channel entry replaces a bundle the package does not have (a warning), or skips one (an info: skipping a bundle that was removed is ordinary)",
		Help:        "Correct the name, or drop the reference if the bundle was never released in this catalog",
		pkg:         danglingPackage,
	},
	{
		ID: ruleCSVFields, Severity: finding.Warning,
		Description: "The CSV lacks or misstates what OperatorHub, the community pipeline and the good-practices validator ask for (alm-examples, capabilities, categories, icon, maintainers, links, provider, description, resource requests)",
		Help:        "Fix the CSV field named; the console shows these fields to users",
		bundle:      csvFieldsBundle, pkg: csvFieldsPackage,
	},
	{
		ID: ruleReleaseCheck, Severity: finding.Error,
		Description: "A bundle directory's release-config.yaml has what opm alpha catalog release refuses or warns of (a channel that nearly matches an existing or conventional one, a template ci.yaml does not map, replaces or skips naming no bundle of the package, a bad skipRange), or an unknown key (an error at the top level, which the pipeline's schema refuses; a warning inside a catalog_templates entry, which it lets pass and its bot ignores)",
		Help:        "Correct the key or value named (the message says what was likely meant); opm alpha catalog release --dry-run on the bundle directory says the same",
		inOperator:  releaseCheckBundle,
	},
	{
		ID: ruleCatalogInvalid, Severity: finding.Error,
		Description:   "opm validate rejects the catalog (an empty channel, an upgrade graph without one head, a malformed property, ...)",
		Help:          "Fix what the message says; opm validate on the catalog reports the same problems",
		breaksInstall: true,
	},
}

// osdkRules are the pipeline's two operator-sdk checks, run through
// operator-framework/api's validators (see osdkvalidate.go).
var osdkRules = []Rule{
	{
		ID: ruleOSDKOperatorHub, Severity: finding.Error,
		Description: "The hosted pipeline's check_osdk_bundle_validate_operatorhub: operator-sdk bundle validate --select-optional name=operatorhub, for the Kubernetes version of the latest OpenShift release the bundle's range reaches; in the community profile",
		Help:        "Fix what operator-sdk's message says; operator-sdk bundle validate DIR --select-optional name=operatorhub --optional-values=k8s-version=1.N prints the same",
		bundle:      osdkOperatorHubBundle, Check: checkOSDKOperatorHub, profiles: inCommunity,
	},
	{
		ID: ruleOSDKOperatorFramework, Severity: finding.Error,
		Description: "The hosted pipeline's check_osdk_bundle_validate_operator_framework: operator-sdk bundle validate --select-optional suite=operatorframework, for the Kubernetes version of the latest OpenShift release the bundle's range reaches; in the community profile",
		Help:        "Fix what operator-sdk's message says; operator-sdk bundle validate DIR --select-optional suite=operatorframework --optional-values=k8s-version=1.N prints the same",
		bundle:      osdkOperatorFrameworkBundle, Check: checkOSDKOperatorFramework, profiles: inCommunity,
	},
}

// table is every rule, in the order they are documented: lint's own,
// then the hosted pipeline's checks (osdkRules, pipelineRules).
var table = slices.Concat(ownRules, osdkRules, pipelineRules)

// ErrNoRules is the error of a choice of rules that leaves none to run.
var ErrNoRules error = option.Errorf(option.Conflict, "no rule left to run: %s turns off every rule %s chose", optionDisable, optionRules)

// Rules returns every rule, in the order they are documented.
func Rules() []Rule { return slices.Clone(table) }

// selectRules picks the rules to run: those of only (else every rule of
// the profile) but those of disable and, unless only names them, those
// the configuration turns off.
func selectRules(only, disable []string, cfg *config.Config, profile config.Profile) ([]Rule, error) {
	var out []Rule
	for _, r := range table {
		switch {
		case len(only) > 0 && !slices.Contains(only, r.ID), slices.Contains(disable, r.ID):
		case len(only) == 0 && (cfg.Off(r.ID) || !r.inProfile(profile)):
		default:
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, ErrNoRules
	}
	return out, nil
}

// knownRule reports whether id names a rule.
func knownRule(id string) bool {
	_, ok := ruleByID(id)
	return ok
}

// ruleByID is the rule of that ID.
func ruleByID(id string) (Rule, bool) {
	i := slices.IndexFunc(table, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return table[i], true
}

// rank orders rules for a problem several find (finding.Combine): lint's
// own first (the rule that names the cause), then the pipeline's checks,
// then operator-sdk's suites, whose words are the validators'.
func rank(id string) int {
	i := slices.IndexFunc(table, func(r Rule) bool { return r.ID == id })
	if slices.ContainsFunc(osdkRules, func(r Rule) bool { return r.ID == id }) {
		i += len(table)
	}
	return i
}

// RuleIDs lists the rule IDs, in the order of Rules.
func RuleIDs() []string {
	ids := make([]string, len(table))
	for i, r := range table {
		ids[i] = r.ID
	}
	return ids
}
