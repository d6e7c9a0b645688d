package lint

import (
	"github.com/fbcat/opm/lint/config"
	"github.com/fbcat/opm/lint/linttest"
	"github.com/fbcat/opm/option"

	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSelectRules(t *testing.T) {
	all, err := selectRules(nil, nil, nil, config.ProfileNone)
	if err != nil || len(all) != len(ownRules) {
		t.Fatalf("every rule of lint's own: %v %v", all, err)
	}
	community, err := selectRules(nil, nil, nil, config.ProfileCommunity)
	if err != nil || len(community) != len(ownRules)+19 {
		t.Fatalf("lint's own rules and the community pipeline's 19 checks: %d %v", len(community), err)
	}
	certified, err := selectRules(nil, nil, nil, config.ProfileCertified)
	if err != nil || len(certified) != len(ownRules)+12 {
		t.Fatalf("lint's own rules and the certified pipeline's 12 checks: %d %v", len(certified), err)
	}
	some, err := selectRules([]string{ruleRemovedAPI, ruleDangling}, []string{ruleDangling}, nil, config.ProfileNone)
	if err != nil || len(some) != 1 || some[0].ID != ruleRemovedAPI {
		t.Fatalf("--rule removed-api --rule dangling-reference --disable dangling-reference: %v %v", some, err)
	}
	if err := (Options{Rules: []string{"removed-apis"}}).Validate(); err == nil || !strings.Contains(err.Error(), `unknown rule "removed-apis"`) {
		t.Fatalf("unknown rule: %v", err)
	}
	if _, err := selectRules([]string{ruleDangling}, []string{ruleDangling}, nil, config.ProfileNone); !errors.Is(err, ErrNoRules) {
		t.Fatalf("no rule left: %v", err)
	}
	for _, r := range Rules() {
		runs := r.bundle != nil || r.pkg != nil || r.operator != nil || r.inOperator != nil || r.mapped != nil
		if r.Description == "" || r.Help == "" || (!runs && r.ID != ruleCatalogInvalid) || (r.Check != "") != (r.profiles != nil) {
			t.Errorf("rule %s is incomplete", r.ID)
		}
	}
}

func TestLintErrors(t *testing.T) {
	ctx := context.Background()
	bundle := bundleDir(t, t.TempDir(), testCSV(csvOpts{}), annotationsYAML(""), nil)
	empty := t.TempDir()
	file := filepath.Join(t.TempDir(), "catalog.json")
	broken := t.TempDir()
	linttest.WriteFiles(t, broken, map[string]string{"catalog.yaml": "schema: olm.package\nname: [etcd\n"})
	noMeta := t.TempDir()
	linttest.WriteFiles(t, noMeta, map[string]string{"manifests/etcd.clusterserviceversion.yaml": testCSV(csvOpts{})})
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		paths []string
		opts  Options
		want  string
	}{
		{name: "no path", want: "nothing to lint"},
		{name: "missing", paths: []string{filepath.Join(empty, "nope")}, want: "no such file"},
		{name: "image without a renderer", paths: []string{"quay.io/org/catalog:v1"}, want: "no such file"},
		{name: "a file", paths: []string{file}, want: "is a file"},
		{name: "no catalog objects", paths: []string{empty}, want: "holds no catalog objects"},
		{name: "catalog that does not load", paths: []string{broken}, want: "run opm validate"},
		{name: "bundle without metadata", paths: []string{noMeta}, want: "metadata"},
		{name: "unknown rule", paths: []string{bundle}, opts: Options{Rules: []string{"nope"}}, want: "unknown rule"},
		{name: "previous not a bundle", paths: []string{bundle}, opts: Options{Previous: empty}, want: "not a registry+v1 bundle directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := lintInProcess(ctx, tt.paths, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one with %q", err, tt.want)
			}
		})
	}
	// The previous bundle's errors are about that option, which a command
	// line names by its flag.
	_, err := lintInProcess(ctx, []string{bundle}, Options{Previous: empty})
	var opt *option.Error
	if !errors.As(err, &opt) || opt.Names()[0] != optionPrevious || opt.Say(map[option.Name]string{optionPrevious: "--previous"}) != "--previous "+empty+": not a registry+v1 bundle directory (manifests/ and metadata/)" {
		t.Errorf("previous: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := lintInProcess(cancelled, []string{bundle}, Options{}); err == nil {
		t.Error("cancelled: no error")
	}
}

// Asking for stranded-upgrade without a baseline says why it found nothing.
func TestStrandedWithoutBaseline(t *testing.T) {
	dir := t.TempDir()
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": linttest.Chain3})
	res := run(t, []string{dir}, Options{Rules: []string{ruleStranded}})
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "--baseline") {
		t.Fatalf("notes %q", res.Notes)
	}
}
