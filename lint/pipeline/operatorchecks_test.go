package pipeline

import (
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/declcfg"
)

func TestCIConfig(t *testing.T) {
	const ci = "---\nupdateGraph: replaces-mode\nreviewers: []\nfbc:\n  enabled: yes\n  extra: 1\n  catalog_mapping:\n  - template_name: a.yaml\n    type: olm.x\n    catalog_names: [v4.17, v4.18]\n  - template_name: b.yaml\n    type: olm.semver\n    catalog_names: [v4.18, v4.18]\n  - catalog_names: [v4.18]\n    type: olm.semver\n"
	op := operator(t, "etcd", ci)
	expect(t, "schema", ciSchema(op),
		"error operators/etcd/ci.yaml:3: Operator's 'ci.yaml' contains invalid data which does not comply with the schema: [] should be non-empty",
		"error operators/etcd/ci.yaml:6: Operator's 'ci.yaml' contains invalid data which does not comply with the schema: Additional properties are not allowed ('extra' was unexpected)",
		"error operators/etcd/ci.yaml:9: Operator's 'ci.yaml' contains invalid data which does not comply with the schema: 'olm.x' is not one of ['olm.template.basic', 'olm.semver']",
		"error operators/etcd/ci.yaml:13: Operator's 'ci.yaml' contains invalid data which does not comply with the schema: ['v4.18', 'v4.18'] has non-unique elements",
		"error operators/etcd/ci.yaml:14: Operator's 'ci.yaml' contains invalid data which does not comply with the schema: 'template_name' is a required property")
	expect(t, "one template per catalog", catalogMapping(op),
		"error operators/etcd/ci.yaml:13: Operator's 'ci.yaml' contains multiple templates '['a.yaml', 'b.yaml', 'b.yaml', 'None']' for the same catalog 'v4.18'.")
	expect(t, "update graph of an FBC operator", updateGraph(op))
	expect(t, "no updateGraph", updateGraph(operator(t, "etcd", "reviewers: [a]\n")),
		"warning operators/etcd/ci.yaml:1: The 'updateGraph' option is missing in ci.yaml. The default upgrade graph 'replaces-mode' will be used.")
	expect(t, "bad updateGraph", updateGraph(operator(t, "etcd", "updateGraph: other\n")),
		"error operators/etcd/ci.yaml:1: The 'updateGraph' option in ci.yaml must be one of ['replaces-mode', 'semver-mode']")
	expect(t, "an empty ci.yaml", ciSchema(operator(t, "etcd", "# nothing\n")),
		"error operators/etcd/ci.yaml:1: Operator's 'ci.yaml' contains invalid data which does not comply with the schema: None is not of type 'object'")
}

// graphBundle is a bundle directory of etcd in channels, replacing what
// replaces names (none for "").
func graphBundle(t *testing.T, version, channels, replaces string, extra ...string) *Bundle {
	csv := "metadata:\n  name: etcd.v" + version + "\n  annotations: {" + strings.Join(extra, ", ") + "}\nspec:\n  version: " + version + "\n"
	if replaces != "" {
		csv += "  replaces: " + replaces + "\n"
	}
	return bundle(t, "etcd", version, csv, pkgKey+"etcd\n  operators.operatorframework.io.bundle.channels.v1: "+channels+"\n")
}

