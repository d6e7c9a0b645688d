package lint

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fbcat/opm/author/authortest"
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
	pkg, err := authortest.WriteLintRepo(root, authortest.LintRepo{
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
		rules, err := selectRules(ids, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		l := &linter{rules: rules}
		bundles, err := l.lintBundleDirs(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		compared := len(l.crdPairs.m)
		if on != (compared > 0) {
			t.Fatalf("crd-upgrade-unsafe %v: %d pairs compared while reading", on, compared)
		}
		for _, b := range bundles {
			for _, o := range b.objects {
				if o != b.csv && o.v != nil {
					t.Errorf("%s: %s still holds its tree", b.dir, o.path)
				}
			}
		}
		if !on {
			continue
		}
		got := crdUpgradeDirs(bundles, &l.crdPairs)
		if len(l.crdPairs.m) != compared {
			t.Errorf("%d pairs compared again after reading", len(l.crdPairs.m)-compared)
		}
		want := crdUpgradeDirs(bundles, &crdPairs{})
		if len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Fatalf("findings%s\nwant%s", dump(got), dump(want))
		}
	}
}

// The run over the baseline starts with the pairs the run over the
// change compared: it does not compare them again (here it could not:
// the bundles are not there).
func TestCRDPairsSeed(t *testing.T) {
	var head crdPairs
	old, cur := &object{sum: [32]byte{1}}, &object{sum: [32]byte{2}}
	want := []crdProblem{{}}
	head.m = map[[2][32]byte]*crdPair{{old.sum, cur.sum}: {problems: want}}
	head.m[[2][32]byte{old.sum, cur.sum}].once.Do(func() {})
	var base crdPairs
	base.seed(&head)
	if got := base.problems(nil, old, nil, cur); !reflect.DeepEqual(got, want) {
		t.Fatalf("problems %v, want %v", got, want)
	}
}
