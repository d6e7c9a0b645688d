package lint

import (
	"github.com/fbcat/opm/lint/linttest"

	"strings"
	"testing"

	"github.com/fbcat/opm/lint/finding"
)

func TestDefaultChannelDeprecated(t *testing.T) {
	deprecations := func(channel string) string {
		return "---\nschema: olm.deprecations\npackage: etcd\nentries:\n  - reference:\n      schema: olm.channel\n      name: " + channel + "\n    message: alpha is no longer updated; use stable\n"
	}
	two := strings.Replace(linttest.Chain3, "---\nschema: olm.bundle", "---\nschema: olm.channel\npackage: etcd\nname: stable\nentries:\n  - name: etcdoperator.v0.9.4\n---\nschema: olm.bundle", 1)
	tests := []struct {
		name, catalog string
		want          bool
	}{
		{name: "none deprecated", catalog: two},
		{name: "another channel deprecated", catalog: two + deprecations("stable")},
		{name: "default deprecated", catalog: two + deprecations("alpha"), want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": tt.catalog})
			got := run(t, []string{dir}, Options{Rules: []string{ruleDefaultDeprecated}}).Findings
			if !tt.want {
				if len(got) != 0 {
					t.Fatalf("findings:%s", dump(got))
				}
				return
			}
			if len(got) != 1 || got[0].Line != 2 || got[0].Channel != "alpha" || !strings.Contains(got[0].Message, "no longer updated") {
				t.Fatalf("want one finding at the package, got:%s", dump(got))
			}
		})
	}
}

func TestDangling(t *testing.T) {
	tests := []struct {
		name, entries string
		want          string
		severity      finding.Severity
	}{
		{name: "complete", entries: "  - name: etcdoperator.v0.9.0\n  - name: etcdoperator.v0.9.2\n    replaces: etcdoperator.v0.9.0\n"},
		{name: "replaces a bundle never released", entries: "  - name: etcdoperator.v0.9.2\n    replaces: etcdoperator.v0.9.1\n", want: `replaces "etcdoperator.v0.9.1"`, severity: finding.Warning},
		// what opm alpha catalog remove writes: an info, which never fails
		{name: "skips one", entries: "  - name: etcdoperator.v0.9.2\n    skips: [etcdoperator.v0.9.0, etcdoperator.v0.8.0]\n", want: `skips "etcdoperator.v0.8.0"`, severity: finding.Info},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			linttest.WriteFiles(t, dir, map[string]string{"catalog.yaml": linttest.ChainCatalog(tt.entries, "0.9.0", "0.9.2")})
			got := run(t, []string{dir}, Options{Rules: []string{ruleDangling}}).Findings
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("findings:%s", dump(got))
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0].Message, tt.want) || got[0].Bundle != "etcdoperator.v0.9.2" || got[0].Line != 10 || got[0].Severity != tt.severity {
				t.Fatalf("want one finding with %q at the entry, got:%s", tt.want, dump(got))
			}
		})
	}
}