func TestGraphChecks(t *testing.T) {
	a := graphBundle(t, "1.0.0", "stable", "")
	b := graphBundle(t, "1.1.0", "stable,beta", "etcd.v1.0.0")
	c := graphBundle(t, "1.2.0", "stable", "", "'olm.skipRange': '>=1.0.0 <1.2.0'")
	d := graphBundle(t, "1.3.0", "beta", "")
	op := operator(t, "etcd", "updateGraph: replaces-mode\n", a, b, c, d)
	expect(t, "dangling", danglingBundles(op, d),
		"error operators/etcd/1.3.0/metadata/annotations.yaml:3: Channel beta has dangling bundles: {Bundle(etcd/1.1.0)}")
	expect(t, "not dangling", danglingBundles(op, a))
	expect(t, "no loop", upgradeGraphLoop(op))
	loop := graphBundle(t, "1.0.0", "stable", "etcd.v1.1.0")
	expect(t, "loop", upgradeGraphLoop(operator(t, "etcd", "", loop, b)),
		"error operators/etcd/1.0.0/manifests/csv.yaml:6: Upgrade graph loop detected: Bundle(etcd/1.1.0) -> Bundle(etcd/1.0.0) (channel stable)")
	expect(t, "semver-mode", danglingBundles(operator(t, "etcd", "updateGraph: semver-mode\n", a, d), a))
	expect(t, "unknown mode", danglingBundles(operator(t, "etcd", "updateGraph: x\n", a), a),
		"error operators/etcd/1.0.0/metadata/annotations.yaml:3: Operator(etcd): unsupported updateGraph value: x")
	expect(t, "FBC", danglingBundles(operator(t, "etcd", "fbc: {enabled: true}\n", a, b, c, d), d))

	self := graphBundle(t, "1.1.0", "stable", "etcd.v1.1.0")
	expect(t, "replaces itself", replacesAvailable(operator(t, "etcd", "", a, self), self),
		"error operators/etcd/1.1.0/manifests/csv.yaml:6: Bundle(etcd/1.1.0) attempts to replace itself. Please set 'spec.replaces' field to a different version in the CSV.")
	gone := graphBundle(t, "1.1.0", "stable", "etcd.v0.9.0")
	expect(t, "replaces a missing version", replacesAvailable(operator(t, "etcd", "", a, gone), gone),
		"error operators/etcd/1.1.0/manifests/csv.yaml:6: Bundle(etcd/1.1.0) attempts to replace version '0.9.0' which does not exist in the submitted PR branch. Available versions: ['1.0.0', '1.1.0']. If you are submitting...")
	expect(t, "replaces an existing version", replacesAvailable(op, b))

	expect(t, "using FBC, first", usingFBC(operator(t, "etcd", "reviewers: [a]\n", a), a), "warning operators/etcd/ci.yaml:1: "+nonFBCWarning)
	expect(t, "using FBC, others", usingFBC(op, a), "warning operators/etcd/ci.yaml:1: "+nonFBCSuggestion)

	// The certified suite's pruned graph: a skipRange without replaces.
	expect(t, "pruned graph", prunedGraph(op, c), "warning operators/etcd/1.2.0/manifests/csv.yaml:3: "+prunedGraphMessage)
	expect(t, "not pruned", prunedGraph(op, b))
}

func TestMinKubeVersion(t *testing.T) {
	for _, c := range []struct{ min, ocp, want string }{
		{"1.25.0", "v4.12", ""},
		{"1.26.0", "v4.12", "error csv.yaml:5: OCP version(s) 4.12 conflict with minKubeVersion=1.26.0 (com.redhat.openshift.versions \"v4.12\")"},
		{"1.26", "v4.11-v4.13", "error csv.yaml:5: OCP version(s) 4.11,4.12 conflict with minKubeVersion=1.26.0 (com.redhat.openshift.versions \"v4.11-v4.13\")"},
		{"1.31.0", "v4.18", ""}, // the pipeline knows no 4.18
		{"1.31.0", "=v4.20", "error csv.yaml:5: OCP version(s) 4.17 conflict with minKubeVersion=1.31.0 (com.redhat.openshift.versions \"=v4.20\")"},
		{"1.14.0", "v4.5,v4.6", ""},
		{"1.19.0", "v4.5,v4.7", "warning annotations.yaml:3: Comma separated list of versions in com.redhat.openshift.versions is only supported for v4.5 and v4.6\n" +
			"error csv.yaml:5: OCP version(s) 4.5 conflict with minKubeVersion=1.19.0 (com.redhat.openshift.versions \"v4.5,v4.7\")"},
		{"1.14.0", "=v4.1", "error csv.yaml:5: OCP version(s) 4.1 conflict with minKubeVersion=1.14.0 (com.redhat.openshift.versions \"=v4.1\")"},
		{"v1.25.0", "v4.12", "error csv.yaml:5: Invalid minKubeVersion: v1.25.0 is not valid SemVer string"},
		{"1.25.0", "v4.x", "error annotations.yaml:3: Invalid com.redhat.openshift.versions: 4.x is not valid SemVer string"},
		{"1.25.0", "", "error csv.yaml:5: minKubeVersion is set to 1.25.0 but com.redhat.openshift.versions is not set (operators/etcd/1.0.0/metadata/annotations.yaml)"},
	} {
		b := graphBundle(t, "1.0.0", "stable", "")
		b.CSV = tree(t, "metadata:\n  name: etcd.v1.0.0\nspec:\n  version: 1.0.0\n  minKubeVersion: "+c.min+"\n")
		if c.ocp != "" {
			b.Annotations["com.redhat.openshift.versions"] = &tree(t, "\n\nv: "+c.ocp+"\n").Fields[0].Value
		}
		var got []string
		for _, f := range minKubeVersion(operator(t, "etcd", ""), b) {
			got = append(got, string(f.Severity)+" "+f.Location()[strings.LastIndex(f.Location(), "/")+1:]+": "+f.Message)
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("minKubeVersion %s, range %q:\n%s\nwant:\n%s", c.min, c.ocp, strings.Join(got, "\n"), c.want)
		}
	}
}

