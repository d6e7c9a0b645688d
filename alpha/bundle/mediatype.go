package bundle

import (
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/registryv1"
)

// The bundle media types.
const (
	RegistryV1 = "registry+v1"
	Helm       = "helm"
	Plain      = "plain"
)

// MediaType tells what kind of bundle the files directly in dir make, as
// upstream does: a directory with a valid Helm Chart.yaml is a helm
// bundle, one with a ClusterServiceVersion among its files registry+v1,
// anything else plain. A directory without files is an error.
func MediaType(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("bundle directory %s: %w", dir, fserr.Cause(err))
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() {
			files = append(files, e.Name())
		}
	}
	if len(files) == 0 {
		return "", fmt.Errorf("bundle directory %s has no files: it should hold the bundle's manifests (the CSV, CRDs and other objects)", dir)
	}
	if isChartDir(dir) {
		return Helm, nil
	}
	csv := false
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", fmt.Errorf("bundle directory %s: cannot read %s: %w", dir, name, fserr.Cause(err))
		}
		if obj, ok := registryv1.FirstObject(data, 10); ok && obj.StringAt("kind") == "ClusterServiceVersion" {
			csv = true
		}
	}
	if csv {
		return RegistryV1, nil
	}
	return Plain, nil
}

// chartMetadata is the shape of a Helm Chart.yaml as upstream decodes it
// (field names lower-cased, so that only these keys and types count).
type chartMetadata struct {
	Name         string
	Home         string
	Sources      []string
	Version      string
	Description  string
	Keywords     []string
	Maintainers  []*struct{ Name, Email, URL string }
	Icon         string
	APIVersion   string
	Condition    string
	Tags         string
	AppVersion   string
	Deprecated   bool
	Annotations  map[string]string
	KubeVersion  string
	Dependencies []*struct {
		Name, Version, Repository, Condition string
		Tags                                 []string
		Enabled                              bool
		ImportValues                         []any
		Alias                                string
	}
	Type string
}

// isChartDir reports whether dir has a Chart.yaml that decodes as chart
// metadata with a name.
func isChartDir(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "Chart.yaml"))
	if err != nil {
		return false
	}
	var m *chartMetadata
	if err := yaml.Unmarshal(data, &m); err != nil || m == nil {
		return false
	}
	return m.Name != ""
}
