// Package bundle makes operator bundle images from a directory of
// manifests as upstream's "opm alpha bundle" commands do: the bundle's
// metadata/annotations.yaml and a bundle.Dockerfile (Generate), the image
// itself (BuilderCommand for a container engine, Build without one), and
// the way back from an image to its directories (Unpack).
package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fbcat/opm/internal/fserr"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/option"
)

// File names, and where a bundle image keeps its directories.
const (
	AnnotationsFile = "annotations.yaml"
	DockerfileName  = "bundle.Dockerfile"
	ManifestsDir    = "manifests/"
	MetadataDir     = "metadata/"
	DefaultBase     = "scratch"
)

// Options says what to generate.
type Options struct {
	// Directory holds the bundle's manifests.
	Directory string
	// OutputDir, if set, receives a copy of the manifests (OutputDir/manifests)
	// and the metadata; else metadata/ is made beside Directory.
	OutputDir string
	// Package, Channels (comma-separated) and DefaultChannel; when Package
	// or Channels is empty, they are read from the package directory
	// around Directory (see inferPackage).
	Package, Channels, DefaultChannel string
	// Overwrite replaces an existing annotations.yaml, bundle.Dockerfile
	// and copied manifests; without it, an existing annotations.yaml must
	// agree with what would be generated, and is kept.
	Overwrite bool
	// BaseImage is the Dockerfile's FROM (default "scratch").
	BaseImage string
	// WorkDir is where bundle.Dockerfile is written, and what its COPY
	// paths are relative to (default: the current directory).
	WorkDir string
}

// Result says what Generate found and did.
type Result struct {
	MediaType, Package, Channels, DefaultChannel string
	// Inferred is set when the package or channels came from the package
	// directory.
	Inferred bool
	// ManifestsDir and MetadataDir are the directories the image is made
	// of (absolute).
	ManifestsDir, MetadataDir string
	// Annotations and Dockerfile are the files' paths; the Written flags
	// say whether they were written (else an existing file was kept).
	Annotations, Dockerfile               string
	AnnotationsWritten, DockerfileWritten bool
	// Labels are the bundle image's labels (the Dockerfile's LABELs).
	Labels map[string]string
}

// Generate writes the bundle's metadata/annotations.yaml and
// bundle.Dockerfile with upstream's bytes, in upstream's places: metadata/
// beside the manifests directory (or in OutputDir), the Dockerfile in
// WorkDir. Everything is checked before anything is written.
func Generate(o Options) (*Result, error) {
	if o.BaseImage == "" {
		o.BaseImage = DefaultBase
	}
	dir, workDir, err := generateDirs(o)
	if err != nil {
		return nil, err
	}
	r, err := describe(o, dir)
	if err != nil {
		return nil, err
	}
	annotations, err := annotationsYAML(r.Labels)
	if err != nil {
		return nil, err
	}
	copyFrom, err := r.place(dir, o.OutputDir, workDir)
	if err != nil {
		return nil, err
	}
	writeAnnotations, writeDockerfile, err := r.toWrite(o.Overwrite)
	if err != nil {
		return nil, err
	}
	dockerfile, err := dockerfileContent(o.BaseImage, r, workDir)
	if err != nil {
		return nil, err
	}

	if copyFrom != "" {
		if err := copyTree(copyFrom, r.ManifestsDir, o.Overwrite); err != nil {
			return nil, err
		}
	}
	if writeAnnotations {
		if err := writeFile(r.Annotations, annotations); err != nil {
			return nil, err
		}
		r.AnnotationsWritten = true
	}
	if writeDockerfile {
		if err := writeFile(r.Dockerfile, dockerfile); err != nil {
			return nil, err
		}
		r.DockerfileWritten = true
	}
	return r, nil
}

// generateDirs returns the bundle directory and the work directory (the
// current one if o names none), absolute, and checks that the bundle
// directory is a directory.
func generateDirs(o Options) (dir, workDir string, err error) {
	if dir, err = filepath.Abs(o.Directory); err != nil {
		return "", "", err
	}
	workDir = o.WorkDir
	if workDir == "" {
		if workDir, err = os.Getwd(); err != nil {
			return "", "", err
		}
	}
	if workDir, err = filepath.Abs(workDir); err != nil {
		return "", "", err
	}
	if st, err := os.Stat(dir); err != nil {
		return "", "", fmt.Errorf("bundle directory %s: %w", o.Directory, fserr.Cause(err))
	} else if !st.IsDir() {
		return "", "", fmt.Errorf("bundle directory %s is not a directory", o.Directory)
	}
	return dir, workDir, nil
}