func TestMappedCatalogs(t *testing.T) {
	obj := declcfg.Property{Type: declcfg.PropertyBundleObject}
	bundles := []*declcfg.Bundle{
		{Name: "etcd.v1", Package: "etcd", Image: "quay.io/ok/etcd:1", Pos: declcfg.Pos{File: "c.yaml", Line: 10}, NameLine: 11},
		{Name: "etcd.v2", Package: "etcd", Image: "docker.io/x/etcd:2", Pos: declcfg.Pos{File: "c.yaml", Line: 20}, NameLine: 21, Properties: []declcfg.Property{obj}},
	}
	op := operator(t, "etcd", "")
	expect(t, "no allowed registries", bundleRegistry(op, &Catalog{Name: "v4.17", Bundles: bundles}))
	op.Repo = config(t, "config.yaml", "allowed_bundle_registries: [quay.io/ok/]\n")
	expect(t, "registries", bundleRegistry(op, &Catalog{Name: "v4.17", Bundles: bundles}),
		"error c.yaml:21: Invalid bundle image found in the catalog: docker.io/x/etcd:2. Only these registries are allowed for bundle images: quay.io/ok/ (config.yaml).")
	expect(t, "a later bundle object", olmBundleObject(op, &Catalog{Name: "v4.17", Bundles: bundles}),
		"warning c.yaml:21: Bundle object found in the catalog uses 'olm.bundle.object': the pipeline passes it...")
	expect(t, "before 4.17", olmBundleObject(op, &Catalog{Name: "v4.16", Bundles: bundles}))
	first := slices.Clone(bundles)
	first[0] = &declcfg.Bundle{Name: "etcd.v1", Package: "etcd", Pos: declcfg.Pos{File: "c.yaml", Line: 10}, Properties: []declcfg.Property{obj}}
	expect(t, "the first bundle's object", olmBundleObject(op, &Catalog{Name: "v5.0", Bundles: first}),
		"error c.yaml:10: Bundle object found in the catalog uses 'olm.bundle.object' (1 more of its bundles carry olm.bundle.object). This is not allowed for catalogs with version `>= 4.17`...")
}

func TestMarketplace(t *testing.T) {
	b := bundle(t, "etcd", "1.0.0", "metadata:\n  name: etcd.v1.0.0\n  annotations:\n    marketplace.openshift.io/remote-workflow: https://marketplace.redhat.com/en-us/operators/etcd/pricing?utm_source=openshift_console\n", pkgKey+"etcd\n")
	op := operator(t, "etcd", "")
	expect(t, "not the marketplace", marketplaceAnnotation(op, b))
	op.Repo = config(t, "config.yaml", "organization: redhat-marketplace\n")
	expect(t, "marketplace", marketplaceAnnotation(op, b),
		"error operators/etcd/1.0.0/manifests/csv.yaml:2: CSV marketplace.openshift.io/support-workflow annotation is set to 'None'. Expected value is https://marketplace.redhat.com/en-us/operators/etcd/support?utm_source=openshift_console. To fix this issue define the annotation in 'manifests/*.clusterserviceversion.yaml' file.")
}

func TestRulesAndValues(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		n := 0
		for _, f := range []bool{r.Operator != nil, r.Bundle != nil, r.Catalog != nil} {
			if f {
				n++
			}
		}
		if seen[r.ID] || seen[r.Check] || !strings.HasPrefix(r.Check, "check_") || n != 1 || r.Description == "" || r.Help == "" || r.Suite == "" {
			t.Errorf("rule %+v", r)
		}
		seen[r.ID], seen[r.Check] = true, true
	}
	for yaml, want := range map[string]string{
		"a: 1": "1", "a: 1.0": "1.0", "a: yes": "True", "a: ~": "None", "a: \"it's\"": `"it's"`,
		"a: [x, 2, {k: v}]": "['x', 2, {'k': 'v'}]", "a: 1e21": "1e+21", "a: 'a\\b'": `'a\\b'`,
	} {
		if got := pyRepr(tree(t, yaml).At("a")); got != want {
			t.Errorf("repr of %s: %s, want %s", yaml, got, want)
		}
	}
}
