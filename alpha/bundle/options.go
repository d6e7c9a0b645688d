package bundle

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fbcat/opm/option"
)

// Validate checks that the options name the bundle's manifests.
func (o Options) Validate() error {
	if o.Directory == "" {
		return option.Required("alpha/bundle.Options.Directory", "the directory where the bundle's manifests are")
	}
	return nil
}

// Build says how a bundle image is built after Generate: by a container
// engine (Builder docker, podman or buildah, from bundle.Dockerfile,
// kept in its store as Tag) or, with None, in process and written to Tag.
type Build struct {
	Tag, Builder string
}

// Validate checks that the image has a tag and a builder opm knows.
func (b Build) Validate() error {
	if b.Tag == "" {
		return option.Required("alpha/bundle.Build.Tag", "the image tag applied to the bundle image")
	}
	if err := CheckBuilder(b.Builder); err != nil {
		return option.Invalidf("alpha/bundle.Build.Builder", "%v", err)
	}
	return nil
}

// Run builds the image with the container engine from the
// bundle.Dockerfile in workDir, its output going to stdout and stderr.
func (b Build) Run(workDir string, stdout, stderr io.Writer) error {
	run, err := BuilderCommand(b.Builder, b.Tag, workDir)
	if err != nil {
		return err
	}
	run.Stdout, run.Stderr = stdout, stderr
	if err := run.Run(); err != nil {
		return fmt.Errorf("%s failed: %w", run.String(), err)
	}
	return nil
}

// Report writes what Generate did, a line each: the package and channels
// it inferred, and each file it wrote or kept (named relative to the
// working directory when below it).
func (r *Result) Report(w io.Writer) {
	if r.Inferred {
		fmt.Fprintf(w, "inferred from the package directory: package %s, channels %s, default channel %q\n", r.Package, r.Channels, r.DefaultChannel)
	}
	for _, f := range []struct {
		path    string
		written bool
	}{{r.Annotations, r.AnnotationsWritten}, {r.Dockerfile, r.DockerfileWritten}} {
		if f.written {
			fmt.Fprintf(w, "wrote %s\n", displayPath(f.path))
		} else {
			fmt.Fprintf(w, "kept existing %s\n", displayPath(f.path))
		}
	}
}

// displayPath shows a path relative to the current directory when it is
// below it.
func displayPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}
