package main

import (
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/filter"
	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
)

func newFilterCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "json", allowed: []string{"json", "yaml"}}
	var configFile string
	var platform platformFlag
	var packages []string
	cmd := &cobra.Command{
		Use:         "filter REF... (--config FILE | --package NAME[:CHANNEL]...)",
		Short:       "Cut a file-based catalog down to the packages, channels and versions of an ImageSetConfiguration",
		Args:        minArgs(1),
		Annotations: map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			var sel filter.Selector
			switch {
			case configFile != "" && len(packages) > 0:
				return usageError{errors.New("--config and --package cannot be combined")}
			case configFile != "":
				data, err := os.ReadFile(configFile)
				if err != nil {
					return err
				}
				cfg, err := filter.ParseConfig(configFile, data)
				if err != nil {
					return err
				}
				sel = func(ref string) (*filter.Filter, error) {
					cat, err := cfg.ForRef(ref)
					if err != nil {
						return nil, err
					}
					return &cat.Filter, nil
				}
			case len(packages) > 0:
				f, err := filter.FromPackageArgs(packages)
				if err != nil {
					return usageError{err}
				}
				sel = func(string) (*filter.Filter, error) { return &f, nil }
			default:
				return usageError{errors.New("say what to keep with --config FILE or --package NAME[:CHANNEL]")}
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
	f.StringVarP(&configFile, "config", "c", "", "oc-mirror ImageSetConfiguration (mirror.openshift.io/v2alpha1 or v1alpha2) saying what to keep")
	f.StringArrayVar(&packages, "package", nil, "keep the channel heads of package NAME, or of its channel CHANNEL (repeatable)")
	f.VarP(&output, "output", "o", "Output format of the filtered catalog (json|yaml)")
	addPlatformFlag(f, &platform)
	return cmd
}
