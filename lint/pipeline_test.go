package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/linttest"
	"github.com/fbcat/opm/lint/pipeline"
)

// checks lists the pipeline checks of findings, each once, sorted.
func checks(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Check != "" && !slices.Contains(out, f.Check) {
			out = append(out, f.Check)
		}
	}
	slices.Sort(out)
	return out
}

// The profile: the community checks run on operator directories by
// default, each finding naming its check; none turns them off; certified
// runs the common and isv suites.
func TestPipelineProfile(t *testing.T) {
	root := copyRepo(t)
	widget := filepath.Join(root, "operators", "widget")
	got := checks(run(t, []string{widget}, Options{}).Findings)
	if want := []string{"check_operator_name", "check_osdk_bundle_validate_operator_framework", "check_osdk_bundle_validate_operatorhub", "check_required_fields"}; !slices.Equal(got, want) {
		t.Errorf("community checks of widget: %v, want %v", got, want)
	}
	for _, f := range run(t, []string{widget}, Options{}).Findings {
		pipelines := f.Rule == pipeline.RuleOperatorName || f.Rule == pipeline.RuleRequiredFields || f.Rule == ruleOSDKOperatorHub || f.Rule == ruleOSDKOperatorFramework
		if (f.Check != "") != pipelines {
			t.Errorf("check %q of a finding of %s", f.Check, f.Rule)
		}
	}
	if got := checks(run(t, []string{widget}, Options{Config: &config.Config{Profile: config.ProfileNone}}).Findings); got != nil {
		t.Errorf("profile none: %v", got)
	}
	if got := checks(run(t, []string{widget}, Options{Config: &config.Config{Profile: config.ProfileCertified}}).Findings); !slices.Equal(got, []string{"check_operator_name"}) {
		t.Errorf("profile certified: %v", got)
	}
	// A bundle directory linted on its own, or a catalog: no operator, no
	// checks of an operator; the community profile chosen runs
	// operator-sdk's on the bundle directory.
	if got := checks(run(t, []string{filepath.Join(widget, "1.2.0"), filepath.Join(root, "catalogs", "v4.17")}, Options{Config: &config.Config{Profile: config.ProfileCommunity}}).Findings); slices.ContainsFunc(got, func(c string) bool { return !strings.HasPrefix(c, "check_osdk_") }) {
		t.Errorf("a bundle and a catalog: %v", got)
	}
	if got := checks(run(t, []string{filepath.Join(widget, "1.2.0")}, Options{}).Findings); got != nil {
		t.Errorf("a bundle directory on its own, by default: %v", got)
	}
	// --rule picks a check whatever the profile.
	res := run(t, []string{widget}, Options{Rules: []string{pipeline.RuleBundleDirVersion}, Config: &config.Config{Profile: config.ProfileNone}})
	if len(res.Rules) != 1 || res.Findings != nil {
		t.Errorf("--rule bundle-dir-version: %v%s", res.Rules, dump(res.Findings))
	}
	// csv-fields leaves to check_required_fields the fields it finds wrong.
	for _, f := range run(t, []string{widget}, Options{}).Findings {
		if f.Rule == ruleCSVFields && strings.Contains(f.Message, "no spec.maintainers") {
			t.Errorf("csv-fields reports what check_required_fields does: %s", f.String())
		}
	}
	if fs := run(t, []string{widget}, Options{Config: &config.Config{Profile: config.ProfileNone}}).Findings; !slices.ContainsFunc(fs, func(f finding.Finding) bool { return strings.Contains(f.Message, "no spec.maintainers") }) {
		t.Errorf("without the pipeline's checks csv-fields reports the missing maintainers:%s", dump(fs))
	}
}

// A change that adds a bundle directory: the findings of the bundles it
// left alone are existing, even those made knowing the other bundles.
func TestPipelineBaselineUntouched(t *testing.T) {
	root, commit := linttest.GitRepo(t, "../testdata/repo")
	widget := filepath.Join(root, "operators", "widget")
	if err := os.CopyFS(filepath.Join(widget, "1.3.0"), os.DirFS(filepath.Join(widget, "1.2.0"))); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(widget, "1.3.0", "manifests", "widget-operator.clusterserviceversion.yaml")
	replaceIn(t, csv, "name: widget-operator.v1.2.0", "name: widgetx.v1.3.0")
	replaceIn(t, csv, "version: 1.2.0", "version: 1.3.0")
	replaceIn(t, filepath.Join(widget, "1.3.0", "metadata", "annotations.yaml"), "package.v1: widget-operator", "package.v1: widgetx")
	commit("a bundle of another name")
	t.Chdir(root)
	res := run(t, []string{"operators/widget"}, Options{Baseline: "HEAD~1"})
	for _, f := range res.Findings {
		if f.BaselineState == finding.BaselineNew && f.Check != "" && f.Bundle != "widgetx.v1.3.0" {
			t.Errorf("a new finding of a bundle the change left alone: %s", f.String())
		}
	}
	// The new bundle: its name, and the fields testdata's CSVs lack.
	errs := newErrors(res.Findings)
	if got := checks(errs); !slices.Equal(got, []string{"check_operator_name", "check_required_fields"}) {
		t.Errorf("new errors: %v%s", got, dump(errs))
	}
}

// The text line names the check after the rule; other lines are as they
// were.
func TestPipelineText(t *testing.T) {
	f := finding.Finding{Rule: "operator-name", Check: "check_operator_name", Severity: finding.Error, Package: "etcd", Bundle: "etcd.v1", File: "a.yaml", Line: 3, Message: "m"}
	if got, want := f.String(), `a.yaml:3: error operator-name [check_operator_name]: bundle "etcd.v1" (package "etcd"): m`; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
	f.Check = ""
	if got, want := f.String(), `a.yaml:3: error operator-name: bundle "etcd.v1" (package "etcd"): m`; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
}

// .opm-lint.yaml's profile, and --print-config's.
func TestPipelineProfileConfig(t *testing.T) {
	c, err := config.Parse("x.yaml", []byte("profile: certified\n"), RuleIDs())
	if err != nil || c.Profile != config.ProfileCertified {
		t.Fatalf("%v %v", c, err)
	}
	if _, err := config.Parse("x.yaml", []byte("target: olmv0\nprofile: isv\n"), RuleIDs()); err == nil || err.Error() != `x.yaml:2: profile: unknown profile "isv": use community, certified, none or auto` {
		t.Errorf("bad profile: %v", err)
	}
	out, err := EffectiveConfig(Options{}, "../testdata/repo/operators/widget")
	if err != nil || !strings.Contains(string(out), "\nprofile: community # the default for these paths") ||
		!strings.Contains(string(out), "  operator-name: on # error; check_operator_name\n") {
		t.Errorf("print-config of an operator directory:\n%s%v", out, err)
	}
	out, _ = EffectiveConfig(Options{}, "../testdata/repo/catalogs")
	if !strings.Contains(string(out), "\nprofile: none # the default") || !strings.Contains(string(out), "  operator-name: off # check_operator_name\n") {
		t.Errorf("print-config of a catalogs directory:\n%s", out)
	}
}
