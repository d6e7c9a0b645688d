package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

func newMigrateCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
	var migrateLevel string
	var platform platformFlag
	cmd := &cobra.Command{
		Use:   "migrate <catalogRef> <outputDir>",
		Short: "Migrate a file-based catalog to a new file-based catalog applying optional migrations",
		Args:  exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, out := args[0], args[1]
			if err := reg.check(); err != nil {
				return err
			}
			migrations, err := render.MigrationsFor(migrateLevel)
			if err != nil {
				return err
			}
			// Refuse a non-empty output directory before pulling anything.
			if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
				return fmt.Errorf("output directory %q must be empty", out)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "rendering catalog %q as file-based catalog\n", ref)
			r := render.Renderer{Allowed: render.CatalogDir | render.CatalogImage, Migrations: migrations, Images: reg.imageOptions(cmd, platform)}
			cfg, err := r.Run(cmd.Context(), ref)
			if errors.Is(err, render.ErrNotAllowed) {
				return fmt.Errorf("%w; migrate takes a catalog directory or a catalog image", err)
			}
			if err != nil {
				return err
			}
			if err := declcfg.WriteDir(cfg, out, declcfg.Format(output.value)); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote rendered file-based catalog to %q\n", out)
			return nil
		},
	}
	f := cmd.Flags()
	f.VarP(&output, "output", "o", "Output format (json|yaml)")
	f.StringVar(&migrateLevel, "migrate-level", "", "Name of the last migration to run (default: none)\n"+render.MigrationHelp())
	addPlatformFlag(f, &platform)
	return cmd
}
