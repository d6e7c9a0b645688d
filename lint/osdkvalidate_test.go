package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

// The Kubernetes version the pipeline validates a bundle for: that of
// the latest OpenShift release its range reaches (operator-pipelines'
// run_operator_sdk_bundle_validate takes the first, newest, of the
// releases Pyxis lists for the range).
func TestOSDKKubernetesVersion(t *testing.T) {
	for annotation, want := range map[string]string{
		"": "1.34", // every release: the newest known, 4.21
		"  com.redhat.openshift.versions: v4.12\n":       "1.34",
		"  com.redhat.openshift.versions: =v4.8\n":       "1.21",
		"  com.redhat.openshift.versions: v4.10-v4.12\n": "1.25",
		"  com.redhat.openshift.versions: v4.99\n":       "1.112",
		"  com.redhat.openshift.versions: v4.12,v4.13\n": "1.34", // malformed: every release
	} {
		dir := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML(annotation), nil)
		b, err := readBundleDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := osdkKubernetesVersion(b); got != want {
			t.Errorf("%q: %s, want %s", annotation, got, want)
		}
	}
}

// A bundle directory of its own is checked when the rules are chosen;
// each finding names the pipeline's check.
func TestOSDKBundleDir(t *testing.T) {
	dir := bundleDir(t, t.TempDir(), strings.Replace(testCSV(csvOpts{}), "categories: Database", "categories: Databases", 1), annotationsYAML(""), nil)
	if fs := only(run(t, []string{dir}, Options{}).Findings, ruleOSDKOperatorHub); len(fs) != 0 {
		t.Fatalf("run by default outside an operator directory:%s", dump(fs))
	}
	res := run(t, []string{dir}, Options{Rules: []string{ruleOSDKOperatorHub, ruleOSDKOperatorFramework}})
	csv := filepath.Join(dir, "manifests", "etcdoperator.clusterserviceversion.yaml")
	for rule, check := range map[string]string{ruleOSDKOperatorHub: checkOSDKOperatorHub, ruleOSDKOperatorFramework: checkOSDKOperatorFramework} {
		var hit *finding.Finding
		for _, f := range only(res.Findings, rule) {
			if strings.Contains(f.Message, `value "Databases" is not in the set of standard categories`) {
				hit = &f
			}
			if !slices.Contains(f.Checks, check) {
				t.Errorf("%s: check %q, want %q", rule, f.Check, check)
			}
		}
		if hit == nil || hit.Severity != finding.Error || hit.File != csv || hit.Line != lineOf(t, csv, "categories:") {
			t.Errorf("%s: want the category at its line, got %+v in:%s", rule, hit, dump(res.Findings))
		}
	}
}

// When operator-sdk cannot load the bundle it prints no JSON, and the
// pipeline fails each check with its own message.
func TestOSDKStopped(t *testing.T) {
	dir := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML(""), map[string]string{".keep": ""})
	res := run(t, []string{dir}, Options{Rules: []string{ruleOSDKOperatorHub, ruleOSDKOperatorFramework}})
	if len(res.Findings) != 2 {
		t.Fatalf("want one finding a check:%s", dump(res.Findings))
	}
	for _, f := range res.Findings {
		if f.Severity != finding.Error || f.File != dir || !strings.HasPrefix(f.Message, osdkNoJSON+" (operator-sdk stops: bundle manifests dir has hidden file: ") {
			t.Errorf("got %+v", f)
		}
	}
}

// Bundles known only from a catalog are not checked: the pipeline checks
// bundle directories.
func TestOSDKNotOnCatalogs(t *testing.T) {
	root := copyRepo(t)
	if err := os.RemoveAll(filepath.Join(root, "operators", "widget", "1.0.0")); err != nil {
		t.Fatal(err)
	}
	res := run(t, []string{filepath.Join(root, "operators", "widget")}, Options{Rules: []string{ruleOSDKOperatorHub}})
	for _, f := range res.Findings {
		if f.Bundle == "widget-operator.v1.0.0" || strings.HasPrefix(f.File, filepath.Join(root, "catalogs")) {
			t.Errorf("a catalog's bundle is checked: %+v", f)
		}
	}
	if len(res.Findings) == 0 {
		t.Fatal("the bundle directories are not checked")
	}
}
