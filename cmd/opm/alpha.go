package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/list"
	"github.com/fbcat/opm/render"
)

func newAlphaCmd(reg *registryFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "alpha",
		Short:  "Run an alpha subcommand",
		Hidden: !helpAlpha(),
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newListCmd(reg), newRenderTemplateCmd(reg), newConvertTemplateCmd(), newRenderGraphCmd(reg), newFilterCmd(reg), newDiffCmd(reg), newBundleCmd(reg), newCatalogCmd(reg), newLintCmd(reg), newOLMv1Cmd(reg))
	return cmd
}

func newListCmd(reg *registryFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the contents of a file-based catalog",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	var platform platformFlag
	load := func(cmd *cobra.Command, ref string) (*list.Catalog, error) {
		if err := reg.check(); err != nil {
			return nil, err
		}
		r := &render.Renderer{Images: reg.imageOptions(cmd, platform)}
		return list.Load(cmd.Context(), r, ref)
	}
	packages := &cobra.Command{
		Use:               "packages <catalogRef>",
		Short:             "List the packages of a file-based catalog",
		Args:              exactArgs(1),
		ValidArgsFunction: completeDirs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := load(cmd, args[0])
			if err != nil {
				return err
			}
			return list.WritePackages(cmd.OutOrStdout(), c.Packages())
		},
	}
	// perPackage makes a command listing the rows of one package, or of
	// every package when none is named.
	perPackage := func(use, short string, write func(w io.Writer, c *list.Catalog, pkg string) error) *cobra.Command {
		return &cobra.Command{
			Use: use, Short: short,
			Args:              rangeArgs(1, 2),
			ValidArgsFunction: completeCatalogThenPackage,
			RunE: func(cmd *cobra.Command, args []string) error {
				c, err := load(cmd, args[0])
				if err != nil {
					return err
				}
				return write(cmd.OutOrStdout(), c, optionalArgOr(args, 1, ""))
			},
		}
	}
	channels := perPackage("channels <catalogRef> [packageName]", "List the channels of a file-based catalog",
		func(w io.Writer, c *list.Catalog, pkg string) error {
			rows, err := c.Channels(pkg)
			if err != nil {
				return err
			}
			return list.WriteChannels(w, rows)
		})
	bundles := perPackage("bundles <catalogRef> [packageName]", "List the bundles of a file-based catalog",
		func(w io.Writer, c *list.Catalog, pkg string) error {
			rows, err := c.Bundles(pkg)
			if err != nil {
				return err
			}
			return list.WriteBundles(w, rows)
		})
	for _, c := range []*cobra.Command{packages, channels, bundles} {
		addPlatformFlag(c.Flags(), &platform)
	}
	cmd.AddCommand(packages, channels, bundles)
	return cmd
}
