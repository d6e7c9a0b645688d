package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/graph"
	"github.com/fbcat/opm/render"
)

func newRenderGraphCmd(reg *registryFlags) *cobra.Command {
	var opts graph.Options
	var platform platformFlag
	cmd := &cobra.Command{
		Use:   "render-graph [catalog-image | catalog-dir]",
		Short: "Generate a mermaid view of the upgrade graphs of a file-based catalog",
		Args:  minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			// As upstream: every migration runs on what is rendered.
			migrations, err := render.MigrationsFor(render.AllMigrations)
			if err != nil {
				return err
			}
			r := render.Renderer{Allowed: render.CatalogDir | render.CatalogImage, Migrations: migrations, Images: reg.imageOptions(cmd, platform)}
			cfg, err := r.Run(cmd.Context(), args...)
			if errors.Is(err, render.ErrNotAllowed) {
				return fmt.Errorf("%w; render-graph takes catalog directories and catalog images", err)
			}
			if err != nil {
				return err
			}
			warnings, err := graph.WriteMermaid(cmd.OutOrStdout(), cfg, opts)
			for _, w := range warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %v\n", w)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.MinimumEdge, "minimum-edge", "", "the channel edge to be used as the lower bound of the set of edges composing the upgrade graph; default is to include all edges")
	f.StringVarP(&opts.Package, "package-name", "p", "", "a specific package name to filter output; default is to include all packages in reference")
	f.BoolVar(&opts.V0Semantics, "draw-v0-semantics", false, "whether to indicate OLMv0 semantics in the output; default is to simply represent the upgrade graph")
	addPlatformFlag(f, &platform)
	return cmd
}
