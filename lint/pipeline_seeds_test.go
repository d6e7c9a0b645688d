package lint

import (
	"encoding/base64"
	"os"
	"slices"
	"strings"
)

// The releases of the conformance data these seeds change.
const (
	konflux   = "01-konflux-0.1.9"
	awsNeuron = "02-aws-neuron-operator-1.1.4"
	odh       = "03-opendatahub-operator-3.2.0"
	layer7    = "04-layer7-operator-1.2.2"
)

// layer7RC is layer7-operator's new release-config.yaml (a basic
// template's channel preview, v4.16.yaml first).
const layer7RC = "operators/layer7-operator/1.2.2/release-config.yaml"

// awsCI is aws-neuron-operator's ci.yaml.
const awsCI = "operators/aws-neuron-operator/ci.yaml"

// notFBC makes an operator not use FBC (its catalogs are then not
// linted), and drops the new bundle's release-config.yaml, which such an
// operator must not have.
func notFBC(r *replay) {
	r.edit(awsCI, "enabled: true", "enabled: false")
	if err := os.Remove(r.file(r.dir + "/release-config.yaml")); err != nil {
		r.t.Fatal(err)
	}
}

// olderBundle adds a bundle directory 1.1.3 of aws-neuron-operator, the
// new one with its CSV's name and version changed, replacing what
// replaces gives ("" for nothing).
func olderBundle(r *replay, csvName, replaces string) {
	copyTree(r.t, r.file(r.dir), r.file("operators/aws-neuron-operator/1.1.3"))
	csv := strings.Replace(r.csv(), "1.1.4", "1.1.3", 1)
	r.edit(csv, "name: aws-neuron-operator.v1.1.4", "name: "+csvName)
	r.edit(csv, "version: 1.1.4", "version: 1.1.3")
	if replaces != "" {
		r.edit(csv, "\n  displayName: Aws Neuron Operator\n", "\n  displayName: Aws Neuron Operator\n  replaces: "+replaces+"\n")
	}
}

// pipelineSeeds are the merged releases and the seeded changes, with the
// pipeline's verdicts.
func pipelineSeeds() []seed { return slices.Concat(fbcSeeds(), releaseConfigSeeds(), notFBCSeeds()) }

