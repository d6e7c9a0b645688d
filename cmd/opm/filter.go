package main

import (
	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/filter"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

func newFilterCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
	var s filter.Selection
	var platform platformFlag
	cmd := &cobra.Command{
		Use:         "filter REF... (--config FILE | --package NAME[:CHANNEL]...)",
		Short:       "Cut a file-based catalog down to the packages, channels and versions of an ImageSetConfiguration",
		Args:        minArgs(1),
		Annotations: map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			if err := check(s); err != nil {
				return err
			}
			sel, err := s.Selector()
			if err != nil {
				return err
			}
			r := &render.Renderer{Images: reg.imageOptions(cmd, platform)}
			out, err := filter.Run(cmd.Context(), r, args, sel)
			if err != nil {
				return err
			}
			return declcfg.Write(out, cmd.OutOrStdout(), declcfg.Format(output.value))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&s.Config, "config", "c", "", "oc-mirror ImageSetConfiguration (mirror.openshift.io/v2alpha1 or v1alpha2) saying what to keep")
	f.StringArrayVar(&s.Packages, "package", nil, "keep the channel heads of package NAME, or of its channel CHANNEL (repeatable)")
	f.VarP(&output, "output", "o", "Output format of the filtered catalog (json|yaml)")
	addPlatformFlag(f, &platform)
	return cmd
}
