package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbcat/opm/lint"
)

// chainCatalog is a catalog of etcd whose alpha channel has the entries
// given (YAML list items) and a bundle for each version.
func chainCatalog(entries string, versions ...string) string {
	s := "---\nschema: olm.package\nname: etcd\ndefaultChannel: alpha\n---\nschema: olm.channel\npackage: etcd\nname: alpha\nentries:\n" + entries
	for _, v := range versions {
		s += "---\nschema: olm.bundle\nname: etcdoperator.v" + v + "\npackage: etcd\nimage: quay.io/operatorhubio/etcd:v" + v +
			"\nproperties:\n  - type: olm.package\n    value:\n      packageName: etcd\n      version: " + v + "\n"
	}
	return s
}

// chain3 is 0.9.0 <- 0.9.2 <- 0.9.4 by replaces.
var chain3 = chainCatalog(`  - name: etcdoperator.v0.9.0
  - name: etcdoperator.v0.9.2
    replaces: etcdoperator.v0.9.0
  - name: etcdoperator.v0.9.4
    replaces: etcdoperator.v0.9.2
`, "0.9.0", "0.9.2", "0.9.4")

// changedChain is chain3 after a release: 0.9.5 replaces 0.9.4 and
// skipRanges the older ones, 0.9.0 is taken out, 0.9.2 deprecated, and a
// new channel beta holds 0.9.5.
var changedChain = chainCatalog(`  - name: etcdoperator.v0.9.2
    replaces: etcdoperator.v0.9.0
  - name: etcdoperator.v0.9.4
    replaces: etcdoperator.v0.9.2
  - name: etcdoperator.v0.9.5
    replaces: etcdoperator.v0.9.4
    skipRange: '>=0.9.0 <0.9.4'
---
schema: olm.channel
package: etcd
name: beta
entries:
  - name: etcdoperator.v0.9.5
---
schema: olm.deprecations
package: etcd
entries:
  - reference:
      schema: olm.bundle
      name: etcdoperator.v0.9.2
    message: use 0.9.5
`, "0.9.2", "0.9.4", "0.9.5")

// writeFiles writes files (path relative to dir: content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// lintRun lints paths and fails the test if linting cannot run.
func lintRun(t *testing.T, paths []string, opts lint.Options) *lint.Result {
	t.Helper()
	res, err := lint.Lint(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