// fbcSeeds are the merged releases and the seeded changes of operators
// using FBC.
func fbcSeeds() []seed {
	spec := "\n  displayName: Aws Neuron Operator\n"
	return []seed{
		// The merged releases pass. (konflux's bundle is the first bundle
		// directory of operators/konflux, whose name is not its package's:
		// the pipeline fails this replay with check_operator_name; lint
		// counts the bundles its catalogs hold, as the real repository's
		// bundle directories would be, and warns: see operatorname.go.)
		{name: "real-konflux", release: konflux},
		{name: "real-aws-neuron", release: awsNeuron},
		{name: "real-opendatahub", release: odh},
		{name: "real-layer7", release: layer7},

		{name: "operator-name", release: awsNeuron, checks: []string{"check_operator_name"}, at: "1.1.4/metadata/annotations.yaml:",
			after: func(r *replay) {
				r.edit(r.dir+"/metadata/annotations.yaml", "package.v1: aws-neuron-operator", "package.v1: aws-neuron")
			}},
		// operator-sdk refuses a NetworkPolicy too: it is not a kind the
		// registry+v1 format allows (operator-framework/api's bundle
		// validator), in both suites.
		{name: "network-policy", release: awsNeuron, checks: []string{"check_network_policy_presence", "check_osdk_bundle_validate_operatorhub", "check_osdk_bundle_validate_operator_framework"}, at: "manifests/zz-netpol.yaml:1",
			after: func(r *replay) {
				r.write(r.dir+"/manifests/zz-netpol.yaml", "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny\nspec:\n  podSelector: {}\n")
			}},
		// The release a bundle directory 0.0.4 whose CSV says otherwise.
		{name: "bundle-dir-version", release: awsNeuron, dirName: "0.0.4", checks: []string{"check_operator_version_directory_name"}, at: "0.0.4/manifests/aws-neuron-operator.clusterserviceversion.yaml:"},
		// the CSV validator, in both operator-sdk suites, requires
		// spec.displayName too
		{name: "required-fields", release: awsNeuron, checks: []string{"check_required_fields", "check_osdk_bundle_validate_operatorhub", "check_osdk_bundle_validate_operator_framework"}, at: "clusterserviceversion.yaml:",
			after: func(r *replay) { r.edit(r.csv(), spec, "\n") }},
		// The new bundle's CRD renames the version it stores and the CSV
		// still owns: one problem, one finding, of crd-upgrade-unsafe (OLM
		// v0 refuses to remove a stored version), naming csv-crd-mismatch
		// and both operator-sdk checks, which the pipeline fails.
		{name: "stored-version-renamed", release: odh, own: []string{ruleCRDUpgrade, ruleCSVCRDs},
			checks: []string{"check_osdk_bundle_validate_operatorhub", "check_osdk_bundle_validate_operator_framework"}, at: "manifests/components.platform.opendatahub.io_dashboards.yaml:",
			after: func(r *replay) {
				r.edit(r.dir+"/manifests/components.platform.opendatahub.io_dashboards.yaml", "    name: v1alpha1\n    schema:", "    name: v9zz1\n    schema:")
			}},
		// Without a baseline the released bundles are history: the
		// pipeline's checks of a pull request's own bundle, operator-sdk's
		// among them, do not fail what the catalogs already hold (the new
		// bundle of the release is in them).
		{name: "released-history", release: awsNeuron, noBaseline: true,
			after: func(r *replay) { r.edit(r.csv(), spec, "\n") }},
		{name: "ci-schema", release: awsNeuron, checks: []string{"check_schema_operator_ci_config"}, at: "ci.yaml:18",
			after: func(r *replay) { r.edit(awsCI, "reviewers:", "updateGraph: bogus-mode\nreviewers:") }},
		{name: "catalog-mapping", release: awsNeuron, checks: []string{"check_catalog_usage_ci_config"}, at: "ci.yaml:",
			after: func(r *replay) { r.edit(awsCI, "        - v4.20\n", "        - v4.20\n        - v4.21\n") }},
		{name: "bundle-registry", release: awsNeuron, checks: []string{"check_bundle_images_in_fbc"}, at: "catalogs/v4.20/aws-neuron-operator/catalog.yaml:",
			before: func(r *replay) {
				r.write("config.yaml", "allowed_bundle_registries:\n  - quay.io/community-operator-pipeline-prod/\n")
			},
			after: func(r *replay) {
				r.edit("catalogs/v4.20/aws-neuron-operator/catalog.yaml", "image: quay.io/community-operator-pipeline-prod/aws-neuron-operator:1.1.4", "image: docker.io/example/aws-neuron-operator:1.1.4")
			}},
		{name: "olm-bundle-object", release: awsNeuron, checks: []string{"check_olm_bundle_object_in_fbc"}, at: "catalogs/v4.20/aws-neuron-operator/catalog.yaml:",
			after: func(r *replay) {
				obj := base64.StdEncoding.EncodeToString([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"zz"}}`))
				r.edit("catalogs/v4.20/aws-neuron-operator/catalog.yaml", "properties:\n", "properties:\n- type: olm.bundle.object\n  value:\n    data: "+obj+"\n")
			}},
	}
}

// releaseConfigSeeds are the seeded mistakes of a new bundle's
// release-config.yaml.
func releaseConfigSeeds() []seed {
	return []seed{
		{name: "release-config-template", release: awsNeuron, checks: []string{"check_bundle_release_config"}, own: []string{ruleReleaseCheck}, at: "1.1.4/release-config.yaml:8",
			after: func(r *replay) { r.edit(r.dir+"/release-config.yaml", "v4.21.yaml", "v4.22.yaml") }},
		// (the pipeline fails this replay with check_operator_name too, as
		// it fails the merged release's)
		{name: "release-config-semver", release: konflux, checks: []string{"check_bundle_release_config"}, own: []string{ruleReleaseCheck}, at: "0.1.9/release-config.yaml:4",
			after: func(r *replay) { r.edit(r.dir+"/release-config.yaml", "[Stable]", "[alpha]") }},
		{name: "release-config-schema", release: awsNeuron, checks: []string{"check_validate_schema_bundle_release_config"}, own: []string{ruleReleaseCheck}, at: "1.1.4/release-config.yaml:1",
			after: func(r *replay) {
				r.edit(r.dir+"/release-config.yaml", "catalog_templates:", "automerge: true\ncatalog_templates:")
			}},
		// release-config.yaml's slips that release refuses or warns of and
		// the pipeline lets pass: a channel with two letters swapped, an
		// unknown key in an entry (replace for replaces: the bot would
		// render no replaces), a template name with two digits swapped
		// (which the pipeline's check of ci.yaml fails too: one finding)
		{name: "release-config-channel-swap", release: layer7, own: []string{ruleReleaseCheck}, at: "1.2.2/release-config.yaml:4",
			after: func(r *replay) { r.edit(layer7RC, "channels: [preview]", "channels: [perview]") }},
		{name: "release-config-replace", release: layer7, warns: "1.2.2/release-config.yaml:5",
			after: func(r *replay) { r.edit(layer7RC, "    replaces: layer7", "    replace: layer7") }},
		{name: "release-config-entry-key", release: layer7, warns: "1.2.2/release-config.yaml:4",
			after: func(r *replay) {
				r.edit(layer7RC, "    channels: [preview]\n", "    default_channel: preview\n    channels: [preview]\n")
			}},
		{name: "release-config-template-swap", release: layer7, checks: []string{"check_bundle_release_config"}, own: []string{ruleReleaseCheck}, at: "1.2.2/release-config.yaml:3",
			after: func(r *replay) { r.edit(layer7RC, "template_name: v4.16.yaml", "template_name: v4.61.yaml") }},
	}
}

// notFBCSeeds are the seeded changes of an operator not using FBC.
func notFBCSeeds() []seed {
	spec := "\n  displayName: Aws Neuron Operator\n"
	return []seed{
		// A bundle that replaces itself is a loop of its channel's graph too.
		{name: "replaces-itself", release: awsNeuron, checks: []string{"check_replaces_availability", "check_upgrade_graph_loop"}, at: "clusterserviceversion.yaml:43",
			after: func(r *replay) {
				notFBC(r)
				r.edit(r.csv(), spec, spec+"  replaces: aws-neuron-operator.v1.1.4\n")
			}},
		{name: "replaces-missing", release: awsNeuron, checks: []string{"check_replaces_availability"}, at: "clusterserviceversion.yaml:43",
			after: func(r *replay) {
				notFBC(r)
				r.edit(r.csv(), spec, spec+"  replaces: aws-neuron-operator.v1.1.2\n")
			}},
		{name: "min-kube-version", release: awsNeuron, checks: []string{"check_api_version_constraints"}, at: "clusterserviceversion.yaml:43",
			after: func(r *replay) {
				notFBC(r)
				r.edit(r.csv(), spec, spec+"  minKubeVersion: 1.31.0\n")
				r.edit(r.dir+"/metadata/annotations.yaml", "annotations:\n", "annotations:\n  com.redhat.openshift.versions: v4.12\n")
			}},
		{name: "dangling-bundles", release: awsNeuron, checks: []string{"check_dangling_bundles"}, at: "1.1.4/metadata/annotations.yaml:",
			after: func(r *replay) {
				notFBC(r)
				olderBundle(r, "aws-neuron-operator.v1.1.3", "")
				r.edit(r.dir+"/metadata/annotations.yaml", "channels.v1: alpha", "channels.v1: alpha,beta")
			}},
		{name: "upgrade-graph-loop", release: awsNeuron, checks: []string{"check_upgrade_graph_loop"}, at: "clusterserviceversion.yaml:",
			after: func(r *replay) {
				notFBC(r)
				olderBundle(r, "aws-neuron-operator.v1.1.3", "aws-neuron-operator.v1.1.4")
				r.edit(r.csv(), spec, spec+"  replaces: aws-neuron-operator.v1.1.3\n")
			}},
		// The other bundle's CSV names another operator: the names differ
		// across bundles too, and, the pipeline ordering bundles by
		// operator name first, the other name's 1.1.3 is the channel's
		// head and 1.1.4, which nothing replaces, dangles.
		{name: "operator-name-unique", release: awsNeuron, checks: []string{"check_operator_name", "check_operator_name_unique", "check_dangling_bundles"}, at: "operators/aws-neuron-operator",
			after: func(r *replay) {
				notFBC(r)
				olderBundle(r, "neuron-operator.v1.1.3", "")
				r.edit(r.csv(), spec, spec+"  replaces: neuron-operator.v1.1.3\n")
			}},
		{name: "update-graph-mode", release: awsNeuron, checks: []string{"check_ci_upgrade_graph", "check_schema_operator_ci_config", "check_dangling_bundles", "check_upgrade_graph_loop"}, at: "ci.yaml:",
			after: func(r *replay) {
				notFBC(r)
				r.edit(awsCI, "reviewers:", "updateGraph: bogus-mode\nreviewers:")
			}},
	}
}
