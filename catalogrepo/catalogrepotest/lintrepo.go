// Operator directories for the lint benchmarks, made of real content: the versions of an
// operator are copies of a real registry+v1 bundle directory, each with
// its own CSV name, version and replaces, and CRDs that change from one
// version to the next as real operators' do (descriptions every time, a
// field added now and then, and sometimes one removed, which
// crd-upgrade-unsafe reports). Its catalogs are rendered from the bundle
// directories as the community pipeline renders them: with their
// manifests as olm.bundle.object for OpenShift 4.16 and before, as
// olm.csv.metadata after.

package catalogrepotest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LintRepo shapes an operator directory for the lint benchmarks.
type LintRepo struct {
	// Source is the real bundle directory every version is made from.
	Source string
	// Package names the operator (its directory and package); "" keeps
	// the source's package.
	Package string
	// Bundles is how many bundle directories (versions) there are.
	Bundles int
	// InCatalogs is how many of them, the newest, the catalogs hold (0:
	// all).
	InCatalogs int
	// ObjectCatalogs and MetaCatalogs name the catalogs (v4.N) whose
	// bundles carry olm.bundle.object and olm.csv.metadata.
	ObjectCatalogs, MetaCatalogs []string
	// OpenShift is every bundle's com.redhat.openshift.versions.
	OpenShift string
}

// SailShape is shaped like the community repository's sailoperator: 43
// bundle directories of large CRDs, 32 of them in six catalogs.
func SailShape(source string) LintRepo {
	return LintRepo{Source: source, Package: "sail-bench", Bundles: 43, InCatalogs: 32,
		ObjectCatalogs: []string{"v4.15", "v4.16"}, MetaCatalogs: []string{"v4.17", "v4.18", "v4.19", "v4.20"}, OpenShift: "v4.15"}
}

// HiveShape is shaped like hive-operator: 225 small bundle directories, 106
// of them in six catalogs.
func HiveShape(source string) LintRepo {
	return LintRepo{Source: source, Package: "hive-bench", Bundles: 225, InCatalogs: 106,
		ObjectCatalogs: []string{"v4.15", "v4.16"}, MetaCatalogs: []string{"v4.17", "v4.18", "v4.19", "v4.20"}, OpenShift: "v4.15"}
}

// LintRepoVersion is the version of the i-th bundle.
func LintRepoVersion(i int) string { return fmt.Sprintf("1.%d.%d", i/10, i%10) }

// WriteLintRepo writes operators/<pkg>/ (ci.yaml and the bundle directories) and
// catalogs/<v4.N>/<pkg>/catalog.yaml under root, and returns the
// package's name.
func WriteLintRepo(root string, o LintRepo) (string, error) {
	src, err := readSource(o.Source)
	if err != nil {
		return "", err
	}
	pkg := o.Package
	if pkg == "" {
		pkg = src.pkg
	}
	opDir := filepath.Join(root, "operators", pkg)
	if err := os.MkdirAll(opDir, 0o755); err != nil {
		return "", err
	}
	var dirs []string
	for i := 0; i < o.Bundles; i++ {
		dir := filepath.Join(opDir, LintRepoVersion(i))
		if err := src.writeVersion(dir, pkg, i, o.OpenShift); err != nil {
			return "", err
		}
		dirs = append(dirs, dir)
	}
	if err := writeCI(opDir, o); err != nil {
		return "", err
	}
	if n := o.InCatalogs; n > 0 && n < len(dirs) {
		dirs = dirs[len(dirs)-n:]
	}
	return pkg, writeCatalogs(root, pkg, dirs, o)
}

// writeCI writes ci.yaml, mapping a basic template to each catalog.
func writeCI(opDir string, o LintRepo) error {
	var b strings.Builder
	b.WriteString("---\nfbc:\n  enabled: true\n  catalog_mapping:\n")
	for _, c := range append(append([]string{}, o.ObjectCatalogs...), o.MetaCatalogs...) {
		fmt.Fprintf(&b, "    - template_name: %s.yaml\n      catalog_names: [%q]\n      type: olm.template.basic\n", c, c)
	}
	return os.WriteFile(filepath.Join(opDir, "ci.yaml"), []byte(b.String()), 0o644)
}
