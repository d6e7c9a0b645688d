package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/bundle"
	"github.com/fbcat/opm/image"
)

func newBundleCmd(reg *registryFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bundle",
		Short: "Operator bundle commands",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newBundleGenerateCmd(), newBundleBuildCmd(reg), newBundleUnpackCmd(reg))
	return cmd
}

// bundleFlags are the flags generate and build share.
type bundleFlags struct {
	directory, pkg, channels, defaultChannel, outputDir, baseImage string
}

func (b *bundleFlags) add(cmd *cobra.Command, directoryUsage string) {
	f := cmd.Flags()
	f.StringVarP(&b.directory, "directory", "d", "", directoryUsage)
	f.StringVarP(&b.pkg, "package", "p", "", "The name of the package that bundle image belongs to (required unless the directory is a bundle in the nested package directory format)")
	f.StringVarP(&b.channels, "channels", "c", "", "The list of channels that bundle image belongs to (required unless the directory is a bundle in the nested package directory format)")
	f.StringVarP(&b.defaultChannel, "default", "e", "", "The default channel for the bundle image")
	f.StringVarP(&b.outputDir, "output-dir", "u", "", "Optional output directory for operator manifests")
	f.StringVar(&b.baseImage, "base-image", bundle.DefaultBase, "Use a custom image pullspec as the base bundle image")
}

// generate runs bundle.Generate and reports what it did on stderr.
func (b *bundleFlags) generate(cmd *cobra.Command, overwrite bool) (*bundle.Result, error) {
	if b.directory == "" {
		return nil, usageError{errors.New(`required flag(s) "directory" not set`)}
	}
	r, err := bundle.Generate(bundle.Options{
		Directory: b.directory, OutputDir: b.outputDir,
		Package: b.pkg, Channels: b.channels, DefaultChannel: b.defaultChannel,
		Overwrite: overwrite, BaseImage: b.baseImage,
	})
	var inferErr *bundle.InferError
	var mismatch *bundle.AnnotationsMismatchError
	switch {
	case errors.As(err, &inferErr):
		return nil, fmt.Errorf("%w (or give them with --package and --channels)", err)
	case errors.As(err, &mismatch):
		return nil, fmt.Errorf("%w (replace it with --overwrite)", err)
	case err != nil:
		return nil, err
	}
	w := cmd.ErrOrStderr()
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
	return r, nil
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

func newBundleGenerateCmd() *cobra.Command {
	var b bundleFlags
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Generate operator bundle metadata and Dockerfile",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := b.generate(cmd, true)
			return err
		},
	}
	b.add(cmd, "The directory where bundle manifests for a specific version are located.")
	return cmd
}

func newBundleBuildCmd(reg *registryFlags) *cobra.Command {
	var b bundleFlags
	var tag, builder string
	var overwrite bool
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Build operator bundle image",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkBuildFlags(b.directory, tag, builder); err != nil {
				return err
			}
			var created time.Time
			if builder == bundle.None {
				if err := reg.check(); err != nil {
					return err
				}
				var err error
				if created, err = sourceDateEpoch(); err != nil {
					return err
				}
			}
			r, err := b.generate(cmd, overwrite)
			if err != nil {
				return err
			}
			if builder == bundle.None {
				digest, err := bundle.BuildImage(cmd.Context(), r, b.baseImage, tag, created, reg.imageOptions(cmd, platformFlag{}))
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote image %s (%s)\n", tag, digest)
				return nil
			}
			return runImageBuilder(cmd, builder, tag)
		},
	}
	b.add(cmd, "The directory where bundle manifests and metadata for a specific version are located")
	f := cmd.Flags()
	f.StringVarP(&tag, "tag", "t", "", "The image tag applied to the bundle image (with --image-builder none: oci:DIR[:NAME] or a registry reference to push to)")
	f.StringVarP(&builder, "image-builder", "b", bundle.Docker, "Tool used to manage container images. One of: [docker, podman, buildah, none]")
	f.BoolVarP(&overwrite, "overwrite", "o", false, "To overwrite annotations.yaml and bundle.Dockerfile locally if existed. By default, overwrite is set to false.")
	return cmd
}

// checkBuildFlags checks the flags bundle build needs.
func checkBuildFlags(directory, tag, builder string) error {
	if directory == "" {
		return usageError{errors.New(`required flag(s) "directory" not set`)}
	}
	if tag == "" {
		return usageError{errors.New(`required flag(s) "tag" not set`)}
	}
	if err := bundle.CheckBuilder(builder); err != nil {
		return usageError{err}
	}
	return nil
}

// runImageBuilder builds the bundle image with a container engine (docker,
// podman, buildah) from bundle.Dockerfile in the working directory.
func runImageBuilder(cmd *cobra.Command, builder, tag string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	run, err := bundle.BuilderCommand(builder, tag, wd)
	if err != nil {
		return err
	}
	run.Stdout, run.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
	if err := run.Run(); err != nil {
		return fmt.Errorf("%s failed: %w", run.String(), err)
	}
	return nil
}

// sourceDateEpoch is $SOURCE_DATE_EPOCH, or the Unix epoch.
func sourceDateEpoch() (time.Time, error) {
	s := os.Getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a number of seconds since 1970", s)
	}
	return time.Unix(n, 0).UTC(), nil
}

func newBundleUnpackCmd(reg *registryFlags) *cobra.Command {
	var out, rootCA string
	var debug, skipValidation bool
	cmd := &cobra.Command{
		Use:   "unpack BUNDLE_NAME[:TAG|@DIGEST]",
		Short: "Unpacks the content of an operator bundle",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			opts := reg.imageOptions(cmd, platformFlag{})
			if rootCA != "" {
				t, err := image.TransportWithRootCA(opts.Insecure, rootCA)
				if err != nil {
					return err
				}
				opts.Transport = t
			}
			if debug {
				fmt.Fprintf(cmd.ErrOrStderr(), "unpacking %s into %s\n", args[0], out)
			}
			err := bundle.Unpack(cmd.Context(), args[0], out, bundle.UnpackOptions{Image: opts, SkipValidation: skipValidation})
			var invalid *bundle.InvalidBundleError
			if errors.As(err, &invalid) {
				return fmt.Errorf("%w (unpack it anyway with --skip-validation)", err)
			}
			if err == nil && debug {
				fmt.Fprintf(cmd.ErrOrStderr(), "unpacked %s into %s\n", args[0], out)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&debug, "debug", "d", false, "enable debug log output")
	f.StringVarP(&out, "out", "o", "./", "directory in which to unpack operator bundle content")
	f.StringVarP(&rootCA, "root-ca", "c", "", "file path of a root CA to use when communicating with image registries")
	f.BoolVarP(&skipValidation, "skip-validation", "v", false, "disable bundle validation")
	f.BoolVar(&reg.skipTLSVerify, "skip-tls-verify", false, "disable TLS verification")
	f.BoolVar(&reg.useHTTP, "use-http", false, "use plain HTTP")
	f.BoolVarP(&reg.skipTLS, "skip-tls", "s", false, "use plain HTTP")
	_ = f.MarkDeprecated("skip-tls", "use --use-http and --skip-tls-verify instead")
	return cmd
}
