package lint

import (
	"github.com/fbcat/opm/lint/linttest"
	"github.com/fbcat/opm/option"

	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

func TestStranded(t *testing.T) {
	tests := []struct {
		name, now string
		want      []string // stranded bundles ("" for the package or channel)
	}{
		{name: "unchanged", now: linttest.Chain3},
		{name: "new head", now: strings.Replace(linttest.Chain3, "    replaces: etcdoperator.v0.9.2\n", "    replaces: etcdoperator.v0.9.2\n  - name: etcdoperator.v0.9.5\n    replaces: etcdoperator.v0.9.4\n", 1) + linttest.ChainCatalog("", "0.9.5")[strings.Index(linttest.ChainCatalog("", "0.9.5"), "---\nschema: olm.bundle"):]},
		{name: "middle removed: the chain is stranded", now: linttest.ChainCatalog("  - name: etcdoperator.v0.9.0\n  - name: etcdoperator.v0.9.4\n    replaces: etcdoperator.v0.9.2\n", "0.9.0", "0.9.4"),
			want: []string{"etcdoperator.v0.9.0"}},
		{name: "middle removed, skipped", now: linttest.ChainCatalog("  - name: etcdoperator.v0.9.0\n  - name: etcdoperator.v0.9.4\n    replaces: etcdoperator.v0.9.0\n    skips: [etcdoperator.v0.9.2]\n", "0.9.0", "0.9.4")},
		{name: "middle removed, skipRange", now: linttest.ChainCatalog("  - name: etcdoperator.v0.9.0\n  - name: etcdoperator.v0.9.4\n    skipRange: '>=0.9.0 <0.9.4'\n", "0.9.0", "0.9.4")},
		{name: "tail removed", now: linttest.ChainCatalog("  - name: etcdoperator.v0.9.2\n  - name: etcdoperator.v0.9.4\n    replaces: etcdoperator.v0.9.2\n", "0.9.2", "0.9.4"),
			want: []string{"etcdoperator.v0.9.0"}},
		{name: "edge removed", now: strings.Replace(linttest.Chain3, "    replaces: etcdoperator.v0.9.0\n", "", 1),
			want: []string{"etcdoperator.v0.9.0"}},
		{name: "channel emptied", now: strings.Replace(linttest.Chain3, "entries:\n  - name: etcdoperator.v0.9.0\n  - name: etcdoperator.v0.9.2\n    replaces: etcdoperator.v0.9.0\n  - name: etcdoperator.v0.9.4\n    replaces: etcdoperator.v0.9.2\n", "entries: []\n", 1),
			want: []string{""}},
		{name: "channel gone", now: strings.Replace(strings.Replace(linttest.Chain3, "name: alpha\n", "name: beta\n", 1), "defaultChannel: alpha", "defaultChannel: beta", 1),
			want: []string{""}},
		{name: "package gone", now: "---\nschema: olm.package\nname: other\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: other\nname: stable\nentries:\n  - name: other.v1.0.0\n---\nschema: olm.bundle\nname: other.v1.0.0\npackage: other\nimage: quay.io/x/other:v1.0.0\nproperties:\n  - type: olm.package\n    value:\n      packageName: other\n      version: 1.0.0\n",
			want: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, dir := filepath.Join(t.TempDir(), "base"), filepath.Join(t.TempDir(), "now")
			linttest.WriteFiles(t, base, map[string]string{"catalog.yaml": linttest.Chain3})
			linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": tt.now})
			got := run(t, []string{dir}, Options{Rules: []string{ruleStranded}, Baseline: base}).Findings
			if len(got) != len(tt.want) {
				t.Fatalf("want %q stranded, got:%s", tt.want, dump(got))
			}
			for i, f := range got {
				if f.Bundle != tt.want[i] || f.Severity != finding.Error || !strings.HasPrefix(f.File, dir) {
					t.Errorf("finding %+v, want bundle %q", f, tt.want[i])
				}
			}
		})
	}
}

