package main

import (
	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/validate"
)

func newInitCmd() *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
	var o validate.PackageOptions
	cmd := &cobra.Command{
		Use:   "init <packageName>",
		Short: "Generate an olm.package blob for a file-based catalog",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name, o.DefaultChannelGiven = args[0], cmd.Flags().Changed("default-channel")
			if err := check(o); err != nil {
				return err
			}
			pkg, err := validate.NewPackage(o)
			if err != nil {
				return err
			}
			cfg := &declcfg.DeclarativeConfig{Packages: []declcfg.Package{*pkg}}
			return declcfg.Write(cfg, cmd.OutOrStdout(), declcfg.Format(output.value))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.DefaultChannel, "default-channel", "c", "", "The channel that subscriptions will default to if unspecified")
	f.StringVarP(&o.IconFile, "icon", "i", "", "Path to package's icon")
	f.StringVarP(&o.DescriptionFile, "description", "d", "", "Path to the operator's README.md (or other documentation)")
	f.VarP(&output, "output", "o", "Output format (json|yaml)")
	return cmd
}
