// Package linttest holds what the tests of lint's packages share: small
// catalogs with an upgrade chain, a repository configuration, files written under a directory, and a
// copy of the module's testdata/repo as a git repository.
package linttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// GoodConfig is a repository's lint configuration (.opm-lint.yaml) with
// a target, a rule turned off, one given a severity, one turned on, and
// two ignores, each with its reason.
const GoodConfig = `# the repository's lint configuration
target: olmv1
rules:
  csv-fields: off
  dangling-reference: error
  removed-api: on
ignore:
  - rule: removed-api
    package: etcd
    bundle: etcdoperator.v0.9.2
    reason: shipped before OpenShift 4.12; kept so that installs upgrade
  - package: legacy
    reason: frozen
`

// ChainCatalog is a catalog of etcd whose alpha channel has the entries
// given (YAML list items) and a bundle for each version.
func ChainCatalog(entries string, versions ...string) string {
	s := "---\nschema: olm.package\nname: etcd\ndefaultChannel: alpha\n---\nschema: olm.channel\npackage: etcd\nname: alpha\nentries:\n" + entries
	for _, v := range versions {
		s += "---\nschema: olm.bundle\nname: etcdoperator.v" + v + "\npackage: etcd\nimage: quay.io/operatorhubio/etcd:v" + v +
			"\nproperties:\n  - type: olm.package\n    value:\n      packageName: etcd\n      version: " + v + "\n"
	}
	return s
}

// Chain3 is 0.9.0 <- 0.9.2 <- 0.9.4 by replaces.
var Chain3 = ChainCatalog(`  - name: etcdoperator.v0.9.0
  - name: etcdoperator.v0.9.2
    replaces: etcdoperator.v0.9.0
  - name: etcdoperator.v0.9.4
    replaces: etcdoperator.v0.9.2
`, "0.9.0", "0.9.2", "0.9.4")

// ChangedChain is Chain3 after a release: 0.9.5 replaces 0.9.4 and
// skipRanges the older ones, 0.9.0 is taken out, 0.9.2 deprecated, and a
// new channel beta holds 0.9.5.
var ChangedChain = ChainCatalog(`  - name: etcdoperator.v0.9.2
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

// WriteFiles writes files (path relative to dir: content) under dir.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
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

// GitRepo copies the repository src (testdata/repo, as the test's
// working directory reaches it) into a temporary directory, makes it a
// git repository with one commit, and returns it with a function that
// commits what changed since. A test without git installed is skipped.
func GitRepo(t testing.TB, src string) (root string, commit func(msg string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root = filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=ci@example.com", "-c", "user.name=ci"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitIn("init", "-q")
	commit = func(msg string) {
		gitIn("add", "-A")
		gitIn("commit", "-qm", msg)
	}
	commit("before")
	return root, commit
}
