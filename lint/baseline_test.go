package lint

import (
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/linttest"
	"slices"

	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

// gitRepo makes the copy of testdata/repo a git repository with one
// gitRepo makes a copy of testdata/repo a git repository with one
// commit, and returns a function that commits what changed since.
func gitRepo(t *testing.T) (root string, commit func(msg string)) {
	return linttest.GitRepo(t, "../testdata/repo")
}

// inDir runs f with the working directory set to dir, as the pull-request
// job runs lint from the repository root.
func inDir(t *testing.T, dir string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(wd) })
}

const pdbV1beta1 = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: zz-pdb\nspec:\n  minAvailable: 1\n"

// The change: a line added above findings that stay (moved, not new), a
// removed API in a released bundle and a range that excludes every
// catalog it is in (new errors; the range's is one finding, naming both
// catalogs).
func changeRepo(t *testing.T, root string) {
	t.Helper()
	csv := filepath.Join(root, "operators/widget/1.1.0/manifests/widget-operator.clusterserviceversion.yaml")
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	linttest.WriteFiles(t, root, map[string]string{
		"operators/widget/1.1.0/manifests/widget-operator.clusterserviceversion.yaml": "# moved down a line\n" + string(data),
		"operators/widget/1.1.1/manifests/zz-pdb.yaml":                                pdbV1beta1,
	})
	replaceIn(t, filepath.Join(root, "operators/widget/1.1.1/metadata/annotations.yaml"), "com.redhat.openshift.versions: v4.16", "com.redhat.openshift.versions: =v4.15")
}

// newFindings are the findings the change introduced; every finding must
// be new or unchanged.
func newFindings(t *testing.T, fs []finding.Finding) []finding.Finding {
	t.Helper()
	var news []finding.Finding
	for _, f := range fs {
		switch f.BaselineState {
		case finding.BaselineNew:
			news = append(news, f)
		case finding.BaselineUnchanged:
		default:
			t.Fatalf("no baseline state: %+v", f)
		}
	}
	return news
}

func TestBaselineGitRef(t *testing.T) {
	root, commit := gitRepo(t)
	inDir(t, root)
	before := run(t, []string{"operators/widget"}, Options{})
	if len(before.Findings) == 0 {
		t.Fatal("the repository has no findings to carry over")
	}
	changeRepo(t, root)
	commit("after")
	res := run(t, []string{"operators/widget"}, Options{Baseline: "HEAD~1"})
	news := newFindings(t, res.Findings)
	// The bundle directories the change left alone are checked for what
	// breaks installs only (their findings are existing by construction):
	// the operator-sdk suites and the other checks of a pull request's
	// own bundle run on those it touched (1.1.0, 1.1.1), as the pipeline
	// checks a pull request's.
	carried := 0
	for _, f := range before.Findings {
		leftAlone := f.Bundle != "widget-operator.v1.1.0" && f.Bundle != "widget-operator.v1.1.1" && strings.HasPrefix(f.File, "operators/widget/1.")
		if r, _ := ruleByID(f.Rule); !leftAlone || r.breaksInstall {
			carried++
		}
	}
	if len(res.Findings)-len(news) != carried {
		t.Errorf("%d unchanged, want the %d findings of the baseline:%s", len(res.Findings)-len(news), carried, dump(news))
	}
	for _, f := range append(only(res.Findings, ruleOSDKOperatorHub), only(res.Findings, ruleOSDKOperatorFramework)...) {
		if f.Bundle != "widget-operator.v1.1.0" && f.Bundle != "widget-operator.v1.1.1" {
			t.Errorf("a bundle directory the change left alone is checked: %+v", f)
		}
	}
	rules := map[string]int{}
	for _, f := range news {
		for _, r := range f.Rules {
			rules[r]++
		}
		if f.Severity != finding.Error {
			t.Errorf("a new finding that is not an error: %+v", f)
		}
	}
	// The pipeline's operator-sdk checks fail the removed API too, at its
	// manifest: one problem, one finding naming the three rules; every
	// other finding of theirs, of the bundle whose CSV moved a line down
	// too, is existing.
	if rules[ruleRemovedAPI] != 1 || rules[ruleOpenShiftRange] != 1 || rules[ruleOSDKOperatorHub] != 1 || rules[ruleOSDKOperatorFramework] != 1 || len(news) != 2 {
		t.Fatalf("want a new removed-api, one openshift-range error (in v4.16 and v4.17) and an error of each operator-sdk suite, got:%s", dump(news))
	}
	for _, f := range append(only(news, ruleOSDKOperatorHub), only(news, ruleOSDKOperatorFramework)...) {
		if f.Rule != ruleRemovedAPI || f.File != "operators/widget/1.1.1/manifests/zz-pdb.yaml" || len(f.Related) != 2 || !strings.Contains(f.Related[0].Message, "removed in v1.25") ||
			!slices.Equal(f.Checks, []string{checkOSDKOperatorHub, checkOSDKOperatorFramework}) {
			t.Errorf("want the removed API at its manifest, with the pipeline's checks and operator-sdk's words: %+v", f)
		}
	}
	for _, f := range only(news, ruleOpenShiftRange) {
		if f.File != "operators/widget/catalog-templates/basic.yaml" || strings.Join(f.Catalogs, ",") != "v4.16,v4.17" {
			t.Errorf("want the range error at the template, in v4.16 and v4.17: %+v", f)
		}
	}
	if finding.Passed(res.Findings, finding.Error) {
		t.Fatal("new errors passed")
	}
}

