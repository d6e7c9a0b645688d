// Command opm-osdk runs operator-sdk's suites for opm alpha lint: opm
// starts it, once per lint run that validates a bundle, and speaks to it
// over its standard input and output (see lint/osdk/suites). It is not
// meant to be run by hand. It is an executable of its own so that the
// Kubernetes libraries operator-framework/api's validators link (and
// their initialisers, which Go runs before main) stay out of opm, whose
// every command would pay for them at start.
//
// opm finds it through $OPM_OSDK, else beside its own executable, else
// on $PATH; make build writes both to bin/, and go install
// github.com/fbcat/opm/cmd/... installs both.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/fbcat/opm/lint/osdk"
)

// Set with -ldflags "-X main.version=... -X main.gitCommit=... -X main.buildDate=...", as opm's.
var (
	version   = ""
	gitCommit = ""
	buildDate = ""
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		fmt.Printf("opm-osdk %s (commit %q, built %q)\n", buildVersion(), gitCommit, buildDate)
		return
	}
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "opm-osdk takes no arguments but --version: opm alpha lint starts it and speaks to it on its standard input and output")
		os.Exit(2)
	}
	if err := osdk.Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "opm-osdk:", err)
		os.Exit(1)
	}
}

// buildVersion is the version set at build time, else the module's,
// else "unknown".
func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "unknown"
}
