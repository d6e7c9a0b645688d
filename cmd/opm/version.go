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
		Use:   "version",
		Short: "Print the opm version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := opmVersion()
			// Upstream prints a Go struct literal; scripts parse it, so keep the shape.
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "Version: version.Version{OpmVersion:%q, GitCommit:%q, BuildDate:%q, GoOs:%q, GoArch:%q}\n",
				v, gitCommit, buildDate, runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}

// opmVersion is the version set at build time, else the module's, else
// "unknown".
func opmVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "unknown"
}
