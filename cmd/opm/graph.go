package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/graph"
	"github.com/fbcat/opm/render"
)

// renderGraphExample is upstream's example text, byte for byte (trailing
// blank lines and tabs included), so that help reads the same.
const renderGraphExample = `
#
# Output channel graph of a catalog in mermaid format
#
$ opm alpha render-graph quay.io/operatorhubio/catalog:latest

#
# Output channel graph of a catalog and generate a scaled vector graphic (SVG) representation
#
$ opm alpha render-graph quay.io/operatorhubio/catalog:latest | \
    docker run --rm -i -v "$PWD":/data ghcr.io/mermaid-js/mermaid-cli/mermaid-cli -o /data/operatorhubio-catalog.svg

# Note:  mermaid has a default maxTextSize of 30 000 characters.  To override this, generate a JSON-formatted initialization file for
# mermaid like this (using 300 000 for the limit):
$ cat << EOF > ./mermaid.json
{ "maxTextSize": 300000 }
EOF
# and then pass the file for initialization configuration, via the '-c' option, like:
$ opm alpha render-graph quay.io/operatorhubio/catalog:latest | \
    docker run --rm -i -v "$PWD":/data ghcr.io/mermaid-js/mermaid-cli/mermaid-cli -c /data/mermaid.json -o /data/operatorhubio-catalog.svg


		`

func newRenderGraphCmd(reg *registryFlags) *cobra.Command {
	var opts graph.Options
	var platform platformFlag
	cmd := &cobra.Command{
		Use:   "render-graph [catalog-image | catalog-dir]",
		Short: "Generate a mermaid view of the upgrade graphs of a file-based catalog",
		Long: `Generate mermaid-formatted view of upgrade graphs of operators in an index

The index is a file-based catalog directory or a catalog image.`,
		Example: renderGraphExample,
		Args:    minArgs(1),
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
