package lint

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
)

// An operator directory written by catalogrepotest.WriteLintRepo from a real bundle: ten
// versions, the newest six in two catalogs; version 1.0.8 removes the
// field version 1.0.3 added. The bundle directories are linted in
// parallel and their CRDs read again after release; the edge is compared
// once, and reported once, at the CRD's manifest, with the line of the
// change.
func TestOperatorDirLinttest(t *testing.T) {
	root := t.TempDir()
	pkg, err := catalogrepotest.WriteLintRepo(root, catalogrepotest.LintRepo{
		Source: "../testdata/bundles/node-healthcheck-operator_0.6.0", Bundles: 10, InCatalogs: 6,
		ObjectCatalogs: []string{"v4.15"}, MetaCatalogs: []string{"v4.17"}, OpenShift: "v4.15",
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := lintInProcess(context.Background(), []string{filepath.Join(root, "operators", pkg)}, Options{Rules: []string{ruleCRDUpgrade}, Released: ReleasedCheck})
	if err != nil {
		t.Fatal(err)
	}
	fs := only(res.Findings, ruleCRDUpgrade)
	if len(fs) != 1 {
		t.Fatalf("want 1 finding, got:%s", dump(fs))
	}
	f := fs[0]
	if f.Bundle != pkg+".v1.0.8" || !strings.Contains(f.File, filepath.Join("1.0.8", "manifests")) ||
		len(f.Reasons) != 1 || f.Reasons[0].Field != "spec.bench3" || f.Reasons[0].Line == 0 {
		t.Fatalf("want the removal of spec.bench3 in 1.0.8's CRD manifest, with its line; got:%s\n%+v", dump(fs), f.Reasons)
	}

	// The catalog on its own: the bundles' embedded objects.
	res, err = lintInProcess(context.Background(), []string{filepath.Join(root, "catalogs", "v4.15")}, Options{Rules: []string{ruleCRDUpgrade}})
	if err != nil {
		t.Fatal(err)
	}
	fs = only(res.Findings, ruleCRDUpgrade)
	if len(fs) != 1 || fs[0].Bundle != pkg+".v1.0.8" || !strings.HasSuffix(fs[0].File, "catalog.yaml") || fs[0].Reasons[0].Line != 0 {
		t.Fatalf("want one finding at the catalog's bundle 1.0.8, got:%s", dump(fs))
	}
}