// A git ref is read with git archive, as the catalog was at that commit.
func TestStrandedGitBaseline(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	dir := filepath.Join(repo, "catalogs", "v4.16", "etcd")
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": linttest.Chain3})
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "etcd")
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": linttest.ChainCatalog("  - name: etcdoperator.v0.9.2\n  - name: etcdoperator.v0.9.4\n    replaces: etcdoperator.v0.9.2\n", "0.9.2", "0.9.4")})
	got := run(t, []string{dir}, Options{Rules: []string{ruleStranded}, Baseline: "HEAD"}).Findings
	if len(got) != 1 || got[0].Bundle != "etcdoperator.v0.9.0" {
		t.Fatalf("want 0.9.0 stranded, got:%s", dump(got))
	}
	// A catalog the ref does not have is new: nothing to strand.
	other := filepath.Join(repo, "catalogs", "v4.17", "etcd")
	linttest.WriteFiles(t, other, map[string]string{"catalog.yaml": linttest.Chain3})
	if got := run(t, []string{other}, Options{Rules: []string{ruleStranded}, Baseline: "HEAD"}).Findings; len(got) != 0 {
		t.Fatalf("findings:%s", dump(got))
	}
	if _, err := lintInProcess(context.Background(), []string{dir}, Options{Baseline: "no-such-ref"}); err == nil || !strings.Contains(err.Error(), "neither a directory nor a commit") {
		t.Fatalf("unknown ref: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := lintInProcess(context.Background(), []string{dir}, Options{Baseline: file}); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Fatalf("file baseline: %v", err)
	}
	if _, err := lintInProcess(context.Background(), []string{dir, other}, Options{Baseline: dir}); err == nil || !strings.Contains(err.Error(), "one at a time") {
		t.Fatalf("directory baseline of two catalogs: %v", err)
	}
}

// A baseline catalog the model cannot index (a channel of a package
// without its olm.package blob) is an error, not a silently smaller graph.
// The error is about the baseline option, which a command line names by
// its flag.
func TestInconsistentBaseline(t *testing.T) {
	base, dir := filepath.Join(t.TempDir(), "base"), filepath.Join(t.TempDir(), "now")
	linttest.WriteFiles(t, base, map[string]string{"catalog.yaml": strings.Replace(linttest.Chain3, "schema: olm.package\n", "schema: olm.packagex\n", 1)})
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": linttest.Chain3})
	_, err := lintInProcess(context.Background(), []string{dir}, Options{Rules: []string{ruleStranded}, Baseline: base})
	var opt *option.Error
	if !errors.As(err, &opt) || opt.Names()[0] != optionBaseline || !strings.HasPrefix(err.Error(), "Options.Baseline: catalog") || !strings.Contains(err.Error(), "inconsistent") {
		t.Fatalf("want an error naming the inconsistent baseline, got %v", err)
	}
	if msg := opt.Say(map[option.Name]string{optionBaseline: "--baseline"}); !strings.HasPrefix(msg, "--baseline: catalog") {
		t.Errorf("named by its flag: %s", msg)
	}
}

// A catalog validate rejects (an emptied channel) is an error finding of
// catalog-invalid, at the channel, and the installs it strands are seen.
func TestCatalogInvalid(t *testing.T) {
	base, dir := filepath.Join(t.TempDir(), "base"), filepath.Join(t.TempDir(), "now")
	two := linttest.Chain3 + "---\nschema: olm.channel\npackage: etcd\nname: beta\nentries:\n  - name: etcdoperator.v0.9.0\n"
	linttest.WriteFiles(t, base, map[string]string{"catalog.yaml": two})
	linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": strings.Replace(two, "name: beta\nentries:\n  - name: etcdoperator.v0.9.0\n", "name: beta\nentries: []\n", 1)})
	got := run(t, []string{dir}, Options{Rules: []string{ruleCatalogInvalid, ruleStranded}, Baseline: base}).Findings
	if len(got) != 2 || got[0].Rule != ruleCatalogInvalid || got[0].Channel != "beta" || !strings.Contains(got[0].Message, "channel has no entries") ||
		got[1].Rule != ruleStranded || !strings.Contains(got[1].Message, `channel "beta" has no entries now`) || got[0].BaselineState != finding.BaselineNew || got[1].BaselineState != finding.BaselineNew {
		t.Fatalf("want catalog-invalid and stranded-upgrade, both new, got:%s", dump(got))
	}
	if got := run(t, []string{base}, Options{Rules: []string{ruleCatalogInvalid}}).Findings; len(got) != 0 {
		t.Fatalf("a valid catalog:%s", dump(got))
	}
}
