package lint

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
	"github.com/fbcat/opm/lint/linttest"
	"github.com/fbcat/opm/lint/pipeline"
)

// historyRepo is testdata's repository with history of each kind: the
// catalogs hold widget 1.0.0, 1.1.0 and 1.1.1 (released); 0.9.0, a copy
// of 1.0.0 no catalog holds, is older (superseded), and its CRD stores a
// version 1.0.0's drops; 1.2.0 no catalog holds yet (news). 1.1.0, a
// released bundle, uses an API OpenShift 4.16 no longer serves.
func historyRepo(t *testing.T) string {
	t.Helper()
	root := copyRepo(t)
	widget := filepath.Join(root, "operators", "widget")
	if err := os.CopyFS(filepath.Join(widget, "0.9.0"), os.DirFS(filepath.Join(widget, "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(widget, "0.9.0", "manifests", "widget-operator.clusterserviceversion.yaml")
	replaceIn(t, csv, "name: widget-operator.v1.0.0", "name: widget-operator.v0.9.0")
	replaceIn(t, csv, "version: 1.0.0", "version: 0.9.0")
	replaceIn(t, filepath.Join(widget, "0.9.0", "manifests", "widgets.example.com.crd.yaml"), "  - name: v1\n", "  - name: v0\n")
	replaceIn(t, csv, "version: v1\n", "version: v0\n")
	linttest.WriteFiles(t, root, map[string]string{"operators/widget/1.1.0/manifests/zz-pdb.yaml": pdbV1beta1})
	t.Chdir(root)
	return "operators/widget"
}

// lintHistory lints the history repository with a choice of Released.
func lintHistory(t *testing.T, dir string, r Released) []finding.Finding {
	t.Helper()
	res, err := lintInProcess(context.Background(), []string{dir}, Options{Released: r})
	if err != nil {
		t.Fatal(err)
	}
	return res.Findings
}

// By default only what breaks an install is reported of history, marked;
// news is checked as a pull request's bundle is, operator-sdk's suites
// included; superseded directories' upgrades are not compared.
func TestHistoryHide(t *testing.T) {
	fs := lintHistory(t, historyRepo(t), "")
	var news, history []finding.Finding
	for _, f := range fs {
		if f.History == "" {
			news = append(news, f)
		} else {
			history = append(history, f)
		}
	}
	if len(history) != 1 || history[0].Rule != ruleRemovedAPI || history[0].Severity != finding.Error ||
		history[0].History != finding.HistoryReleased || history[0].Bundle != "widget-operator.v1.1.0" {
		t.Fatalf("want the released bundle's removed API alone of history, got:%s", dump(history))
	}
	for _, f := range news {
		if f.Bundle != "widget-operator.v1.2.0" && f.Bundle != "" {
			t.Errorf("news about a bundle of history: %s", f.String())
		}
	}
	if len(only(news, ruleOSDKOperatorFramework)) == 0 || len(only(news, pipeline.RuleRequiredFields)) == 0 {
		t.Errorf("want operator-sdk's and the pipeline's checks of the new bundle, got:%s", dump(news))
	}
	if got := only(fs, ruleCRDUpgrade); len(got) != 0 {
		t.Errorf("the superseded directory's upgrade is compared:%s", dump(got))
	}
	if !finding.Passed(news, finding.Error) == finding.Passed(fs, finding.Error) {
		t.Error("the verdict")
	}
}

// --released warn reports history's other findings as warnings at most,
// marked; operator-sdk's suites still do not run on it.
func TestHistoryWarn(t *testing.T) {
	fs := lintHistory(t, historyRepo(t), ReleasedWarn)
	var released, superseded int
	for _, f := range fs {
		switch f.History {
		case finding.HistoryReleased:
			released++
		case finding.HistorySuperseded:
			superseded++
			if f.Bundle != "widget-operator.v0.9.0" {
				t.Errorf("superseded: %s", f.String())
			}
		default:
			continue
		}
		if f.Severity == finding.Error && f.Rule != ruleRemovedAPI {
			t.Errorf("an error of history: %s", f.String())
		}
		if slices.ContainsFunc(f.Rules, func(r string) bool { return strings.HasPrefix(r, "osdk-") }) {
			t.Errorf("operator-sdk ran on history: %s", f.String())
		}
	}
	if released == 0 || superseded == 0 {
		t.Errorf("want findings of released and superseded bundles, got:%s", dump(fs))
	}
}

// --released check lints history as news: the superseded directory's
// upgrade removes its stored version, an error.
func TestHistoryCheck(t *testing.T) {
	fs := lintHistory(t, historyRepo(t), ReleasedCheck)
	for _, f := range fs {
		if f.History != "" {
			t.Fatalf("history marked: %s", f.String())
		}
	}
	got := only(fs, ruleCRDUpgrade)
	if len(got) != 1 || got[0].Bundle != "widget-operator.v1.0.0" || got[0].Severity != finding.Error {
		t.Fatalf("want 0.9.0's stored version removed by 1.0.0, got:%s", dump(got))
	}
	if _, err := lintInProcess(context.Background(), []string{"operators/widget"}, Options{Released: "all"}); err == nil || !strings.Contains(err.Error(), "hide, warn or check") {
		t.Errorf("an unknown choice: %v", err)
	}
}
