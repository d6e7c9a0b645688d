package osdk

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/lint/osdk/suites"
	"github.com/fbcat/opm/registryv1"
)

// The bundle format, as operator-registry's ValidateBundleFormat
// (v1.39.0, which operator-sdk v1.36.1 runs first) checks it: the
// annotations a registry+v1 bundle needs, and metadata/'s dependencies
// file. Operator-sdk prints what it finds as one error, "error
// validating format in DIR: Bundle validation errors: " and the
// problems joined by commas. The annotations are checked in the order
// of a Go map, which differs from run to run: they are sorted here.
// The directories and the annotations file were found already: lint
// reads no bundle without them, and a bundle whose manifests hold a CSV
// is of media type registry+v1.

// The annotations of a bundle's format.
const (
	annotationMediatype = "operators.operatorframework.io.bundle.mediatype.v1"
	annotationManifests = "operators.operatorframework.io.bundle.manifests.v1"
	annotationMetadata  = "operators.operatorframework.io.bundle.metadata.v1"
	annotationPackage   = "operators.operatorframework.io.bundle.package.v1"
	annotationChannels  = "operators.operatorframework.io.bundle.channels.v1"
	annotationDefault   = "operators.operatorframework.io.bundle.channel.default.v1"
)

// registryV1 is the media type of a bundle whose manifests hold a CSV.
const registryV1 = "registry+v1"

// formatOutputs is the format check's output, if it finds a problem: at
// the first annotation it names, else at the dependencies file.
func formatOutputs(b *suites.Bundle) []suites.Output {
	problems, first := annotationProblems(b.Files.Annotations)
	file, line := annotationsFile(b), 0
	if first != "" {
		_, line, _ = b.Files.Annotations.Get(first)
	}
	deps, depsFile := dependencyProblems(b)
	if len(problems) == 0 && len(deps) > 0 {
		file, line = depsFile, 0
	}
	problems = append(problems, deps...)
	if len(problems) == 0 {
		return nil
	}
	return []suites.Output{{
		Error:   true,
		Message: fmt.Sprintf("error validating format in %s: Bundle validation errors: %s", b.Dir, strings.Join(problems, ",")),
		File:    file,
		Line:    line,
	}}
}

// annotationsFile is the path of the annotations file from the bundle
// directory ("metadata/annotations.yaml"); "" when there is none.
func annotationsFile(b *suites.Bundle) string {
	if a := b.Files.Annotations; a != nil {
		return a.File
	}
	return ""
}

// annotationProblems lists what is wrong with the format's annotations,
// sorted, and the first annotation with a problem that is set.
func annotationProblems(ann *registryv1.Annotations) (problems []string, first string) {
	for _, key := range []string{annotationMediatype, annotationManifests, annotationMetadata, annotationPackage, annotationChannels, annotationDefault} {
		a, _, ok := ann.Get(key)
		before := len(problems)
		if !ok && key != annotationDefault {
			problems = append(problems, fmt.Sprintf("Missing annotation %q", key))
		}
		switch {
		case key == annotationMediatype && a != registryV1:
			problems = append(problems, fmt.Sprintf("Expecting annotation %q to have value %q instead of %q", key, registryV1, a))
		case key == annotationChannels && a == "", key == annotationDefault && ok && a == "":
			problems = append(problems, fmt.Sprintf("Expecting annotation %q to have non-empty value", key))
		}
		if ok && len(problems) > before && first == "" {
			first = key
		}
	}
	slices.Sort(problems)
	return problems, first
}

// dependencyProblems checks the first file of metadata/ (but the
// annotations file) that lists dependencies, and returns its problems
// and its path from the bundle directory. An olm.constraint's CEL
// expression is not compiled: operator-registry's CEL environment is not
// linked in.
func dependencyProblems(b *suites.Bundle) ([]string, string) {
	for _, m := range b.Files.Metadata {
		tree := m.Object
		if tree == nil || m.File == annotationsFile(b) {
			continue
		}
		var file struct {
			Dependencies []struct {
				Type  string          `json:"type"`
				Value json.RawMessage `json:"value"`
			} `json:"dependencies"`
		}
		if json.Unmarshal(value.AppendKubernetesJSON(nil, tree), &file) != nil || len(file.Dependencies) == 0 {
			continue
		}
		var problems []string
		for _, d := range file.Dependencies {
			problems = append(problems, dependencyProblem(d.Type, d.Value)...)
		}
		return problems, m.File
	}
	return nil, ""
}

// dependencyProblem checks one dependency as operator-registry does.
func dependencyProblem(typ string, raw json.RawMessage) []string {
	var out []string
	switch typ {
	case "olm.gvk":
		var d struct{ Group, Kind, Version string }
		if json.Unmarshal(raw, &d) != nil {
			break
		}
		for _, f := range [][2]string{{d.Group, "API Group is empty"}, {d.Version, "API Version is empty"}, {d.Kind, "API Kind is empty"}} {
			if f[0] == "" {
				out = append(out, f[1])
			}
		}
		return out
	case "olm.package":
		var d struct {
			PackageName string `json:"packageName"`
			Version     string `json:"version"`
		}
		if json.Unmarshal(raw, &d) != nil {
			break
		}
		return packageDependencyProblems(d.PackageName, d.Version)
	case "olm.label":
		var d struct {
			Label string `json:"label"`
		}
		if json.Unmarshal(raw, &d) != nil {
			break
		}
		if d.Label == "" {
			out = append(out, "Label information is missing")
		}
		return out
	case "olm.constraint":
		var d struct {
			Cel *struct {
				Rule string `json:"rule"`
			} `json:"cel"`
		}
		if json.Unmarshal(raw, &d) != nil {
			break
		}
		switch {
		case d.Cel == nil:
			out = append(out, "The CEL field is missing")
		case d.Cel.Rule == "":
			out = append(out, "The CEL expression is missing")
		}
		return out
	}
	return []string{fmt.Sprintf("couldn't parse dependency of type %s", typ)}
}

// packageDependencyProblems checks an olm.package dependency.
func packageDependencyProblems(name, version string) []string {
	var out []string
	if name == "" {
		out = append(out, "Package name is empty")
	}
	if version == "" {
		out = append(out, "Package version is empty")
	} else if _, err := semver.ParseRange(version); err != nil {
		out = append(out, "Invalid semver format version")
	}
	return out
}
