package main

import (
	"sync"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/validate"
)

func newRenderCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
	var o render.Options
	var platform platformFlag
	cmd := &cobra.Command{
		Use:   "render [catalog-image | catalog-directory | bundle-image | bundle-directory]...",
		Short: "Generate a stream of file-based catalog objects from catalogs and bundles",
		Args:  minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			r, err := o.Renderer(reg.imageOptions(cmd, platform))
			if err != nil {
				return err
			}
			// The output keeps upstream's bytes; what they lose is said here.
			var warnings []declcfg.Warning
			var mu sync.Mutex
			r.LoadOptions = []declcfg.LoadOption{declcfg.WithWarnings(func(w declcfg.Warning) {
				mu.Lock()
				warnings = append(warnings, w)
				mu.Unlock()
			})}
			w := declcfg.NewOrderedWriter(declcfg.Format(output.value))
			defer w.Close()
			if err := r.RenderTo(cmd.Context(), w, args...); err != nil {
				return err
			}
			validate.WriteWarnings(cmd.ErrOrStderr(), warnings)
			_, err = w.WriteTo(cmd.OutOrStdout())
			return err
		},
	}
	f := cmd.Flags()
	f.VarP(&output, "output", "o", "Output format of the streamed file-based catalog objects (json|yaml)")
	f.BoolVar(&o.Migrate, "migrate", false, "Perform migrations on the rendered file-based catalog")
	f.StringVar(&o.MigrateLevel, "migrate-level", "", "Name of the last migration to run (default: none)\n"+render.MigrationHelp())
	cmd.MarkFlagsMutuallyExclusive("migrate", "migrate-level")
	addPlatformFlag(f, &platform)
	f.StringVar(&o.ImageRefTemplate, "alpha-image-ref-template", "", alphaFlagPrefix+"When bundle image reference information is unavailable, populate it with this template")
	return cmd
}
