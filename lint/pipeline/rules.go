package pipeline

import "github.com/fbcat/opm/lint/finding"

// Suite is a suite of the pipeline's static tests.
type Suite string

// The suites: the community repositories run common and community, the
// certified ones common and isv.
const (
	SuiteCommon    Suite = "common"
	SuiteCommunity Suite = "community"
	SuiteISV       Suite = "isv"
)

// Rule is one of the pipeline's checks as a lint rule. Each check is a
// function of the operator, of one of its bundle directories (knowing the
// others) or of one catalog its ci.yaml maps.
type Rule struct {
	ID string
	// Check is the pipeline's check (its function's name).
	Check string
	Suite Suite
	// Severity is the rule's default; a finding may have its own (the
	// pipeline's Warn).
	Severity          finding.Severity
	Description, Help string
	Operator          func(*Operator) []finding.Finding
	Bundle            func(*Operator, *Bundle) []finding.Finding
	Catalog           func(*Operator, *Catalog) []finding.Finding
}

// NetworkCheck is a check of the pipeline lint cannot run: it needs the
// network.
type NetworkCheck struct {
	Check, Suite, Why string
}

// Rules are the pipeline's offline checks, in the order they are
// documented.
func Rules() []Rule {
	e, w := finding.Error, finding.Warning
	return []Rule{
		{ID: RuleOperatorName, Check: "check_operator_name", Suite: SuiteCommon, Severity: e, Bundle: operatorName,
			Description: "The operator's name differs between the bundle's annotations.yaml, its CSV's name and the operator's directory, or from the operator's other bundles (an error for the operator's first bundle or a name all others agree on, a warning otherwise)",
			Help:        "Use one name: the package in metadata/annotations.yaml, the CSV's metadata.name before its first dot, and operators/<name>/"},
		{ID: RuleReleaseConfig, Check: "check_bundle_release_config", Suite: SuiteCommon, Severity: e, Bundle: releaseConfig,
			Description: "release-config.yaml is used without file-based catalogs enabled in ci.yaml, names a template ci.yaml does not map, or gives a semver template channels other than Fast, Candidate and Stable",
			Help:        "Map the template in ci.yaml's fbc.catalog_mapping (and enable fbc), or correct the template name or channels"},
		{ID: RuleReleaseConfigSchema, Check: "check_validate_schema_bundle_release_config", Suite: SuiteCommon, Severity: e, Bundle: releaseConfigSchema,
			Description: "release-config.yaml does not comply with the pipeline's schema",
			Help:        "Give catalog_templates, each with template_name and channels (and optionally defaultChannel, replaces, skips, skipRange)"},
		{ID: RuleNetworkPolicy, Check: "check_network_policy_presence", Suite: SuiteCommon, Severity: e, Bundle: networkPolicy,
			Description: "The bundle's manifests hold a NetworkPolicy, which OLM cannot install",
			Help:        "Take the NetworkPolicy out of the bundle; have the operator create it if it needs one"},
		{ID: RuleBundleDirVersion, Check: "check_operator_version_directory_name", Suite: SuiteCommon, Severity: e, Bundle: bundleDirVersion,
			Description: "The bundle directory is not named by its CSV's spec.version",
			Help:        "Name the bundle directory operators/<operator>/<spec.version>"},
		{ID: RuleReplacesAvailable, Check: "check_replaces_availability", Suite: SuiteCommon, Severity: e, Bundle: replacesAvailable,
			Description: "An operator without file-based catalogs: the CSV's spec.replaces names the bundle itself, or a version no bundle directory has (the comparison of the two bundles' OpenShift ranges needs the network)",
			Help:        "Replace the previous version, whose bundle directory must be in the repository"},
		{ID: RuleCISchema, Check: "check_schema_operator_ci_config", Suite: SuiteCommon, Severity: e, Operator: ciSchema,
			Description: "ci.yaml does not comply with the pipeline's schema",
			Help:        "Correct the key named: see the ci.yaml documentation of the operator pipelines"},
		{ID: RuleCatalogMapping, Check: "check_catalog_usage_ci_config", Suite: SuiteCommon, Severity: e, Operator: catalogMapping,
			Description: "ci.yaml's catalog mapping maps a catalog from more than one template",
			Help:        "Render each catalog from one template: take the catalog out of the other mappings"},
		{ID: RuleBundleRegistry, Check: "check_bundle_images_in_fbc", Suite: SuiteCommon, Severity: e, Catalog: bundleRegistry,
			Description: "A bundle image of a mapped catalog is not from a registry the repository's config.yaml allows (allowed_bundle_registries)",
			Help:        "Release the bundle image to an allowed registry and refer to it there"},
		{ID: RuleOLMBundleObject, Check: "check_olm_bundle_object_in_fbc", Suite: SuiteCommon, Severity: e, Catalog: olmBundleObject,
			Description: "A catalog for OpenShift 4.17 or later holds olm.bundle.object properties (an error when its first bundle does, as the pipeline checks; a warning when a later one does)",
			Help:        "Render the catalog with --migrate-level bundle-object-to-csv-metadata (make catalogs)"},
		{ID: RuleRequiredFields, Check: "check_required_fields", Suite: SuiteCommunity, Severity: e, Bundle: requiredFieldsCheck,
			Description: "The CSV lacks a field OperatorHub needs, or has an invalid one (displayName, description, icon, version, maintainers, provider and links: errors; capabilities, categories, containerImage, createdAt, repository, support, description annotation and keywords: warnings)",
			Help:        "Add or correct the CSV field named"},
		{ID: RuleDanglingBundles, Check: "check_dangling_bundles", Suite: SuiteCommunity, Severity: e, Bundle: danglingBundles,
			Description: "An operator without file-based catalogs: a channel of the bundle has bundles that nothing replaces, skips or skipRanges and that are not its head",
			Help:        "Have a later bundle replace, skip or skipRange the dangling one"},
		{ID: RuleMinKubeVersion, Check: "check_api_version_constraints", Suite: SuiteCommunity, Severity: e, Bundle: minKubeVersion,
			Description: "An operator without file-based catalogs: spec.minKubeVersion is above the Kubernetes release of an OpenShift version com.redhat.openshift.versions selects, or is set without that annotation",
			Help:        "Lower minKubeVersion, or raise the lowest OpenShift version of the range"},
		{ID: RuleUsingFBC, Check: "check_using_fbc", Suite: SuiteCommunity, Severity: w, Bundle: usingFBC,
			Description: "An operator without file-based catalogs: a suggestion to move to file-based catalogs",
			Help:        "Move the operator to file-based catalogs (fbc.enabled in ci.yaml, catalog templates)"},
		{ID: RuleOperatorNameUnique, Check: "check_operator_name_unique", Suite: SuiteCommunity, Severity: e, Operator: operatorNameUnique,
			Description: "An operator without file-based catalogs: its bundles' CSVs name more than one operator",
			Help:        "Use one operator name in every CSV's metadata.name"},
		{ID: RuleUpdateGraph, Check: "check_ci_upgrade_graph", Suite: SuiteCommunity, Severity: e, Operator: updateGraph,
			Description: "An operator without file-based catalogs: ci.yaml's updateGraph is missing (a warning: replaces-mode applies) or not replaces-mode or semver-mode",
			Help:        "Set updateGraph: replaces-mode (or semver-mode) in ci.yaml"},
		{ID: RuleUpgradeGraphLoop, Check: "check_upgrade_graph_loop", Suite: SuiteCommunity, Severity: e, Operator: upgradeGraphLoop,
			Description: "An operator without file-based catalogs: a channel's update graph (replaces, skips, olm.skipRange) has a loop",
			Help:        "Break the loop: a bundle must not replace, skip or skipRange a later one"},
		{ID: RulePrunedGraph, Check: "check_pruned_graph", Suite: SuiteISV, Severity: w, Bundle: prunedGraph,
			Description: "An operator without file-based catalogs: the CSV has olm.skipRange but no spec.replaces in a channel of several bundles, which may prune the update graph",
			Help:        "Set spec.replaces beside olm.skipRange"},
		{ID: RuleMarketplaceAnnotation, Check: "check_marketplace_annotation", Suite: SuiteISV, Severity: e, Bundle: marketplaceAnnotation,
			Description: "For the redhat-marketplace organization: the CSV's marketplace remote-workflow or support-workflow annotation is not the operator's marketplace page",
			Help:        "Set the annotation to the value the message gives"},
	}
}

// NetworkChecks are the pipeline's checks that need the network, which
// lint does not run.
func NetworkChecks() []NetworkCheck {
	return []NetworkCheck{
		{"check_replaces_availability (OpenShift indices)", "common", "when the CSV's replaced bundle has another com.redhat.openshift.versions, that every OpenShift index the new bundle goes to also holds the replaced one: the indices of each range come from Pyxis"},
		{"the operator name reservation", "pipeline task", "that no other operator or certification project has taken the operator's package name (Pyxis)"},
	}
}
