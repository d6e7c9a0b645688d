package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/template"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

func newRenderTemplateCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml", "mermaid"}}
	var migrateLevel string
	var platform platformFlag
	cmd := &cobra.Command{
		Use:   "render-template [TYPE] [FILE]",
		Short: "Render a catalog template (basic, semver or substitutes)",
		Args:  rangeArgs(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			kind, file, err := template.ParseArgs(args)
			if err != nil {
				return usageError{err}
			}
			if err := reg.check(); err != nil {
				return err
			}
			migrations, err := render.MigrationsFor(migrateLevel)
			if err != nil {
				return err
			}
			in, err := template.ReadInput(file, cmd.InOrStdin())
			if err != nil {
				return err
			}
			if kind == "" {
				if kind, err = template.Detect(in); err != nil {
					return err
				}
			}
			bundles := template.ImageBundles(render.Renderer{Migrations: migrations, Images: reg.imageOptions(cmd, platform)})
			cfg, err := template.Expand(cmd.Context(), kind, in, bundles)
			if err != nil {
				return err
			}
			return template.WriteRendered(cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, output.value)
		},
	}
	f := cmd.Flags()
	f.VarP(&output, "output", "o", "Output format (json|yaml|mermaid)")
	f.StringVar(&migrateLevel, "migrate-level", "", "Name of the last migration to run (default: none)\n"+render.MigrationHelp())
	addPlatformFlag(f, &platform)
	return cmd
}

func newConvertTemplateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "convert-template",
		Short: "Convert a file-based catalog to a template",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	for _, k := range []template.Kind{template.Basic, template.Substitutes} {
		output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
		sub := &cobra.Command{
			Use:   string(k) + " [<catalog-file> | -]",
			Short: fmt.Sprintf("Generate a %s template from a file-based catalog", k),
			Args:  rangeArgs(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				in, err := template.ReadInput(optionalArgOr(args, 0, "-"), cmd.InOrStdin())
				if err != nil {
					return err
				}
				out, err := template.Convert(cmd.Context(), k, in, declcfg.Format(output.value))
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(out)
				return err
			},
		}
		sub.Flags().VarP(&output, "output", "o", "Output format (json|yaml)")
		cmd.AddCommand(sub)
	}
	return cmd
}

func optionalArgOr(args []string, i int, def string) string {
	if i < len(args) {
		return args[i]
	}
	return def
}