// The change of TestBaselineGitRef with its new errors ignored by the
// configuration passes; linted against itself, nothing is new.
func TestBaselineGitRefIgnored(t *testing.T) {
	root, commit := gitRepo(t)
	inDir(t, root)
	changeRepo(t, root)
	commit("after")
	cfg, err := config.Parse("cfg", []byte("ignore:\n  - bundle: widget-operator.v1.1.1\n    reason: test\n"), RuleIDs())
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, []string{"operators/widget"}, Options{Baseline: "HEAD~1", Config: cfg})
	for _, f := range res.Findings {
		if (f.Suppressed != "") != (f.Bundle == "widget-operator.v1.1.1") {
			t.Errorf("suppressed %q: %+v", f.Suppressed, f)
		}
	}
	if !finding.Passed(res.Findings, finding.Error) || finding.Summarize(res.Findings).Errors != 0 {
		t.Fatalf("ignored: %+v", finding.Summarize(res.Findings))
	}
	// linted against itself, nothing is new
	res = run(t, []string{"operators/widget"}, Options{Baseline: "HEAD"})
	if s := finding.Summarize(res.Findings); s.Errors+s.Warnings+s.Infos != 0 || s.Existing != len(res.Findings) || !finding.Passed(res.Findings, finding.Warning) {
		t.Fatalf("against HEAD: %+v", s)
	}
}

// A directory baseline: the repository root as it was.
func TestBaselineDir(t *testing.T) {
	old := copyRepo(t)
	root := copyRepo(t)
	changeRepo(t, root)
	res := run(t, []string{filepath.Join(root, "operators/widget")}, Options{Baseline: old})
	s := finding.Summarize(res.Findings)
	if s.Errors != 2 || s.Existing == 0 || s.Warnings != 0 {
		t.Fatalf("want 2 new errors (removed-api, failing each operator-sdk suite too, and openshift-range) and the rest existing, got %+v:%s", s, dump(res.Findings))
	}
	// one catalog directory against the catalog as it was
	cat := filepath.Join(root, "catalogs/v4.16/widget")
	replaceIn(t, filepath.Join(cat, "catalog.yaml"), "name: fast", "name: fast2")
	res = run(t, []string{cat}, Options{Baseline: filepath.Join(old, "catalogs/v4.16/widget")})
	for _, f := range res.Findings {
		if f.BaselineState == finding.BaselineNew && f.Rule != ruleStranded {
			t.Errorf("new: %+v", f)
		}
	}
	if len(only(res.Findings, ruleStranded)) == 0 {
		t.Errorf("renaming a channel strands nothing:%s", dump(res.Findings))
	}
}

