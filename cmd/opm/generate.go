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
		Use:   "generate",
		Short: "Generate various artifacts for file-based catalogs",
		Args:  noArgs,
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
		Args:  exactArgs(1),
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
