package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Set with -ldflags "-X main.version=... -X main.gitCommit=... -X main.buildDate=...".
var (
	version   = ""
	gitCommit = ""
	buildDate = ""
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the opm version",
		Example: "opm version",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := version
			if v == "" {
				v = "unknown"
				if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
					v = bi.Main.Version
				}
			}
			// Upstream prints a Go struct literal; scripts parse it, so keep the shape.
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "Version: version.Version{OpmVersion:%q, GitCommit:%q, BuildDate:%q, GoOs:%q, GoArch:%q}\n",
				v, gitCommit, buildDate, runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