// Linting catalogs/ against a ref: the catalogs the change left alone are
// not extracted (see the baseline package's TestGitCatalogsRoot), and
// their findings are the work tree's.
func TestBaselineGitCatalogsRoot(t *testing.T) {
	root, commit := gitRepo(t)
	inDir(t, root)
	before := run(t, []string{"catalogs"}, Options{})
	replaceIn(t, filepath.Join(root, "catalogs/v4.17/widget/catalog.yaml"), "  replaces: widget-operator.v1.1.0", "  replaces: widget-operator.v1.0.9")
	commit("after")
	res := run(t, []string{"catalogs"}, Options{Baseline: "HEAD~1"})
	// the catalogs left out of the copy are unchanged, not new
	if len(res.Changes) != 1 || res.Changes[0].Catalog != "catalogs/v4.17" || res.Changes[0].New {
		t.Errorf("changes: %+v", res.Changes)
	}
	news := 0
	for _, f := range res.Findings {
		if f.BaselineState == finding.BaselineNew {
			news++
			if !strings.HasPrefix(f.File, "catalogs/v4.17/") {
				t.Errorf("new outside the changed catalog: %+v", f)
			}
		}
	}
	outside := func(fs []finding.Finding) (n int) {
		for _, f := range fs {
			if !strings.HasPrefix(f.File, "catalogs/v4.17/") {
				n++
			}
		}
		return n
	}
	if news == 0 || outside(res.Findings) != outside(before.Findings) || outside(before.Findings) == 0 {
		t.Fatalf("%d new of %d (%d before):%s", news, len(res.Findings), len(before.Findings), dump(res.Findings))
	}
}

// A catalog at the top of its repository, linted as ".".
func TestBaselineGitTopCatalog(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	linttest.WriteFiles(t, root, map[string]string{"catalog.yaml": linttest.Chain3, ".indexignore": ".git\n.indexignore\n"})
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "before"}} {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=ci@example.com", "-c", "user.name=ci"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	replaceIn(t, filepath.Join(root, "catalog.yaml"), "    replaces: etcdoperator.v0.9.2\n", "    replaces: etcdoperator.v0.9.2\n    skips: [etcdoperator.v0.8.0]\n")
	inDir(t, root)
	res := run(t, []string{"."}, Options{Baseline: "HEAD", Rules: []string{ruleDangling}})
	if len(res.Findings) != 1 || res.Findings[0].BaselineState != finding.BaselineNew {
		t.Fatalf("want one new finding (not yet committed):%s", dump(res.Findings))
	}
}

// A change that edits a released bundle's CRD in place upgrades the
// clusters that installed it as the baseline has it: a stored version
// removed is a new error.
func TestBaselineEditedCRD(t *testing.T) {
	root, commit := gitRepo(t)
	inDir(t, root)
	crd := "operators/widget/1.1.1/manifests/widgets.example.com.crd.yaml"
	replaceIn(t, filepath.Join(root, crd), "  - name: v1\n", "  - name: v2\n")
	commit("the stored version renamed")
	news := newErrors(run(t, []string{"operators/widget"}, Options{Baseline: "HEAD~1"}).Findings)
	if !slices.ContainsFunc(only(news, ruleCRDUpgrade), func(f finding.Finding) bool {
		return f.File == crd && strings.Contains(f.Message, "upgrade from widget-operator.v1.1.1 as the baseline has it")
	}) {
		t.Fatalf("want the stored version's removal, got:%s", dump(news))
	}
}
