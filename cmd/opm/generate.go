package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/generate"
)

func newGenerateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "generate",
		Short:   "Generate various artifacts for file-based catalogs",
		Example: "  opm generate dockerfile catalog/",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newGenerateDockerfileCmd())
	return cmd
}

func newGenerateDockerfileCmd() *cobra.Command {
	var baseImage, builderImage, binaryImage string
	var labels []string
	cmd := &cobra.Command{
		Use:   "dockerfile <fbcRootDir>",
		Short: "Generate a Dockerfile for a file-based catalog",
		Long: `Generate a Dockerfile for a file-based catalog.

This command creates a Dockerfile in the same directory as the <fbcRootDir>
(named <fbcDirName>.Dockerfile) that can be used to build the catalog
image. If a Dockerfile with the same name already exists, this command will
fail.

When specifying extra labels, note that if duplicate keys exist, only the last
value of each duplicate key will be added to the generated Dockerfile.

A separate builder and base image can be specified. The builder image may not be "scratch".`,
		Example: `  # catalog.Dockerfile beside catalog/, on quay.io/operator-framework/opm:latest
  opm generate dockerfile catalog

  # Offline, on a base image holding this opm (make base-image builds one):
  opm generate dockerfile catalog -i localhost/opm-base:latest -b localhost/opm-base:latest

  # A binary-less image (FROM scratch: no /bin/opm, the image cannot serve;
  # OLM v0 extracts its content, see the comment written in the Dockerfile)
  opm generate dockerfile catalog -i scratch -l org.opencontainers.image.source=https://example.com/repo`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("binary-image") {
				baseImage = binaryImage
				if !cmd.Flags().Changed("builder-image") {
					builderImage = binaryImage
				}
			}
			if builderImage == "scratch" {
				return errors.New(`invalid builder image: "scratch" (the builder runs /bin/opm to build the serve cache)`)
			}
			extra, err := generate.ParseLabels(labels)
			if err != nil {
				return err
			}
			d := generate.Dockerfile{CatalogDir: args[0], BaseImage: baseImage, BuilderImage: builderImage, Labels: extra}
			path, err := d.Write()
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", declcfg.QuoteFileName(path))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&baseImage, "base-image", "i", generate.DefaultImage, "Image base to use to build the index.")
	f.StringVarP(&builderImage, "builder-image", "b", generate.DefaultImage, "Image to use as a build stage.")
	f.StringSliceVarP(&labels, "extra-labels", "l", nil, "Extra labels to include in the generated Dockerfile. Labels should be of the form 'key=value'.")
	f.StringVar(&binaryImage, "binary-image", generate.DefaultImage, "Image in which to build catalog.")
	_ = f.MarkDeprecated("binary-image", "use --base-image instead")
	cmd.MarkFlagsMutuallyExclusive("binary-image", "base-image")
	return cmd
}
