package pipeline

import (
	"fmt"
	"strings"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/finding"
)

// Operator is an operator directory (operators/<name>/) as the
// pipeline's checks read it.
type Operator struct {
	// Dir is the directory as positions name it; Name its base name,
	// which the pipeline calls the operator's name.
	Dir, Name string
	// Root is the repository root, as positions name it.
	Root string
	// CI is the operator's ci.yaml; Repo the repository's config.yaml.
	CI, Repo *Config
	// Bundles are its bundle directories, in directory order.
	Bundles []*Bundle
	// Released are the bundles its catalogs hold that have no bundle
	// directory (see operatorname.go).
	Released []Released
}

// Released is a bundle of the operator's catalogs: its name (its CSV's)
// and package.
type Released struct{ Name, Package string }

// Bundle is a bundle directory of the operator.
type Bundle struct {
	// Dir is the directory as positions name it.
	Dir string
	// Name is its CSV's metadata.name; Package the package its
	// annotations name.
	Name, Package string
	// CSV is the ClusterServiceVersion's tree (its nodes' lines are the
	// file's), CSVFile its file and CSVLine its first line.
	CSV     *value.Value
	CSVFile string
	CSVLine int
	// Annotations are the annotations file's annotations (the file
	// registryv1 and opm take: metadata/annotations.yaml, which the
	// pipeline reads by name, in every repository), in AnnotationsFile.
	Annotations     map[string]*value.Value
	AnnotationsFile string
	// Manifests are the objects of manifests/ (each file's first).
	Manifests []Manifest
	// ReleaseConfig is its release-config.yaml (no document without one).
	ReleaseConfig *Config
}

// Manifest is an object of a bundle's manifests/.
type Manifest struct {
	File, Kind, APIVersion string
	Line                   int
}

// Catalog is a catalog the operator's ci.yaml maps, loaded.
type Catalog struct {
	// Name is the catalog's name (v4.17), File its file as positions
	// name it.
	Name, File string
	// Bundles are its olm.bundle objects, in the file's order.
	Bundles []*declcfg.Bundle
}

// at is the line of a node of the CSV (its first line for nil or a node
// without one).
func (b *Bundle) at(n *value.Value) int {
	if n == nil || n.Line == 0 {
		return b.CSVLine
	}
	return int(n.Line)
}

// csv follows members of the CSV.
func (b *Bundle) csv(keys ...string) *value.Value { return b.CSV.At(keys...) }

// annotation returns an annotation as text and its line.
func (b *Bundle) annotation(key string) (v *value.Value, line int) {
	v = b.Annotations[key]
	if v == nil {
		return nil, 1
	}
	return v, int(v.Line)
}

// version is the bundle directory's name, which the pipeline calls the
// operator version.
func (b *Bundle) version() string { return lastElem(b.Dir) }

// ref names a bundle as the pipeline prints one: Bundle(<operator>/<dir>).
func (o *Operator) ref(b *Bundle) string {
	return fmt.Sprintf("Bundle(%s/%s)", o.Name, b.version())
}

// fbc reports whether ci.yaml's fbc.enabled is true (as Python reads a
// value as a condition): the pipeline skips some checks of such
// operators (its skip_fbc).
func (o *Operator) fbc() bool { return truthy(o.CI.get("fbc", "enabled")) }

// finding makes a finding about the operator as a whole.
func (o *Operator) finding(rule string, sev finding.Severity, file string, line int, format string, args ...any) finding.Finding {
	return finding.Finding{Rule: rule, Severity: sev, Package: o.Name, File: file, Line: line, Message: fmt.Sprintf(format, args...)}
}

// atConfig is a finding about a configuration file at the node n (nil:
// its first line).
func (o *Operator) atConfig(rule string, sev finding.Severity, t *Config, n *value.Value, format string, args ...any) finding.Finding {
	line := 1
	if n != nil && n.Line > 0 {
		line = int(n.Line)
	}
	return o.finding(rule, sev, t.File, line, format, args...)
}

// inBundle makes a finding about a bundle directory.
func inBundle(rule string, sev finding.Severity, b *Bundle, file string, line int, format string, args ...any) finding.Finding {
	return finding.Finding{Rule: rule, Severity: sev, Package: b.Package, Bundle: b.Name, File: file, Line: line, Message: fmt.Sprintf(format, args...)}
}

// atCSV is a finding about a bundle's CSV at the node n (nil: its first
// line).
func atCSV(rule string, sev finding.Severity, b *Bundle, n *value.Value, format string, args ...any) finding.Finding {
	return inBundle(rule, sev, b, b.CSVFile, b.at(n), format, args...)
}

// truthy is a value as Python takes it for a condition.
func truthy(v *value.Value) bool {
	if v == nil {
		return false
	}
	switch v.Kind {
	case value.Bool:
		return v.Bool
	case value.Number:
		return v.Num != 0
	case value.String:
		return v.Str != ""
	case value.Array:
		return len(v.Items) > 0
	case value.Object:
		return len(v.Fields) > 0
	}
	return false
}

// lastElem is the last element of a slash or separator path.
func lastElem(p string) string {
	p = strings.TrimRight(strings.ReplaceAll(p, `\`, "/"), "/")
	return p[strings.LastIndex(p, "/")+1:]
}
