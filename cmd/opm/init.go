package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
)

func newInitCmd() *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
	var defaultChannel, iconFile, descriptionFile string
	cmd := &cobra.Command{
		Use:   "init <packageName>",
		Short: "Generate an olm.package declarative config blob",
		Long: `Generate an olm.package declarative config blob, the blob that starts a
package in a file-based catalog.

The blob is written to stdout. The icon's media type is detected from its
content (PNG, JPEG, GIF, WebP, SVG, ICO, BMP, TIFF, AVIF or HEIF); the
description file is used verbatim.`,
		Example: `  opm init my-operator --default-channel=stable --description=README.md --icon=logo.svg > catalog/my-operator/package.json`,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "" {
				// Upstream writes nothing and succeeds: a blob without a
				// name would be dropped from every catalog anyway.
				return fmt.Errorf("the package name is empty: give the name of the package, e.g. opm init my-operator")
			}
			pkg := declcfg.Package{Schema: declcfg.SchemaPackage, Name: args[0], DefaultChannel: defaultChannel}
			if iconFile != "" {
				data, err := os.ReadFile(iconFile)
				if err != nil {
					return fmt.Errorf("open icon file: %w", err)
				}
				mediaType, err := declcfg.IconMediaType(data)
				if err != nil {
					return fmt.Errorf("icon file %s: %w", declcfg.QuoteFileName(iconFile), err)
				}
				pkg.Icon = &declcfg.Icon{Data: data, MediaType: mediaType}
			}
			if descriptionFile != "" {
				data, err := os.ReadFile(descriptionFile)
				if err != nil {
					return fmt.Errorf("open description file: %w", err)
				}
				pkg.Description = string(data)
			}
			cfg := &declcfg.DeclarativeConfig{Packages: []declcfg.Package{pkg}}
			return declcfg.Write(cfg, cmd.OutOrStdout(), declcfg.Format(output.value))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&defaultChannel, "default-channel", "c", "", "The channel that subscriptions will default to if unspecified")
	f.StringVarP(&iconFile, "icon", "i", "", "Path to package's icon")
	f.StringVarP(&descriptionFile, "description", "d", "", "Path to the operator's README.md (or other documentation)")
	f.VarP(&output, "output", "o", "Output format (json|yaml)")
	return cmd
}
