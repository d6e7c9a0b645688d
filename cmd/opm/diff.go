package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/alpha/diff"
	"github.com/fbcat/opm/render"
)

func newDiffCmd(reg *registryFlags) *cobra.Command {
	output := outputFlag{value: "text", allowed: []string{"text", "json", "yaml"}}
	var platform platformFlag
	var exitCode bool
	cmd := &cobra.Command{
		Use:         "diff OLD NEW",
		Short:       "Show what changed between two file-based catalogs",
		Args:        exactArgs(2),
		Annotations: map[string]string{failureExit2: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := reg.check(); err != nil {
				return err
			}
			if args[0] == "-" && args[1] == "-" {
				return usageError{errors.New(`only one of OLD and NEW can be "-" (standard input)`)}
			}
			r := &render.Renderer{Images: reg.imageOptions(cmd, platform)}
			old, new, err := diff.Render(cmd.Context(), r, cmd.InOrStdin(), args[0], args[1])
			if err != nil {
				return err
			}
			res := diff.Compare(old, new)
			if err := diff.Write(cmd.OutOrStdout(), output.value, res); err != nil {
				return err
			}
			if exitCode && !res.Empty() {
				return errReported
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.VarP(&output, "output", "o", "Output format (text|json|yaml)")
	f.BoolVar(&exitCode, "exit-code", false, "exit 1 when the catalogs differ, 0 when they do not")
	addPlatformFlag(f, &platform)
	return cmd
}
