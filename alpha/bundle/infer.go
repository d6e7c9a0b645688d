package bundle

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/registryv1"
)

// InferError says why the package and channels could not be read from
// the layout of the directories around a bundle.
type InferError struct {
	Dir string // the bundle directory
	Err error
}

func (e *InferError) Error() string {
	return fmt.Sprintf("cannot infer the package and channels of bundle directory %s from its package directory: %v", e.Dir, e.Err)
}

func (e *InferError) Unwrap() error { return e.Err }

// inferError is an InferError, which giving the package and channels
// lifts.
func inferError(e *InferError) error {
	return option.Errorf(option.Lifts, "%w (or give them with %s and %s)", e, option.Name("alpha/bundle.Options.Package"), option.Name("alpha/bundle.Options.Channels"))
}

// packageInfo is what the nested "package directory" layout tells about
// a bundle: a package directory holds a package manifest
// (*.package.yaml: packageName, channels with their currentCSV,
// defaultChannel) and one directory of manifests per bundle.
type packageInfo struct {
	Package        string
	Channels       []string // sorted
	DefaultChannel string
}

// inferPackage reads the package directory around bundleDir as upstream
// does: the bundle is in every channel whose head reaches its CSV through
// replaces and skips (olm.skipRange is not followed).
func inferPackage(bundleDir string) (*packageInfo, error) {
	csv, err := readCSV(bundleDir)
	if err != nil {
		return nil, err
	}
	name := csv.StringAt("metadata", "name")
	pkgDir := filepath.Dir(bundleDir)
	entries, err := os.ReadDir(pkgDir)
	if err != nil {
		return nil, fmt.Errorf("reading package directory %s: %w", pkgDir, fserr.Cause(err))
	}
	edges := map[string][]string{} // CSV name -> the CSVs it replaces or skips
	var manifest *value.Value
	var manifestFiles []string
	for _, e := range entries {
		p := filepath.Join(pkgDir, e.Name())
		if e.IsDir() {
			c, err := readCSV(p)
			if err != nil {
				return nil, fmt.Errorf("every directory of package directory %s must be a bundle: %w", pkgDir, err)
			}
			edges[c.StringAt("metadata", "name")] = replacedCSVs(c)
			continue
		}
		manifestFiles = append(manifestFiles, e.Name())
		if manifest == nil {
			manifest = readPackageManifest(p)
		}
	}
	if manifest == nil {
		return nil, fmt.Errorf("package directory %s has no package manifest (a file with packageName, channels and their currentCSV) among its files %v", pkgDir, manifestFiles)
	}
	info := &packageInfo{Package: manifest.StringAt("packageName")}
	var channels []string
	if list, ok := manifest.Get("channels"); ok {
		for i := range list.Items {
			ch := &list.Items[i]
			channels = append(channels, ch.StringAt("name"))
			if reaches(edges, ch.StringAt("currentCSV"), name) {
				info.Channels = append(info.Channels, ch.StringAt("name"))
			}
		}
	}
	sort.Strings(info.Channels)
	info.DefaultChannel = manifest.StringAt("defaultChannel")
	if info.DefaultChannel == "" && len(channels) == 1 {
		info.DefaultChannel = channels[0]
	}
	return info, nil
}

// readCSV finds the one ClusterServiceVersion among the files directly in
// dir.
func readCSV(dir string) (*value.Value, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading bundle directory %s: %w", dir, fserr.Cause(err))
	}
	var csv *value.Value
	var csvFile string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		obj, ok := registryv1.FirstObject(data, 30)
		if !ok || obj.StringAt("kind") != "ClusterServiceVersion" {
			continue
		}
		if csv != nil {
			return nil, fmt.Errorf("bundle directory %s has more than one ClusterServiceVersion (%s and %s)", dir, csvFile, e.Name())
		}
		csv, csvFile = obj, e.Name()
	}
	if csv == nil {
		return nil, fmt.Errorf("no ClusterServiceVersion found in %s", dir)
	}
	return csv, nil
}

// replacedCSVs lists spec.skips and spec.replaces.
func replacedCSVs(csv *value.Value) []string {
	var out []string
	if skips := csv.At("spec", "skips"); skips != nil && skips.Kind == value.Array {
		for _, s := range skips.Items {
			if s.Kind == value.String {
				out = append(out, s.Str)
			}
		}
	}
	if r := csv.StringAt("spec", "replaces"); r != "" {
		out = append(out, r)
	}
	return out
}

// reaches reports whether target is head or reached from it by edges.
func reaches(edges map[string][]string, head, target string) bool {
	seen := map[string]bool{}
	todo := []string{head}
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if n == target {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		todo = append(todo, edges[n]...)
	}
	return false
}

// readPackageManifest decodes a package manifest file; nil if the file is
// not one (upstream skips such files).
func readPackageManifest(file string) *value.Value {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	obj, ok := registryv1.FirstObject(data, 30)
	if !ok || obj.StringAt("packageName") == "" {
		return nil
	}
	for _, key := range []string{"defaultChannel", "packageName"} {
		if v, ok := obj.Get(key); ok && v.Kind != value.String && v.Kind != value.Null {
			return nil
		}
	}
	if chs, ok := obj.Get("channels"); ok {
		if chs.Kind != value.Array && chs.Kind != value.Null {
			return nil
		}
		for _, ch := range chs.Items {
			if ch.Kind != value.Object {
				return nil
			}
			for _, key := range []string{"name", "currentCSV"} {
				if v, ok := ch.Get(key); ok && v.Kind != value.String && v.Kind != value.Null {
					return nil
				}
			}
		}
	}
	return obj
}

var errNoChannels = errors.New("the bundle is in no channel of its package manifest")
