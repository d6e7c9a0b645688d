package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/list"
	"github.com/fbcat/opm/render"
)

func newAlphaCmd(reg *registryFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "alpha",
		Short: "Run an alpha subcommand",
		Long: `Run an alpha subcommand: commands for file-based catalogs whose interface
may still change.`,
		Example: `  HELP_ALPHA=true opm --help            # the alpha commands among the others
  opm alpha list packages catalog/`,
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
		Long: `The list subcommands print the contents of a file-based catalog (a
directory or a catalog image). The catalog must be valid: problems are reported as
opm validate reports them.`,
		Example: `  opm alpha list packages catalog/
  opm alpha list channels catalog/ etcd
  opm alpha list bundles quay.io/org/catalog:latest etcd`,
		Args: noArgs,
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
		Long:              `The "packages" command lists the packages in the provided file-based catalog, with the display name of the default channel's head and the default channel.`,
		Example:           `  opm alpha list packages catalog/`,
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
	perPackage := func(use, short, long, example string, write func(w io.Writer, c *list.Catalog, pkg string) error) *cobra.Command {
		return &cobra.Command{
			Use: use, Short: short, Long: long, Example: example,
			Args:              rangeArgs(1, 2),
			ValidArgsFunction: completeCatalogThenPackage,
			RunE: func(cmd *cobra.Command, args []string) error {
				c, err := load(cmd, args[0])
				if err != nil {
					return err
				}
				return write(cmd.OutOrStdout(), c, optionalArg(args, 1))
			},
		}
	}
	channels := perPackage("channels <catalogRef> [packageName]", "List the channels of a file-based catalog",
		`The "channels" command lists the channels in the provided file-based catalog (or in one of its packages) with their heads.`,
		`  opm alpha list channels catalog/ etcd`,
		func(w io.Writer, c *list.Catalog, pkg string) error {
			rows, err := c.Channels(pkg)
			if err != nil {
				return err
			}
			return list.WriteChannels(w, rows)
		})
	bundles := perPackage("bundles <catalogRef> [packageName]", "List the bundles of a file-based catalog",
		`The "bundles" command lists the bundles in the provided file-based catalog (or in one of its packages), once per channel they are in, with their upgrade edges and images, and in a last column, DEPRECATED, which olm.deprecations entries apply: "bundle", "channel", "package" (comma-separated).`,
		`  opm alpha list bundles quay.io/org/catalog:latest etcd`,
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

func optionalArg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}