// describe works out what the bundle in dir is: its media type, its
// package and channels (as o gives them, else from the package directory
// around dir), and so the image's labels.
func describe(o Options, dir string) (*Result, error) {
	r := &Result{Package: o.Package, Channels: o.Channels, DefaultChannel: o.DefaultChannel}
	var err error
	if r.MediaType, err = MediaType(dir); err != nil {
		return nil, err
	}
	if r.Channels == "" || r.Package == "" {
		info, err := inferPackage(dir)
		if err != nil {
			return nil, inferError(&InferError{Dir: o.Directory, Err: err})
		}
		r.Inferred = true
		if r.Channels == "" {
			if len(info.Channels) == 0 {
				return nil, inferError(&InferError{Dir: o.Directory, Err: errNoChannels})
			}
			r.Channels = strings.Join(info.Channels, ",")
		}
		if r.Package == "" {
			r.Package = info.Package
		}
		if r.DefaultChannel == "" {
			r.DefaultChannel = info.DefaultChannel
		}
	}
	r.Labels = map[string]string{
		labels.MediaType: r.MediaType,
		labels.Manifests: ManifestsDir,
		labels.Metadata:  MetadataDir,
		labels.Package:   r.Package,
		labels.Channels:  r.Channels,
	}
	if r.DefaultChannel != "" {
		r.Labels[labels.DefaultChannel] = r.DefaultChannel
	}
	return r, nil
}

// place sets where the image's directories and the generated files are:
// the manifests in dir and metadata/ beside it, or both in outputDir,
// into which the manifests of copyFrom (dir) are to be copied; the
// Dockerfile in workDir.
func (r *Result) place(dir, outputDir, workDir string) (copyFrom string, err error) {
	parent := filepath.Dir(dir)
	r.ManifestsDir = dir
	if outputDir != "" {
		if parent, err = filepath.Abs(outputDir); err != nil {
			return "", err
		}
		r.ManifestsDir, copyFrom = filepath.Join(parent, "manifests"), dir
	}
	r.MetadataDir = filepath.Join(parent, "metadata")
	r.Annotations = filepath.Join(r.MetadataDir, AnnotationsFile)
	r.Dockerfile = filepath.Join(workDir, DockerfileName)
	return copyFrom, nil
}

// toWrite says which of the annotations file and the Dockerfile to
// write: those that do not exist yet, or both with overwrite. Without
// overwrite, an existing annotations file must agree with the labels.
func (r *Result) toWrite(overwrite bool) (annotations, dockerfile bool, err error) {
	annotations, dockerfile = overwrite, overwrite
	if existing, err := os.ReadFile(r.Annotations); errors.Is(err, fs.ErrNotExist) {
		annotations = true
	} else if err != nil {
		return false, false, fmt.Errorf("reading %s: %w", r.Annotations, fserr.Cause(err))
	} else if !overwrite {
		if err := checkAnnotations(r.Annotations, existing, r.Labels); err != nil {
			return false, false, err
		}
	}
	if _, err := os.Lstat(r.Dockerfile); errors.Is(err, fs.ErrNotExist) {
		dockerfile = true
	} else if err != nil {
		return false, false, err
	}
	return annotations, dockerfile, nil
}

// annotationsYAML writes the annotations file as upstream does (YAML,
// two-space indent, keys sorted).
func annotationsYAML(labels map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(struct {
		Annotations map[string]string `yaml:"annotations"`
	}{labels}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checkAnnotations compares an existing annotations file with the
// annotations that would be generated: each must be there with the same
// value (others may be added).
func checkAnnotations(file string, existing []byte, want map[string]string) error {
	var doc struct {
		Annotations map[string]yaml.Node `yaml:"annotations"`
	}
	if err := yaml.Unmarshal(existing, &doc); err != nil {
		return fmt.Errorf("%s: %w (overwrite it to generate a new one)", file, err)
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var problems []string
	for _, k := range keys {
		n, ok := doc.Annotations[k]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s is missing (expected %q)", k, want[k]))
		case n.Kind != yaml.ScalarNode:
			problems = append(problems, fmt.Sprintf("%s is not a string (expected %q)", k, want[k]))
		case n.Value != want[k]:
			problems = append(problems, fmt.Sprintf("%s is %q, expected %q", k, n.Value, want[k]))
		}
	}
	if len(problems) > 0 {
		return option.Errorf(option.Lifts, "%w (replace it with %s)", &AnnotationsMismatchError{File: file, Problems: problems}, option.Name("alpha/bundle.Options.Overwrite"))
	}
	return nil
}

// AnnotationsMismatchError is an existing annotations file that does not
// agree with the bundle.
type AnnotationsMismatchError struct {
	File     string
	Problems []string
}

func (e *AnnotationsMismatchError) Error() string {
	return fmt.Sprintf("existing %s does not match the bundle: %s", e.File, strings.Join(e.Problems, "; "))
}

// dockerfileContent is upstream's bundle.Dockerfile: FROM, the labels,
// and COPY of the two directories relative to workDir.
func dockerfileContent(base string, r *Result, workDir string) ([]byte, error) {
	manifests, err := filepath.Rel(workDir, r.ManifestsDir)
	if err != nil {
		return nil, err
	}
	metadata, err := filepath.Rel(workDir, r.MetadataDir)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "FROM %s\n\n", base)
	for _, k := range []string{labels.MediaType, labels.Manifests, labels.Metadata, labels.Package, labels.Channels} {
		fmt.Fprintf(&b, "LABEL %s=%s\n", k, r.Labels[k])
	}
	if r.DefaultChannel != "" {
		fmt.Fprintf(&b, "LABEL %s=%s\n\n", labels.DefaultChannel, r.DefaultChannel)
	}
	fmt.Fprintf(&b, "COPY %s /manifests/\n", filepath.ToSlash(manifests))
	fmt.Fprintf(&b, "COPY %s /metadata/\n", filepath.ToSlash(metadata))
	return []byte(b.String()), nil
}
