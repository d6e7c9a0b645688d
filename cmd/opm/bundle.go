package main

import (
	"fmt"
	"os"

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

// addBundleFlags defines the flags generate and build share.
func addBundleFlags(cmd *cobra.Command, o *bundle.Options, directoryUsage string) {
	f := cmd.Flags()
	f.StringVarP(&o.Directory, "directory", "d", "", directoryUsage)
	f.StringVarP(&o.Package, "package", "p", "", "The name of the package that bundle image belongs to (required unless the directory is a bundle in the nested package directory format)")
	f.StringVarP(&o.Channels, "channels", "c", "", "The list of channels that bundle image belongs to (required unless the directory is a bundle in the nested package directory format)")
	f.StringVarP(&o.DefaultChannel, "default", "e", "", "The default channel for the bundle image")
	f.StringVarP(&o.OutputDir, "output-dir", "u", "", "Optional output directory for operator manifests")
	f.StringVar(&o.BaseImage, "base-image", bundle.DefaultBase, "Use a custom image pullspec as the base bundle image")
}

// generateBundle runs bundle.Generate and reports what it did on stderr.
func generateBundle(cmd *cobra.Command, o bundle.Options) (*bundle.Result, error) {
	r, err := bundle.Generate(o)
	if err == nil {
		r.Report(cmd.ErrOrStderr())
	}
	return r, err
}

func newBundleGenerateCmd() *cobra.Command {
	o := bundle.Options{Overwrite: true}
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Generate operator bundle metadata and Dockerfile",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := check(o); err != nil {
				return err
			}
			_, err := generateBundle(cmd, o)
			return err
		},
	}
	addBundleFlags(cmd, &o, "The directory where bundle manifests for a specific version are located.")
	return cmd
}

func newBundleBuildCmd(reg *registryFlags) *cobra.Command {
	var o bundle.Options
	var b bundle.Build
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Build operator bundle image",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := check(o); err != nil {
				return err
			}
			if err := check(b); err != nil {
				return err
			}
			if b.Builder != bundle.None {
				if _, err := generateBundle(cmd, o); err != nil {
					return err
				}
				wd, err := os.Getwd()
				if err != nil {
					return err
				}
				return b.Run(wd, cmd.OutOrStdout(), cmd.ErrOrStderr())
			}
			if err := reg.check(); err != nil {
				return err
			}
			created, err := image.SourceDateEpoch()
			if err != nil {
				return err
			}
			r, err := generateBundle(cmd, o)
			if err != nil {
				return err
			}
			digest, err := bundle.BuildImage(cmd.Context(), r, o.BaseImage, b.Tag, created, reg.imageOptions(cmd, platformFlag{}))
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote image %s (%s)\n", b.Tag, digest)
			return nil
		},
	}
	addBundleFlags(cmd, &o, "The directory where bundle manifests and metadata for a specific version are located")
	f := cmd.Flags()
	f.StringVarP(&b.Tag, "tag", "t", "", "The image tag applied to the bundle image (with --image-builder none: oci:DIR[:NAME] or a registry reference to push to)")
	f.StringVarP(&b.Builder, "image-builder", "b", bundle.Docker, "Tool used to manage container images. One of: [docker, podman, buildah, none]")
	f.BoolVarP(&o.Overwrite, "overwrite", "o", false, "To overwrite annotations.yaml and bundle.Dockerfile locally if existed. By default, overwrite is set to false.")
	return cmd
}

func newBundleUnpackCmd(reg *registryFlags) *cobra.Command {
	var out, rootCA string
	var debug bool
	var o bundle.UnpackOptions
	cmd := &cobra.Command{
		Use:   "unpack BUNDLE_NAME[:TAG|@DIGEST]",
		Short: "Unpacks the content of an operator bundle",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			o.Image = reg.imageOptions(cmd, platformFlag{})
			if rootCA != "" {
				t, err := image.TransportWithRootCA(o.Image.Insecure, rootCA)
				if err != nil {
					return err
				}
				o.Image.Transport = t
			}
			if debug {
				fmt.Fprintf(cmd.ErrOrStderr(), "unpacking %s into %s\n", args[0], out)
			}
			err := bundle.Unpack(cmd.Context(), args[0], out, o)
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
	f.BoolVarP(&o.SkipValidation, "skip-validation", "v", false, "disable bundle validation")
	f.BoolVar(&reg.skipTLSVerify, "skip-tls-verify", false, "disable TLS verification")
	f.BoolVar(&reg.useHTTP, "use-http", false, "use plain HTTP")
	f.BoolVarP(&reg.skipTLS, "skip-tls", "s", false, "use plain HTTP")
	_ = f.MarkDeprecated("skip-tls", "use --use-http and --skip-tls-verify instead")
	return cmd
}
