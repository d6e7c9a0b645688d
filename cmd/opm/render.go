package main

import (
	"fmt"
	"sync"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/validate"
)

func newRenderCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
	var migrate bool
	var migrateLevel, imageRefTemplate string
	var platform platformFlag
	cmd := &cobra.Command{
		Use:   "render [catalog-image | catalog-directory | bundle-image | bundle-directory]...",
		Short: "Generate a stream of file-based catalog objects from catalogs and bundles",
		Args:  minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			migrations, tmpl, err := renderSetup(migrate, migrateLevel, imageRefTemplate)
			if err != nil {
				return err
			}
			var warnings []declcfg.Warning
			var mu sync.Mutex
			r := render.Renderer{
				Migrations:       migrations,
				ImageRefTemplate: tmpl,
				Images:           reg.imageOptions(cmd, platform),
				// The output keeps upstream's bytes; what they lose is said here.
				LoadOptions: []declcfg.LoadOption{declcfg.WithWarnings(func(w declcfg.Warning) {
					mu.Lock()
					warnings = append(warnings, w)
					mu.Unlock()
				})},
			}
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
	f.BoolVar(&migrate, "migrate", false, "Perform migrations on the rendered file-based catalog")
	f.StringVar(&migrateLevel, "migrate-level", "", "Name of the last migration to run (default: none)\n"+render.MigrationHelp())
	cmd.MarkFlagsMutuallyExclusive("migrate", "migrate-level")
	addPlatformFlag(f, &platform)
	f.StringVar(&imageRefTemplate, "alpha-image-ref-template", "", alphaFlagPrefix+"When bundle image reference information is unavailable, populate it with this template")
	return cmd
}

// renderSetup makes the migrations (--migrate, --migrate-level) and the
// image reference template (--alpha-image-ref-template) render is asked for.
func renderSetup(migrate bool, migrateLevel, imageRefTemplate string) (render.Migrations, *template.Template, error) {
	level := migrateLevel
	if migrate {
		level = render.AllMigrations
	}
	migrations, err := render.MigrationsFor(level)
	if err != nil {
		return nil, nil, err
	}
	var tmpl *template.Template
	if imageRefTemplate != "" {
		if tmpl, err = template.New("image").Parse(imageRefTemplate); err != nil {
			return nil, nil, fmt.Errorf("invalid image reference template: %w", err)
		}
	}
	return migrations, tmpl, nil
}
