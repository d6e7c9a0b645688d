// Package layout tells what a directory is in a catalog repository (the
// layout of the community and certified operator repositories):
// operators/ and its operator directories (operators/<pkg>/, with a
// ci.yaml), a catalogs directory of OpenShift catalogs (catalogs/v4.N),
// and the OpenShift version of a catalog by its name or place. Lint
// decides by it what to lint a path as, and the baseline what of the
// repository a path needs.
package layout

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fbcat/opm/registryv1/openshift"
)

// RepoConfig is the repository's configuration file at its root
// (config.yaml: the allowed bundle registries, the organization), which
// the hosted pipeline reads.
const RepoConfig = "config.yaml"

// IsOperatorDir reports whether dir is operators/<pkg>/ of a catalog
// repository: it has a ci.yaml and its parent is named operators.
func IsOperatorDir(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "ci.yaml")); err != nil {
		return false
	}
	abs, err := filepath.Abs(dir)
	return err == nil && filepath.Base(filepath.Dir(abs)) == "operators"
}

// OperatorDirsIn lists the operator directories of dir when it is the
// operators/ directory of a catalog repository.
func OperatorDirsIn(dir string) []string {
	abs, err := filepath.Abs(dir)
	if err != nil || filepath.Base(abs) != "operators" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if d := filepath.Join(dir, e.Name()); e.IsDir() && IsOperatorDir(d) {
			out = append(out, d)
		}
	}
	return out
}

// IsCatalogsRoot reports whether dir is a directory of OpenShift
// catalogs (catalogs/ of a catalog repository): it holds directories
// named v4.N and no files but hidden ones.
func IsCatalogsRoot(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	found := false
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Name(), "."):
		case !e.IsDir():
			return false
		case IsCatalogName(e.Name()):
			found = true
		}
	}
	return found
}

// CatalogVersion reads the OpenShift version of a catalog named for it,
// such as v4.17: the v is required and the major version is 4.
func CatalogVersion(name string) (openshift.Version, bool) {
	v, withV, err := openshift.ParseVersion(name)
	return v, err == nil && withV && v.Major == 4
}

// IsCatalogName reports whether name is that of an OpenShift catalog
// (see CatalogVersion).
func IsCatalogName(name string) bool {
	_, ok := CatalogVersion(name)
	return ok
}

// CatalogVersionOf is the OpenShift version of a catalog directory that
// lies in catalogs/v4.N/ (or is it); ok is false for any other.
func CatalogVersionOf(dir string) (v openshift.Version, ok bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return v, false
	}
	for d := abs; d != filepath.Dir(d); d = filepath.Dir(d) {
		if filepath.Base(filepath.Dir(d)) != "catalogs" {
			continue
		}
		if v, ok := CatalogVersion(filepath.Base(d)); ok {
			return v, true
		}
	}
	return v, false
}
