package lint

import (
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/linttest"

	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbcat/opm/catalogrepo/catalogrepotest"
	"github.com/fbcat/opm/lint/crdcompat"
)

func TestNamedVersionOrder(t *testing.T) {
	paths := []string{"op/1.10.0", "op/1.9.0", "op/v1.2.0", "op/latest", "op/0.1", "op/1.2.0-rc.1"}
	got := namedVersionOrder(paths)
	if want := []int{5, 2, 1, 0, 3, 4}; !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

// Reading an operator directory compares the CRDs of consecutive
// versions while their trees are alive: crd-upgrade-unsafe then compares
// no pair again, finds what a run with an empty cache finds (reading the
// released trees again), and every manifest tree but the CSVs' is
// released.
func TestBundleDirsCompareCRDsWhileRead(t *testing.T) {
	root := t.TempDir()
	pkg, err := catalogrepotest.WriteLintRepo(root, catalogrepotest.LintRepo{
		Source: "../testdata/bundles/node-healthcheck-operator_0.6.0", Bundles: 10, InCatalogs: 6,
		ObjectCatalogs: []string{"v4.15"}, OpenShift: "v4.15",
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "operators", pkg)
	for _, on := range []bool{true, false} {
		ids := []string{ruleCRDUpgrade}
		if !on {
			ids = []string{ruleOLMv1}
		}
		rules, err := selectRules(ids, nil, nil, config.ProfileNone)
		if err != nil {
			t.Fatal(err)
		}
		l := &linter{setup: setup{rules: rules}}
		bundles, err := l.lintBundleDirs(context.Background(), dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		compared := l.pairs.Len()
		if on != (compared > 0) {
			t.Fatalf("crd-upgrade-unsafe %v: %d pairs compared while reading", on, compared)
		}
		for _, b := range bundles {
			for _, o := range b.objects {
				if o != b.csv && o.manifest.HasTree() {
					t.Errorf("%s: %s still holds its tree", b.dir, o.file)
				}
			}
		}
		if !on {
			continue
		}
		got, err := crdUpgradeDirs(context.Background(), bundles, func(*bundle) bool { return true }, func(*bundle) bool { return false }, &l.pairs)
		if err != nil {
			t.Fatal(err)
		}
		if l.pairs.Len() != compared {
			t.Errorf("%d pairs compared again after reading", l.pairs.Len()-compared)
		}
		want, err := crdUpgradeDirs(context.Background(), bundles, func(*bundle) bool { return true }, func(*bundle) bool { return false }, &crdcompat.Pairs{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Fatalf("findings%s\nwant%s", dump(got), dump(want))
		}
	}
}

// Bundle directories are read in the order of their versions, but an
// error is that of the first directory in directory order that cannot
// be read: 1.10.0 before 1.9.0, which is read first.
func TestBundleDirsFirstError(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"1.10.0", "1.9.0"} {
		linttest.WriteFiles(t, filepath.Join(dir, v), map[string]string{"manifests/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n", "metadata/annotations.yaml": annotationsYAML("")})
	}
	bundleDir(t, filepath.Join(dir, "1.0.0"), testCSV(csvOpts{}), annotationsYAML(""), nil)
	rules, err := selectRules([]string{ruleCRDUpgrade}, nil, nil, config.ProfileNone)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		l := &linter{setup: setup{rules: rules}}
		_, err := l.lintBundleDirs(context.Background(), dir, nil)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "1.10.0")) {
			t.Fatalf("got %v, want the error of 1.10.0", err)
		}
	}
}
